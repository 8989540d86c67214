package audit

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/mab"
	dpnoise "github.com/dpbandits/dpbandits/dpb/noise"
)

// privMABAudits returns the audits of the optimal ε-DP K-armed algorithms
// (mab.DPSE, mab.AdaP, mab.DPKL, mab.LazyDPTS) at ε = 1 with k = 2 arms. Each
// runs the policy itself and labels its output, the whole arm sequence
// (Categorical). They share one mechanism — every batch's reward sum released
// once with Lap(1/ε), disjoint batches — and D, D′ differ in one round's
// reward by the full range 1, which moves one batch sum by 1: the
// sensitivity the calibration is made for.
func privMABAudits() []*Mechanism {
	return []*Mechanism{
		dpseAudit(privMABEps, 1),
		doublingAudit("privmab-adap-ucb", "AdaP-UCB (Azize & Basu 2022)", 1, func(rng *rand.Rand, eps float64) (bandit.Policy, error) {
			return mab.NewAdaP(mab.AdaPConfig{Arms: 2, Epsilon: eps, Noise: dpnoise.NoiseSimulated}, rng)
		}),
		doublingAudit("privmab-adap-klucb", "AdaP-KLUCB (Azize & Basu 2022)", 1, func(rng *rand.Rand, eps float64) (bandit.Policy, error) {
			return mab.NewAdaP(mab.AdaPConfig{Arms: 2, Epsilon: eps, KL: true, Noise: dpnoise.NoiseSimulated}, rng)
		}),
		doublingAudit("privmab-dp-klucb", "DP-KLUCB (Azize et al. 2025)", 1, func(rng *rand.Rand, eps float64) (bandit.Policy, error) {
			return mab.NewDPKL(mab.DPKLConfig{Arms: 2, Epsilon: eps, Noise: dpnoise.NoiseSimulated}, rng)
		}),
		doublingAudit("privmab-dp-imed", "DP-IMED (Azize et al. 2025)", 1, func(rng *rand.Rand, eps float64) (bandit.Policy, error) {
			return mab.NewDPKL(mab.DPKLConfig{Arms: 2, Epsilon: eps, IMED: true, Noise: dpnoise.NoiseSimulated}, rng)
		}),
		doublingAudit("privmab-lazy-dp-ts", "Lazy-DP-TS (Hu & Hegde 2022)", 1, func(rng *rand.Rand, eps float64) (bandit.Policy, error) {
			return mab.NewLazyDPTS(mab.LazyDPTSConfig{Arms: 2, Epsilon: eps, Noise: dpnoise.NoiseSimulated}, rng)
		}),
	}
}

// privMABEps and privMABT are the private K-armed audits' claimed ε and
// horizon.
const (
	privMABEps = 1.0
	privMABT   = 16
)

// privMABControl returns the control factor of a private K-armed audit: the
// policy is built for ε·f, its Laplace noise f times too small, f = √2 (2
// with short).
func privMABControl(short bool) float64 {
	if short {
		return 2
	}
	return math.Sqrt2
}

// doublingAudit is the audit of an episode-doubling private K-armed policy,
// built by build for ε = privMABEps·f (f = 1 for the row, > 1 for its
// control: noise f times too small under the same claim).
func doublingAudit(name, alg string, f float64, build func(rng *rand.Rand, eps float64) (bandit.Policy, error)) *Mechanism {
	m := &Mechanism{
		Name:        name,
		Mechanism:   alg + ", k = 2, ε = 1, T = 16: the arm sequence",
		Neighbours:  "D: every reward 0; D′: round 1's reward (arm 0, its first one-reward episode) is 1",
		Test:        "the arm sequence as a label, likelihood ratio estimated on the selection half",
		Epsilon:     privMABEps,
		Categorical: true,
		Trials:      200000,
		ShortTrials: 10000,
		New: func() func(*rand.Rand, int) float64 {
			return func(rng *rand.Rand, which int) float64 {
				p, err := build(rng, privMABEps*f)
				if err != nil {
					panic(err)
				}
				return playLabel(p, 2, privMABT, func(t, arm int) float64 {
					if t == 1 && arm == 0 && which == 1 {
						return 1
					}
					return 0
				})
			}
		},
	}
	if f == 1 {
		m.Control = func(short bool) *Mechanism {
			g := privMABControl(short)
			c := doublingAudit(name, alg, g, build)
			c.Mechanism = fmt.Sprintf("control: %s built for ε·%s (Laplace noise %s times too small) under the claim ε = 1", alg, fctr(g), fctr(g))
			return c
		}
	}
	return m
}

// dpseAudit audits DP-SE (Sajed & Sheffet 2019, Alg. 1) at β = ½ over its
// first epoch and 16 more rounds. D gives arm 1 rewards whose sum S puts the
// epoch-1 gap μ̂₁ − μ̂₀ = S/R₁ at the elimination threshold 2(h₁ + c₁), so
// whether arm 0 is eliminated is a coin the Laplace noise tosses (and shows
// at once: the next rounds play arm 1 alone, or epoch 2's block of arm 0);
// D′ adds one more reward 1 to arm 1's block, moving its released sum by 1.
func dpseAudit(eps, f float64) *Mechanism {
	// The policy is built for ε·f (f > 1: a control with noise f times too
	// small, audited on its own worst pair, the gap at its own threshold).
	cfg := mab.DPSEConfig{Arms: 2, Horizon: 2, Epsilon: eps * f, Beta: 0.5, Noise: dpnoise.NoiseSimulated}
	probe, err := mab.NewDPSE(cfg, bandit.Stream(0, 0))
	if err != nil {
		panic(err)
	}
	_, r1 := probe.Epoch()
	s := int(math.Round(probe.Threshold() * float64(r1)))
	T := 2*r1 + 16
	m := &Mechanism{
		Name:        "privmab-dp-se",
		Mechanism:   fmt.Sprintf("DP-SE (Sajed & Sheffet 2019, Alg. 1), k = 2, ε = 1, β = ½: R₁ = %d, T = %d, the arm sequence", r1, T),
		Neighbours:  fmt.Sprintf("D: arm 1's first %d rewards 1, all others 0 (the gap at the threshold); D′: arm 1's reward %d is 1 too", s, s+1),
		Test:        "the arm sequence as a label (eliminated or not), likelihood ratio estimated on the selection half",
		Epsilon:     eps,
		Categorical: true,
		Trials:      100000,
		ShortTrials: 10000,
		New: func() func(*rand.Rand, int) float64 {
			return func(rng *rand.Rand, which int) float64 {
				p, err := mab.NewDPSE(cfg, rng)
				if err != nil {
					panic(err)
				}
				return playLabel(p, 2, T, func(t, arm int) float64 {
					if i := t - r1; arm == 1 && (i <= s || (which == 1 && i == s+1)) {
						return 1
					}
					return 0
				})
			}
		},
	}
	if f == 1 {
		m.Control = func(short bool) *Mechanism {
			g := privMABControl(short)
			c := dpseAudit(eps, g)
			c.Mechanism = fmt.Sprintf("control: DP-SE built for ε·%s (Laplace noise %s times too small) under the claim ε = 1, the same neighbours", fctr(g), fctr(g))
			return c
		}
	}
	return m
}

// playLabel runs p for T rounds with rewards reward(t, arm) and returns a
// label of the arm sequence: its 64-bit FNV-1a hash cut to 53 bits, exact as
// a Float64.
func playLabel(p bandit.Policy, k, T int, reward func(t, arm int) float64) float64 {
	r := &bandit.Round{K: k}
	h := uint64(14695981039346656037)
	for t := 1; t <= T; t++ {
		r.T = t
		a := p.Choose(r)
		p.Update(r, a, reward(t, a))
		h = (h ^ uint64(a)) * 1099511628211
	}
	return float64(h >> 11)
}
