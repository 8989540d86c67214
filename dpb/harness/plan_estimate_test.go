package harness

import (
	"math"
	"runtime"
	"sync/atomic"
	"testing"
)

// An estimate runs no job and allocates little in proportion to its jobs:
// every job's values are one shared row of NaN. A list of 100,000 runs × 8
// series × 1000 points (6.4 GB) was allocated whole, so sizing a run that
// could not fit (the CLI's memory budget) could itself exhaust memory.
func TestEstimateSharesRows(t *testing.T) {
	plan := &Plan{Estimate: true}
	var calls atomic.Int64
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	out, err := RunTrials(TrialConfig{Reps: 100000, Series: 8, Points: 1000, RunOptions: RunOptions{Plan: plan}, Label: "t-est"}, fakeTrial(&calls))
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
		t.Errorf("an estimate of 800,000 jobs of 1000 points allocated %d MB", got>>20)
	}
	if calls.Load() != 0 || len(out) != 8 || len(out[7]) != 100000 || len(out[7][99999]) != 1000 || !math.IsNaN(out[3][5][7]) {
		t.Errorf("estimate ran %d jobs or returned a wrong shape", calls.Load())
	}
	if l := plan.Lists(); len(l) != 1 || l[0].Shape != (Shape{Reps: 100000, Series: 8, Points: 1000}) {
		t.Errorf("lists %+v", l)
	}
}
