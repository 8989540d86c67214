package audit

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/mab"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// privMABAudits returns the audits of the optimal ε-DP K-armed algorithms
// (mab.DPSE, mab.AdaP, mab.DPKL, mab.LazyDPTS) at ε = 1 with k = 2 arms. Each
// runs the policy itself; the AdaP-UCB and DP-KL rows label its output, the
// whole arm sequence (Categorical), and the DP-SE, AdaP-KLUCB and Lazy-DP-TS
// rows, whose arm sequences show the reward too weakly, test the released
// private mean the policy computes (see [dpseAudit]; AdaP-KLUCB's index is
// saturated at 1 for every arm over T = 16 rounds, so its arm sequence is
// the random tie-breaking's, independent of the data). They share one mechanism — every batch's reward sum released
// once with Lap(1/ε), disjoint batches — and D, D′ differ in one round's
// reward by the full range 1, which moves one batch sum by 1: the
// sensitivity the calibration is made for.
func privMABAudits() []*Mechanism {
	return []*Mechanism{
		dpseAudit(privMABEps, 1),
		doublingAudit("privmab-adap-ucb", "AdaP-UCB (Azize & Basu 2022)", 1, func(rng *rand.Rand, eps float64) (bandit.Policy, error) {
			return mab.NewAdaP(mab.AdaPConfig{Arms: 2, Epsilon: eps, Noise: noise.Simulated}, rng)
		}),
		firstReleaseAudit("privmab-adap-klucb", "AdaP-KLUCB (Azize & Basu 2022)", 1, func(rng *rand.Rand, eps float64) (firstReleaser, error) {
			return mab.NewAdaP(mab.AdaPConfig{Arms: 2, Epsilon: eps, KL: true, Noise: noise.Simulated}, rng)
		}),
		doublingAudit("privmab-dp-klucb", "DP-KLUCB (Azize et al. 2025)", 1, func(rng *rand.Rand, eps float64) (bandit.Policy, error) {
			return mab.NewDPKL(mab.DPKLConfig{Arms: 2, Epsilon: eps, Noise: noise.Simulated}, rng)
		}),
		doublingAudit("privmab-dp-imed", "DP-IMED (Azize et al. 2025)", 1, func(rng *rand.Rand, eps float64) (bandit.Policy, error) {
			return mab.NewDPKL(mab.DPKLConfig{Arms: 2, Epsilon: eps, IMED: true, Noise: noise.Simulated}, rng)
		}),
		lazyDPTSAudit(1),
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

// dpseAudit audits DP-SE (Sajed & Sheffet 2019, Alg. 1) at β = ½ at the
// boundary of its mechanism: the statistic is arm 1's epoch-1 mean as the
// policy releases it ([mab.DPSE.PrivateMean]), times R₁: the block's reward
// sum plus the policy's own Lap(1/ε) draw. D gives every reward 0; D′ gives
// arm 1's first reward 1, moving that sum by 1, the sensitivity the
// calibration is made for.
//
// Why the released mean and not the arm sequence: the arm sequence depends
// on the data only through the released means (every choice is a function
// of them and of the policy's own randomness), so the policy's ε-DP rests on
// the Laplace mechanism audited here, and the arm sequence can show no more
// than it. At β = ½ and T = 2R₁ + 16 the sequence shows one bit (arm 0
// eliminated or not), whose likelihood ratio stays far below e^ε (the row
// could not catch a σ/√2 control through it). The released sum's
// log-likelihood ratio ε(|y| − |y − 1|) is increasing in y, so the region
// {y ≥ threshold} is the Neyman–Pearson test, and at y ≥ 1 the ratio is
// e^ε: the claim is tight for this view. The bound is a lower bound on the
// ε of the released means (what the privacy proof certifies), not of the
// arm sequence.
func dpseAudit(eps, f float64) *Mechanism {
	// The policy is built for ε·f (f > 1: a control with noise f times too
	// small).
	cfg := mab.DPSEConfig{Arms: 2, Horizon: 2, Epsilon: eps * f, Beta: 0.5, Noise: noise.Simulated}
	probe, err := mab.NewDPSE(cfg, bandit.Stream(0, 0))
	if err != nil {
		panic(err)
	}
	_, r1 := probe.Epoch()
	T := 2 * r1 // arm 1's epoch-1 block closes at round 2R₁
	m := &Mechanism{
		Name:        "privmab-dp-se",
		Mechanism:   fmt.Sprintf("DP-SE (Sajed & Sheffet 2019, Alg. 1), k = 2, ε = 1, β = ½: R₁ = %d; arm 1's released epoch-1 mean after round %d", r1, T),
		Neighbours:  "D: every reward 0; D′: arm 1's first reward (round R₁ + 1) is 1: its block sum moves by 1",
		Test:        "Neyman–Pearson: R₁·μ̃₁, the released block sum (reward sum + the policy's Lap(1/ε) draw)",
		Epsilon:     eps,
		Trials:      200000,
		ShortTrials: 10000,
		New: func() func(*rand.Rand, int) float64 {
			r := &bandit.Round{K: 2}
			return func(rng *rand.Rand, which int) float64 {
				p, err := mab.NewDPSE(cfg, rng)
				if err != nil {
					panic(err)
				}
				for t := 1; t <= T; t++ {
					r.T = t
					a := p.Choose(r)
					reward := 0.0
					if which == 1 && a == 1 && t == r1+1 {
						reward = 1
					}
					p.Update(r, a, reward)
				}
				return roundScore(p.PrivateMean(1) * float64(r1))
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

// lazyDPTSAudit audits Lazy-DP-TS (Hu & Hegde 2022) at the boundary of its
// mechanism, as [dpseAudit] does DP-SE and for the same reason (its arm
// sequence depends on the data only through the released episode means, and
// over T = 16 rounds shows them too weakly for a σ/√2 control to be caught):
// the statistic is arm 0's first released mean ([mab.LazyDPTS.PrivateMean]),
// its one-round first episode's reward plus the policy's Lap(1/ε) draw. D:
// round 1's reward is 0; D′: 1. The log-likelihood ratio ε(|y| − |y − 1|)
// is increasing in y (Neyman–Pearson region {y ≥ threshold}) and reaches ε
// at y ≥ 1.
func lazyDPTSAudit(f float64) *Mechanism {
	m := &Mechanism{
		Name:        "privmab-lazy-dp-ts",
		Mechanism:   "Lazy-DP-TS (Hu & Hegde 2022), k = 2, ε = 1: arm 0's released first-episode mean after round 1",
		Neighbours:  "D: round 1's reward (arm 0, its first one-round episode) is 0; D′: it is 1",
		Test:        "Neyman–Pearson: μ̃₀, the released episode sum (one reward + the policy's Lap(1/ε) draw)",
		Epsilon:     privMABEps,
		Trials:      200000,
		ShortTrials: 10000,
		New: func() func(*rand.Rand, int) float64 {
			r := &bandit.Round{K: 2, T: 1}
			return func(rng *rand.Rand, which int) float64 {
				p, err := mab.NewLazyDPTS(mab.LazyDPTSConfig{Arms: 2, Epsilon: privMABEps * f, Noise: noise.Simulated}, rng)
				if err != nil {
					panic(err)
				}
				a := p.Choose(r)
				if a != 0 {
					panic("audit: Lazy-DP-TS did not open with arm 0")
				}
				p.Update(r, a, float64(which))
				return roundScore(p.PrivateMean(0))
			}
		},
	}
	if f == 1 {
		m.Control = func(short bool) *Mechanism {
			g := privMABControl(short)
			c := lazyDPTSAudit(g)
			c.Mechanism = fmt.Sprintf("control: Lazy-DP-TS built for ε·%s (Laplace noise %s times too small) under the claim ε = 1", fctr(g), fctr(g))
			return c
		}
	}
	return m
}

// firstReleaser is a private K-armed policy whose first episode of arm 0
// is one round long and whose released mean can be read.
type firstReleaser interface {
	bandit.Policy
	PrivateMean(a int) float64
}

// firstReleaseAudit audits a doubling-episode policy at the boundary of its
// mechanism, as [lazyDPTSAudit] does Lazy-DP-TS: arm 0's first released
// mean after round 1 (its one-round first episode's reward plus the
// policy's Lap(1/ε) draw), built by build for ε = privMABEps·f. D: round
// 1's reward is 0; D′: 1.
func firstReleaseAudit(name, alg string, f float64, build func(rng *rand.Rand, eps float64) (firstReleaser, error)) *Mechanism {
	m := &Mechanism{
		Name:        name,
		Mechanism:   alg + ", k = 2, ε = 1: arm 0's released first-episode mean after round 1",
		Neighbours:  "D: round 1's reward (arm 0, its first one-round episode) is 0; D′: it is 1",
		Test:        "Neyman–Pearson: μ̃₀, the released episode sum (one reward + the policy's Lap(1/ε) draw)",
		Epsilon:     privMABEps,
		Trials:      200000,
		ShortTrials: 10000,
		New: func() func(*rand.Rand, int) float64 {
			r := &bandit.Round{K: 2, T: 1}
			return func(rng *rand.Rand, which int) float64 {
				p, err := build(rng, privMABEps*f)
				if err != nil {
					panic(err)
				}
				if a := p.Choose(r); a != 0 {
					panic("audit: " + alg + " did not open with arm 0")
				}
				p.Update(r, 0, float64(which))
				return roundScore(p.PrivateMean(0))
			}
		},
	}
	if f == 1 {
		m.Control = func(short bool) *Mechanism {
			g := privMABControl(short)
			c := firstReleaseAudit(name, alg, g, build)
			c.Mechanism = fmt.Sprintf("control: %s built for ε·%s (Laplace noise %s times too small) under the claim ε = 1", alg, fctr(g), fctr(g))
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
