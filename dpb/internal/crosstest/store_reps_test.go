package crosstest

import (
	"encoding/json"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/as17fig"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/mabfig"
	"github.com/dpbandits/dpbandits/dpb/mt14fig"
	"github.com/dpbandits/dpbandits/dpb/ss18"
	"github.com/dpbandits/dpbandits/dpb/ss18fig"
)

// TestStoreReusesRepetitions: each experiment that keeps jobs in a store,
// run with 2 repetitions and then with 3 on the same store, computes only
// the third repetition's jobs, and its result is the one a fresh 3-run
// computation gives without a store, bit for bit. The second half is the
// check that a repetition's streams do not depend on the run count (the
// stored repetitions came from a 2-run computation). It fails when the run
// count is part of the store key (every repetition recomputed) or of a
// repetition's seed (the results differ).
func TestStoreReusesRepetitions(t *testing.T) {
	for _, c := range []struct {
		name   string
		series int
		run    func(reps int, plan *harness.Plan) (any, error)
	}{
		{"mt14-fig1", 2, func(reps int, plan *harness.Plan) (any, error) {
			return mt14fig.RunFig1(mt14fig.Fig1Config{Arms: 3, Horizon: 300, Reps: reps, Seed: 7, Epsilons: []float64{1}, Points: 5, RunOptions: harness.RunOptions{Workers: 2, Plan: plan}})
		}},
		{"private-mab", 0, func(reps int, plan *harness.Plan) (any, error) {
			return mabfig.Run(mabfig.Config{Arms: 3, Horizon: 300, Reps: reps, Seed: 4, Epsilons: []float64{1}, Points: 5, RunOptions: harness.RunOptions{Workers: 2, Plan: plan}})
		}},
		{"ss18-exp1", 2, func(reps int, plan *harness.Plan) (any, error) {
			return ss18fig.Experiment1(ss18fig.Exp1Config{Dims: []int{3}, Horizon: 200, Reps: reps, Points: 5, Seed: 5, RunOptions: harness.RunOptions{Workers: 2, Plan: plan}})
		}},
		{"ss18-exp2", 2, func(reps int, plan *harness.Plan) (any, error) {
			return ss18fig.Experiment2(ss18fig.Exp2Config{Dim: 3, Gaps: []float64{0.1, 0}, Algs: []ss18.Alg{ss18.NonPrivate}, Horizon: 200, Reps: reps, Points: 5, Seed: 3, RunOptions: harness.RunOptions{Workers: 2, Plan: plan}})
		}},
		{"beyond-as17", 0, func(reps int, plan *harness.Plan) (any, error) {
			cfg := as17fig.BeyondConfig{Horizons: []int{64}, Epsilon: 1, Reps: reps, Seed: 5, SqrtMaxHorizon: 64, RunOptions: harness.RunOptions{Workers: 2, Plan: plan}}
			r, err := as17fig.Beyond(cfg)
			if r != nil {
				r.Seconds = 0 // wall time
			}
			return r, err
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			fresh, err := c.run(3, nil)
			if err != nil {
				t.Fatal(err)
			}
			st, err := harness.OpenStore(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			p2 := &harness.Plan{Store: st}
			if _, err := c.run(2, p2); err != nil {
				t.Fatal(err)
			}
			ran2, _, _ := p2.Counts()
			p3 := &harness.Plan{Store: st}
			got, err := c.run(3, p3)
			if err != nil {
				t.Fatal(err)
			}
			ran3, loaded3, _ := p3.Counts()
			if ran2 == 0 || ran3*2 != ran2 || loaded3 != ran2 {
				t.Errorf("2 runs ran %d jobs; then 3 runs ran %d and loaded %d: want %d and %d (only the new repetition's jobs run)",
					ran2, ran3, loaded3, ran2/2, ran2)
			}
			a, _ := json.Marshal(fresh)
			b, _ := json.Marshal(got)
			if string(a) != string(b) {
				t.Errorf("3 runs on a store filled by 2 runs differ from 3 fresh runs: a repetition depends on the run count")
			}
		})
	}
}
