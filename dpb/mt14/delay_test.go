package mt14

import (
	"math/rand/v2"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

func TestDelayedRounds(t *testing.T) {
	for _, tau := range []int{0, 1, 3, 100} {
		for tt := 1; tt <= 500; tt++ {
			got := DelayedRounds(tt, tau)
			// MT14 §5.2 as printed: t − (t mod (τ+1) + 1), for the rounds where it is >= 0.
			printed := tt - (tt%(tau+1) + 1)
			if printed >= 0 && got != printed {
				t.Fatalf("τ=%d t=%d: %d, printed formula gives %d", tau, tt, got, printed)
			}
			if printed < 0 && got != 0 {
				t.Fatalf("τ=%d t=%d: %d, want 0 before the first synchronisation", tau, tt, got)
			}
		}
	}
	if _, err := Delayed(nil, 1); err == nil {
		t.Error("nil policy accepted")
	}
	if _, err := Delayed(&UCB1{}, -1); err == nil {
		t.Error("negative delay accepted")
	}
}

// TestDelayedExact: at every round, a delayed policy chooses exactly as a
// fresh copy of the same policy (same seed) that has been fed the
// observations of rounds 1..s(t) and nothing else. This holds for
// deterministic and noisy policies alike, since both copies make the same
// draws in the same order.
func TestDelayedExact(t *testing.T) {
	const k, d, T = 4, 3, 300
	makers := map[string]func(rng *rand.Rand) bandit.Policy{
		"ucb1": func(*rand.Rand) bandit.Policy { p, _ := NewUCB1(UCB1Config{Arms: k}); return p },
		"dpucb": func(rng *rand.Rand) bandit.Policy {
			p, _ := NewDPUCB(DPUCBConfig{Arms: k, Horizon: T, Epsilon: 50, RelaxationScale: 1e-3, Noise: noise.Simulated}, rng)
			return p
		},
		"contextual": func(rng *rand.Rand) bandit.Policy {
			p, _ := NewContextualUCB(ContextualUCBConfig{Dim: d, Arms: k, Horizon: T, Mechanism: ContextEntryTrees, Epsilon: 50, Noise: noise.Simulated}, rng)
			return p
		},
	}
	for name, mk := range makers {
		for _, tau := range []int{0, 1, 7, 50} {
			dim := 0
			if name == "contextual" {
				dim = d
			}
			// Pre-draw the environment: contexts and every arm's reward per round.
			env := bandit.Stream(9, 0)
			ctx := make([][]float64, T+1)
			rew := make([][]float64, T+1)
			for tt := 1; tt <= T; tt++ {
				ctx[tt] = make([]float64, k*dim)
				for i := range ctx[tt] {
					ctx[tt][i] = env.Float64()
				}
				rew[tt] = make([]float64, k)
				for a := range rew[tt] {
					rew[tt][a] = float64(env.IntN(2))
				}
			}
			dp, _ := Delayed(mk(bandit.Stream(10, 1)), tau)
			var arms []int
			r := &bandit.Round{K: k, Dim: dim}
			for tt := 1; tt <= T; tt++ {
				r.T, r.Actions = tt, append(r.Actions[:0], ctx[tt]...)
				a := dp.Choose(r)
				arms = append(arms, a)
				dp.Update(r, a, rew[tt][a])
				// Scribble over the round the way an environment reuses it.
				for i := range r.Actions {
					r.Actions[i] = -1
				}
				// Reference: a fresh policy fed rounds 1..s(tt), then asked at tt.
				if tt%37 == 0 || tt <= 2*tau+3 {
					ref := mk(bandit.Stream(10, 1))
					rr := &bandit.Round{K: k, Dim: dim}
					for s := 1; s <= DelayedRounds(tt, tau); s++ {
						rr.T, rr.Actions = s, append(rr.Actions[:0], ctx[s]...)
						ref.Update(rr, arms[s-1], rew[s][arms[s-1]])
					}
					rr.T, rr.Actions = tt, append(rr.Actions[:0], ctx[tt]...)
					if got := ref.Choose(rr); got != a {
						t.Fatalf("%s τ=%d round %d: delayed chose %d, reference fed %d rounds chose %d", name, tau, tt, a, DelayedRounds(tt, tau), got)
					}
				}
			}
		}
	}
}
