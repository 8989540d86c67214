package harness

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
)

// TestProgressWithinJob: with Rounds set, the bar moves while a job runs
// (Job.Advance redraws it), not only when the job ends. The control: a job
// that reports nothing leaves the bar undrawn until it ends.
func TestProgressWithinJob(t *testing.T) {
	for _, advance := range []bool{true, false} {
		var buf bytes.Buffer
		var during string
		_, err := RunTrials(TrialConfig{Reps: 1, Series: 1, Points: 1, RunOptions: RunOptions{Workers: 1, Progress: &buf}, Rounds: 100},
			func(job Job, out []float64) error {
				if advance {
					job.Advance(50)
				}
				during = buf.String() // one worker: the bar is drawn in this goroutine
				return nil
			})
		if err != nil {
			t.Fatal(err)
		}
		moved := strings.Contains(during, "0/1 jobs, 50 %")
		if moved != advance {
			t.Errorf("advance %v: bar during the job %q", advance, during)
		}
		if !strings.Contains(buf.String(), "1/1 jobs, 100 %") {
			t.Errorf("advance %v: final bar %q", advance, buf.String())
		}
	}
}

// TestProgressPlan: a plan's Progress receives the bar of a job list whose
// TrialConfig has none, prefixed with the list's label; without either
// nothing is drawn.
func TestProgressPlan(t *testing.T) {
	for _, withPlan := range []bool{true, false} {
		var buf bytes.Buffer
		plan := &Plan{}
		if withPlan {
			plan.Progress = &buf
		}
		_, err := RunTrials(TrialConfig{Reps: 2, Series: 1, Points: 1, RunOptions: RunOptions{Workers: 1, Plan: plan}, Label: "lbl"},
			func(job Job, out []float64) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(buf.String(), "lbl [") && strings.Contains(buf.String(), "2/2 jobs"); got != withPlan {
			t.Errorf("plan progress %v: %q", withPlan, buf.String())
		}
	}
}

// TestRegretCurveTickSameBits: the ticking loop records exactly what
// RegretCurve records, and its ticks add up to the horizon with at most
// bandit.TickRounds rounds between two.
func TestRegretCurveTickSameBits(t *testing.T) {
	const n = 3*bandit.TickRounds + 5
	rec := LogGrid(n, 20)
	run := func(tick func(int)) []float64 {
		env := &coinEnv{rng: bandit.Stream(7, 0)}
		pol := &randomPolicy{rng: bandit.Stream(7, 1)}
		out := make([]float64, len(rec))
		bandit.RegretCurveTick(env, pol, n, rec, out, tick)
		return out
	}
	plain := run(nil)
	sum, most := 0, 0
	ticked := run(func(r int) { sum += r; most = max(most, r) })
	for i := range plain {
		if plain[i] != ticked[i] {
			t.Fatalf("record %d: %v with ticks, %v without", i, ticked[i], plain[i])
		}
	}
	if sum != n || most > bandit.TickRounds {
		t.Errorf("ticks sum to %d (want %d), largest %d (at most %d)", sum, n, most, bandit.TickRounds)
	}
}
