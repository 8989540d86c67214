package check

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// The configuration of "mt14-dpucb-index": k Bernoulli arms, horizon T,
// ε and Theorem 4's γ. At k = 5, T = 2000, ε = 1, γ = 0.05 the relaxation
// is Γ = 5 ln²T ln(kT ln T/γ)/ε = 4,112, so Γ/n_a dominates the index and
// the arms' pull counts stay within a few of each other: which arm wins a
// round turns on Γ(1/n_a − 1/n_b) against the other terms, and a Γ off by
// 10 % changes the choice in many rounds.
const (
	dpucbIdxArms    = 5
	dpucbIdxT       = 2000
	dpucbIdxEps     = 1.0
	dpucbIdxGamma   = 0.05
	dpucbIdxRelTies = 1e-9 // rounds whose reference top two are closer (relative) are skipped
)

// dpucbIdxMeans are the arms' Bernoulli means.
var dpucbIdxMeans = [dpucbIdxArms]float64{0.9, 0.8, 0.7, 0.6, 0.5}

// MT14DPUCBIndex checks the arm the built DP-UCB ([mt14.NewDPUCB],
// noise.Simulated) chooses against MT14 Algorithm 1, line 10, evaluated in
// the check with Γ of line 7 computed here from k, T, ε and γ
// (mt14PrintedGamma, not [mt14.Gamma], which the policy calls):
// "mt14-dpucb-index". After the round robin, every round must choose
//
//	argmax_a  r̃_a/n_a + √(2 ln t / n_a) + Γ/n_a,
//
// r̃_a the private total the policy released for arm a (PrivateTotals; the
// tree's noise is the subject of the mt14-alg1 rows) and n_a its pulls.
// Rounds whose reference maximum beats the runner-up by less than
// dpucbIdxRelTies (relative) are skipped (a rounding could break the tie);
// the statistic is the largest shortfall of the chosen arm's reference
// index behind the maximum, over the same tolerance: exact, deterministic
// given the seed. Control: DP-UCB built with Γ ×0.9 (RelaxationScale, the
// catalogue's scale for a learner's constant).
func MT14DPUCBIndex(rng *rand.Rand) (Verdicts, error) {
	g := mt14PrintedGamma(dpucbIdxArms, dpucbIdxT, dpucbIdxEps, dpucbIdxGamma)
	seed := rng.Uint64()
	dev, wrong, rounds, err := dpucbIndexRun(seed, 1, g)
	if err != nil {
		return nil, err
	}
	cdev, cwrong, _, err := dpucbIndexRun(seed, 0.9, g)
	if err != nil {
		return nil, err
	}
	v := exactRow("mt14-dpucb-index",
		fmt.Sprintf("measured on the built object: DP-UCB pulls argmax_a r̃_a/n_a + √(2 ln t/n_a) + Γ/n_a, Γ = k ln²T ln(kT ln T/γ)/ε = %.5g (k=%d, T=%d, ε=%g, γ=%g; computed by the check)", g, dpucbIdxArms, dpucbIdxT, dpucbIdxEps, dpucbIdxGamma),
		"MT14 Algorithm 1, lines 7 and 10 (the built DP-UCB; Γ as printed, /ε)",
		dev, cdev, dpucbIdxRelTies, "DP-UCB built with Γ ×0.9",
		fmt.Sprintf("%d rounds after the round robin on Bernoulli arms %v: %d choices off the reference (the control: %d); the largest shortfall of the chosen arm's index, relative to the maximum, is %.3g (control %.3g), tolerance %g", rounds, dpucbIdxMeans, wrong, cwrong, dev, cdev, dpucbIdxRelTies))
	return Verdicts{v}, nil
}

// dpucbIndexRun runs DP-UCB with RelaxationScale scale on the Bernoulli arms
// (rewards from the seed's stream 1, the policy's noise from stream 0) and
// compares every choice with the reference index at Γ = g. It returns the
// largest relative shortfall of a chosen arm, the number of rounds chosen
// off the reference and the number of rounds compared.
func dpucbIndexRun(seed uint64, scale, g float64) (dev float64, wrong, rounds int, err error) {
	const k = dpucbIdxArms
	p, err := mt14.NewDPUCB(mt14.DPUCBConfig{Arms: k, Horizon: dpucbIdxT, Epsilon: dpucbIdxEps, Gamma: dpucbIdxGamma, RelaxationScale: scale, Noise: noise.Simulated}, bandit.Stream(seed, 0))
	if err != nil {
		return 0, 0, 0, err
	}
	env := bandit.Stream(seed, 1)
	idx := make([]float64, k)
	round := &bandit.Round{K: k}
	for t := 1; t <= dpucbIdxT; t++ {
		round.T = t
		a := p.Choose(round)
		if t > k {
			n, tot := p.Pulls(), p.PrivateTotals()
			best, second := math.Inf(-1), math.Inf(-1)
			for i := range k {
				fn := float64(n[i])
				idx[i] = tot[i]/fn + math.Sqrt(2*math.Log(float64(t))/fn) + g/fn
				if idx[i] > best {
					best, second = idx[i], best
				} else if idx[i] > second {
					second = idx[i]
				}
			}
			scaleTies := dpucbIdxRelTies * math.Max(1, math.Abs(best))
			if best-second > scaleTies {
				rounds++
				short := (best - idx[a]) / math.Max(1, math.Abs(best))
				if short > 0 {
					wrong++
				}
				dev = math.Max(dev, short)
			}
		} else if a != t-1 {
			return 0, 0, 0, fmt.Errorf("check: DP-UCB pulled arm %d in round %d of its round robin", a, t)
		}
		r := 0.0
		if env.Float64() < dpucbIdxMeans[a] {
			r = 1
		}
		p.Update(round, a, r)
	}
	return dev, wrong, rounds, nil
}
