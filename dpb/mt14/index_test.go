package mt14

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/env"
)

// TestIndexIsChoose: after the initial pulls, DP-UCB plays the first arm of
// largest Index, on every round of a run (so Index is the index Choose uses,
// bit for bit); the control, Index with Γ left out, disagrees with Choose.
func TestIndexIsChoose(t *testing.T) {
	const k, T = 5, 3000
	rng := bandit.Stream(1, 7)
	p, err := NewDPUCB(DPUCBConfig{Arms: k, Horizon: T, Epsilon: 1}, rng)
	if err != nil {
		t.Fatal(err)
	}
	e := env.NewBernoulliArms([]float64{0.9, 0.4, 0.4, 0.4, 0.4}, bandit.Stream(1, 8))
	r := bandit.NewRound(e)
	differ := 0
	for round := 1; round <= T; round++ {
		e.Next(r, round)
		a := p.Choose(r)
		if round > k {
			argmax := func(gamma float64) int {
				best, bv := 0, math.Inf(-1)
				for arm := range k {
					if v := Index(p.PrivateTotals()[arm], p.Pulls()[arm], round, gamma); v > bv {
						best, bv = arm, v
					}
				}
				return best
			}
			if got := argmax(p.Relaxation()); got != a {
				t.Fatalf("round %d: Choose plays %d, the largest Index is arm %d", round, a, got)
			}
			if argmax(0) != a {
				differ++
			}
		}
		p.Update(r, a, e.Reward(r, a))
	}
	if differ == 0 {
		t.Error("control: leaving Γ out never changes the arm, so the test cannot tell Γ is in the index")
	}
}
