package harness

import (
	"errors"
	"sync/atomic"
	"testing"
)

// An estimate with EstimateValues stops at the first list past the bound,
// having recorded it, with ErrEstimateOver.
func TestEstimateValuesBound(t *testing.T) {
	plan := &Plan{Estimate: true, EstimateValues: 1000}
	var calls atomic.Int64
	if _, err := RunTrials(TrialConfig{Reps: 10, Series: 2, Points: 50, RunOptions: RunOptions{Plan: plan}, Label: "t-a"}, fakeTrial(&calls)); err != nil {
		t.Fatalf("1000 values: %v", err)
	}
	if _, err := RunTrials(TrialConfig{Reps: 10, Series: 2, Points: 1, RunOptions: RunOptions{Plan: plan}, Label: "t-b"}, fakeTrial(&calls)); !errors.Is(err, ErrEstimateOver) {
		t.Errorf("1020 values: err = %v, want ErrEstimateOver", err)
	}
	if l := plan.Lists(); len(l) != 2 || calls.Load() != 0 {
		t.Errorf("lists %+v, %d jobs run", l, calls.Load())
	}
}
