package check

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/internal/testutil"
)

// TestLemma43 checks AS17 Lemma 4.3 by simulation for Hedge and EXP2: the
// mean of the paired difference (regret on true − regret on noisy losses)
// is zero within z5 standard errors (false-failure probability ≈ 1e-5 each,
// normal approximation over independent repetitions).
func TestLemma43(t *testing.T) {
	reps := 400
	if testing.Short() {
		reps = 150
	}
	for _, bandit := range []bool{false, true} {
		r, err := Lemma43(Lemma43Config{Bandit: bandit, Arms: 3, Horizon: 500, Lambda: 2, Reps: reps, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.Z) > testutil.Z5 || r.DiffSE == 0 {
			t.Errorf("bandit=%v: regret true %.2f, noisy %.2f, difference %.2f ± %.2f (z = %.2f)", bandit, r.TrueRegret, r.NoisyRegret, r.Diff, r.DiffSE, r.Z)
		}
	}
}
