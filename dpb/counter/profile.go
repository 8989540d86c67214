package counter

import (
	"fmt"
	"math/bits"

	"github.com/dpbandits/dpbandits/dpb/noise"
)

// Profile is the exact noise of a counter over a horizon, in units
// of the variance of one node draw, and its per-record cost. At a fixed
// privacy target the node noise's variance is proportional to Cost.L2Sq
// (Gaussian: σ² = Δ₂² L2Sq/μ²), so MaxVar·L2Sq and MeanVar·L2Sq compare
// counters at the same (ε, δ).
type Profile struct {
	Kind    Kind    `json:"kind"`
	N       int     `json:"n"`
	MaxVar  float64 `json:"max_var"`  // max_t VarianceAt(t)
	MeanVar float64 `json:"mean_var"` // mean over t = 1..n
	Cost    Cost    `json:"cost"`
}

// MaxAtPrivacy returns MaxVar·Cost.L2Sq: the largest per-round noise
// variance at unit ℓ2 sensitivity and μ = 1 (multiply by Δ₂²/μ²).
func (p Profile) MaxAtPrivacy() float64 { return p.MaxVar * p.Cost.L2Sq }

// MeanAtPrivacy returns MeanVar·Cost.L2Sq.
func (p Profile) MeanAtPrivacy() float64 { return p.MeanVar * p.Cost.L2Sq }

// MaxAtLaplace returns MaxVar·Cost.L1²: the largest per-round noise
// variance with Laplace node noise at unit ℓ1 sensitivity and ε = 1, over 2
// (Lap(L1/ε) per node, Var Lap(b) = 2b²). Pure-DP counters (DP-UCB's)
// compare by this number.
func (p Profile) MaxAtLaplace() float64 { return p.MaxVar * p.Cost.L1 * p.Cost.L1 }

// MeanAtLaplace returns MeanVar·Cost.L1².
func (p Profile) MeanAtLaplace() float64 { return p.MeanVar * p.Cost.L1 * p.Cost.L1 }

// ProfileOf computes the profile of a counter of the given kind over
// n rounds exactly (no sampling). The square root is computed from its
// coefficients at any n (its counter stores every draw and is limited to
// [MaxSqrtHorizon]); the BLT's mean variance from Σ_j b_j²(n − j)/n.
func ProfileOf(kind Kind, n int) (Profile, error) {
	p := Profile{Kind: kind, N: n}
	if n < 1 {
		return p, fmt.Errorf("counter: horizon is %d, must be >= 1", n)
	}
	switch kind {
	case Sqrt:
		b := SqrtCoefficients(n)
		var cum, mean float64
		for j, bj := range b {
			cum += float64(bj * bj)
			p.Cost.L1 += bj
			mean += float64(bj * bj * float64(n-j))
		}
		p.MaxVar, p.MeanVar = cum, mean/float64(n)
		p.Cost.L2Sq = cum
		return p, nil
	case BLT:
		omega, lambda := BLTParams(n)
		c, err := newBLTCounter(1, n, noise.ZeroNoise{N: 1}, omega, lambda, DataBound{})
		if err != nil {
			return p, err
		}
		p.Cost, p.MaxVar = c.Cost(), c.MaxVariance()
		pow := make([]float64, len(c.lambda))
		for i := range pow {
			pow[i] = 1
		}
		mean := float64(n) // b_0 = 1
		for j := 1; j < n; j++ {
			var bj float64
			for i, l := range c.lambda {
				pow[i] *= l
				bj += float64(c.omega[i] * pow[i])
			}
			mean += float64(bj * bj * float64(n-j))
		}
		p.MeanVar = mean / float64(n)
		return p, nil
	case Kary:
		k := KaryArity(n)
		h := float64(KaryLevels(n, k))
		p.MaxVar, p.MeanVar = float64(KaryMaxDigitSum(n, k)), KaryMeanDigitSum(n, k)
		p.Cost = Cost{L2Sq: h, L1: h}
		return p, nil
	case Tree:
		// Mean popcount over 1..n, by counting set bits per position.
		var ones float64
		for b := 0; b < bits.Len(uint(n)); b++ {
			period := 1 << (b + 1)
			full := (n + 1) / period * (1 << b)
			rem := max((n+1)%period-(1<<b), 0)
			ones += float64(full + rem)
		}
		m := float64(TreeLevels(n))
		p.MaxVar, p.MeanVar = float64(maxPopcount(n)), ones/float64(n)
		p.Cost = Cost{L2Sq: m, L1: m}
		return p, nil
	}
	c, err := New(Config{Kind: kind, Dim: 1, Horizon: n, Noise: noise.ZeroNoise{N: 1}})
	if err != nil {
		return p, err
	}
	p.Cost, p.MaxVar, p.MeanVar = c.Cost(), c.MaxVariance(), MeanVariance(c)
	return p, nil
}
