package harness

import (
	"context"
	"errors"
	"math"
	"sync/atomic"
	"testing"
)

// fakeTrial writes values that depend only on the job.
func fakeTrial(calls *atomic.Int64) TrialFunc {
	return func(job Job, out []float64) error {
		calls.Add(1)
		for k := range out {
			out[k] = float64(job.Rep*100+job.Series*10+k) + 0.5
		}
		return nil
	}
}

func equalOut(t *testing.T, got, want [][][]float64) {
	t.Helper()
	for s := range want {
		for r := range want[s] {
			for k := range want[s][r] {
				if math.Float64bits(got[s][r][k]) != math.Float64bits(want[s][r][k]) {
					t.Fatalf("out[%d][%d][%d] = %v, want %v", s, r, k, got[s][r][k], want[s][r][k])
				}
			}
		}
	}
}

// Shards run disjoint jobs whose union is the job list; the merge returns
// the single-process result and runs nothing; a resumed run runs nothing.
func TestRunTrialsShardsAndMerge(t *testing.T) {
	cfg := TrialConfig{Reps: 7, Series: 3, Points: 4, RunOptions: RunOptions{Workers: 3}, Label: "t-run", Key: testKey{Seed: 1}}
	var calls atomic.Int64
	want, err := RunTrials(cfg, fakeTrial(&calls))
	if err != nil {
		t.Fatal(err)
	}
	st, _ := OpenStore(t.TempDir())
	calls.Store(0)
	for i := range 4 {
		cfg.Plan = &Plan{Store: st, Shard: Shard{I: i, N: 4}}
		if _, err := RunTrials(cfg, fakeTrial(&calls)); err != nil {
			t.Fatal(err)
		}
	}
	if calls.Load() != 21 {
		t.Errorf("4 shards ran %d jobs, want 21 (each once)", calls.Load())
	}
	calls.Store(0)
	cfg.Plan = &Plan{Store: st, Merge: true}
	got, err := RunTrials(cfg, fakeTrial(&calls))
	if err != nil || calls.Load() != 0 || len(cfg.Plan.Missing()) != 0 {
		t.Fatalf("merge: err %v, ran %d, missing %v", err, calls.Load(), cfg.Plan.Missing())
	}
	equalOut(t, got, want)
	cfg.Plan = &Plan{Store: st}
	if got, err = RunTrials(cfg, fakeTrial(&calls)); err != nil || calls.Load() != 0 {
		t.Fatalf("resume of a finished run: err %v, ran %d jobs", err, calls.Load())
	}
	equalOut(t, got, want)
}

func TestRunTrialsMergeMissing(t *testing.T) {
	st, _ := OpenStore(t.TempDir())
	var calls atomic.Int64
	cfg := TrialConfig{Reps: 4, Series: 2, Points: 1, Label: "t-run", Key: testKey{Seed: 2}, RunOptions: RunOptions{Plan: &Plan{Store: st, Shard: Shard{I: 0, N: 2}}}}
	if _, err := RunTrials(cfg, fakeTrial(&calls)); err != nil {
		t.Fatal(err)
	}
	cfg.Plan = &Plan{Store: st, Merge: true}
	out, err := RunTrials(cfg, fakeTrial(&calls))
	if err != nil {
		t.Fatal(err)
	}
	if miss := cfg.Plan.Missing(); len(miss) != 4 || calls.Load() != 4 {
		t.Errorf("missing %v (want the 4 jobs of shard 1/2), ran %d", miss, calls.Load())
	}
	if !math.IsNaN(out[0][3][0]) || math.IsNaN(out[0][0][0]) {
		t.Errorf("missing jobs must be NaN, present ones loaded: %v", out)
	}
	cfg.Plan = &Plan{Merge: true}
	if _, err := RunTrials(cfg, fakeTrial(&calls)); err == nil {
		t.Error("merge without a store: no error")
	}
	cfg.Plan, cfg.Label = &Plan{Store: st}, ""
	if _, err := RunTrials(cfg, fakeTrial(&calls)); err == nil {
		t.Error("a store without a label: no error")
	}
}

// A cancelled run stops, saves only whole jobs and says it was interrupted;
// running again completes it with the same result.
func TestRunTrialsCancel(t *testing.T) {
	st, _ := OpenStore(t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int64
	inner := fakeTrial(&calls)
	cfg := TrialConfig{Reps: 50, Series: 1, Points: 3, RunOptions: RunOptions{Workers: 2, Plan: &Plan{Store: st, Ctx: ctx}}, Label: "t-run", Key: testKey{Seed: 3}}
	_, err := RunTrials(cfg, func(job Job, out []float64) error {
		if job.Rep == 5 {
			cancel()
		}
		return inner(job, out)
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	b, _ := st.Bin("t-run", testKey{Seed: 3}, Shape{50, 1, 3})
	done, _ := b.Done()
	if len(done) == 0 || len(done) >= 50 {
		t.Fatalf("%d jobs saved after a cancel at job 5", len(done))
	}
	cfg.Plan = &Plan{Store: st}
	got, err := RunTrials(cfg, inner)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Plan = nil
	want, _ := RunTrials(cfg, inner)
	equalOut(t, got, want)
}

func TestRunTrialsEstimate(t *testing.T) {
	var calls atomic.Int64
	p := &Plan{Estimate: true}
	cfg := TrialConfig{Reps: 5, Series: 2, Points: 3, Label: "t-run", Rounds: 1000, RunOptions: RunOptions{Plan: p}}
	if _, err := RunTrials(cfg, fakeTrial(&calls)); err != nil {
		t.Fatal(err)
	}
	l := p.Lists()
	if calls.Load() != 0 || len(l) != 1 || l[0].Shape.Jobs() != 10 || l[0].Rounds != 1000 {
		t.Errorf("estimate ran %d jobs and recorded %+v", calls.Load(), l)
	}
}
