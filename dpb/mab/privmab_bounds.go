package mab

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// The regret lower bounds for ε-DP Bernoulli bandits drawn beside the optimal
// private algorithms ([DPSE], [AdaP], [DPKL], [LazyDPTS]); SS18's Corollary 15
// is [ss18.PrivateMABLowerBound]. means holds every arm's Bernoulli mean; the
// bounds are asymptotic (liminf of regret / ln T) and are evaluated at T.

// sumOverGaps returns Σ_{Δ_a>0} Δ_a ln T / div(μ_a, μ*), checking means (in
// [0, 1], at least one arm), T >= 2 and eps > 0.
func sumOverGaps(means []float64, T int, eps float64, div func(m, best float64) float64) float64 {
	if len(means) == 0 || T < 2 || !(eps > 0) {
		panic(fmt.Sprintf("mab: private MAB bound with %d arms, T=%d, eps=%v", len(means), T, eps))
	}
	best := math.Inf(-1)
	for _, m := range means {
		if !(m >= 0 && m <= 1) {
			panic(fmt.Sprintf("mab: Bernoulli mean %v outside [0, 1]", m))
		}
		best = math.Max(best, m)
	}
	lt := xmath.Log(float64(T))
	var s float64
	for _, m := range means {
		if d := best - m; d > 0 {
			s += d * lt / div(m, best)
		}
	}
	return s
}

// LaiRobbinsBound returns the non-private asymptotic lower bound of Lai &
// Robbins (1985) for Bernoulli arms, Σ_{Δ_a>0} Δ_a ln T / kl(μ_a, μ*).
func LaiRobbinsBound(means []float64, T int) float64 {
	return sumOverGaps(means, T, 1, func(m, best float64) float64 { return klBernoulli(m, best) })
}

// AzizeBasuLowerBound returns the ε-global-DP regret lower bound of Azize &
// Basu (NeurIPS 2022) for Bernoulli arms, where KL_inf = kl(μ_a, μ*) and
// TV_inf = Δ_a:
//
//	Σ_{Δ_a>0} Δ_a ln T / min(kl(μ_a, μ*), 6ε·Δ_a).
func AzizeBasuLowerBound(means []float64, T int, eps float64) float64 {
	return sumOverGaps(means, T, eps, func(m, best float64) float64 { return math.Min(klBernoulli(m, best), 6*eps*(best-m)) })
}

// AzizeLowerBound returns the sharper ε-global-DP lower bound of Azize, Wu,
// Honda, Orabona, Ito & Basu (2025, arXiv:2505.05613) for Bernoulli arms,
//
//	Σ_{Δ_a>0} Δ_a ln T / d_ε(μ_a, μ*),
//
// with d_ε of [dEps] (≤ min(kl, εΔ), so it is at least [AzizeBasuLowerBound]).
// DP-KLUCB and DP-IMED match it asymptotically up to a factor close to 1.
func AzizeLowerBound(means []float64, T int, eps float64) float64 {
	return sumOverGaps(means, T, eps, func(m, best float64) float64 { return dEps(m, best, eps) })
}
