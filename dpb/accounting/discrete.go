package accounting

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// The (ε, δ) of the secure mechanisms: discrete Gaussian noise on a grid.
//
// A secure Gaussian mechanism of dpb releases q(x) + K, where q(x) is an
// integer vector (the data rounded to the grid, in grid steps) and K has
// independent discrete Gaussian entries K_i ~ N_Z(0, σ_i²), P(k) ∝
// exp(−k²/(2σ_i²)) on the integers (Canonne, Kamath & Steinke 2020, "The
// Discrete Gaussian for Differential Privacy", NeurIPS; CKS20). Its noise is
// calibrated so that every neighbouring pair's integer shift Δ = q(x′) − q(x)
// has Σ_i Δ_i²/σ_i² ≤ μ² (noise.NewSecureGaussianNoise, the counters' grid
// wrapper: the continuous calibration's μ, the rounding paid for). The proof
// of its privacy is CKS20's: ρ-zCDP with ρ = μ²/2 (Thms 4 and 14), which the
// conversion of CKS20 Prop. 12 ([ZCDPToDPTight]) turns into (ε, δ). That is
// valid but loose against the calibration: at μ = 0.921 (ε = 1, δ = 0.1 for
// a continuous μ-GDP mechanism) it certifies ε = 1.45 at δ = 0.1. The
// exact continuous-Gaussian curve [GDPDelta] does not follow from zCDP, and
// for small σ the discrete Gaussian is less private than it: at σ = Δ = 1
// grid step, ε = 1, δ is 0.1414 against the continuous 0.1269.
//
// [DiscreteGaussianDelta] is a bound of the discrete mechanism's own,
// within a negligible amount of the continuous curve at the σ dpb uses
// (at least 2²⁰ grid steps). The argument:
//
//  1. Comparison mechanism. Let R_i = ⌊G_i⌉, G_i ~ N(0, σ_i²), the
//     continuous Gaussian rounded to the nearest integer. The mechanism
//     q(x) + R (rounded on the coordinates a record can move, discrete
//     elsewhere) is a post-processing of the continuous Gaussian mechanism
//     on those coordinates (q integer: ⌊q + G⌉ = q + ⌊G⌉), which is μ-GDP
//     (Dong, Roth & Su 2022, Cor. 3.3, adaptively: the coordinates a record
//     does not move have the same conditional law under x and x′, the
//     others are Gaussian mechanisms whose squared weighted shifts sum to at
//     most μ² on every run), so (ε, GDPDelta(μ, ε))-DP.
//  2. Distance. Replacing one coordinate's rounded Gaussian by the discrete
//     Gaussian changes the law of the whole run by at most τ(σ_i) =
//     TV(N_Z(0, σ_i²), ⌊N(0, σ_i²)⌉) in total variation (the later
//     coordinates' conditional laws given the past are the same), so the
//     secure mechanism is within T = Σ τ(σ_i) ≤ coords·τ(σ_min) of the
//     comparison on both inputs, summed over the coords coordinates a
//     record can move.
//  3. Transfer. For every output set S, P[M(x) ∈ S] ≤ P[M̃(x) ∈ S] + T ≤
//     e^ε P[M̃(x′) ∈ S] + δ + T ≤ e^ε P[M(x′) ∈ S] + δ + (1 + e^ε)T. So
//     the secure mechanism is (ε, GDPDelta(μ, ε) + (1 + e^ε)·coords·τ)-DP.
//
// [DiscreteGaussianTV] bounds τ(σ) explicitly (its comment derives it):
// 1.84·10⁻¹⁴ at σ = 2²⁰ steps (the smallest σ the secure grid allows), so
// at ε = 1 the extra δ is 3.9·10⁻¹¹ for SS18's tree at Fig. 4's setting
// (d = 5, n = 5·10⁷: 27 nodes of 21 entries) and 7.2·10⁻⁶ for the BLT
// counter at n = 5·10⁶ (a record enters every later measurement: 1.05·10⁸
// coordinates). The discrete Laplace needs none of this: its ratio bound
// gives exactly the continuous ε (the grid wrapper's comment,
// dpb/counter/grid.go).

// DiscreteGaussianTV returns an upper bound on τ(σ), the total variation
// distance between the discrete Gaussian N_Z(0, σ²) and the continuous
// N(0, σ²) rounded to the nearest integer, for σ ≥ 1 (in grid steps); an
// error for σ < 1 or not finite. With φ the N(0, σ²) density, θ = Σ_k φ(k)
// and r(k) = ∫_{k−½}^{k+½} φ, the pmfs are φ(k)/θ and r(k), so
//
//	2τ = Σ_k |φ(k)/θ − r(k)| ≤ |θ − 1| + Σ_k |φ(k) − r(k)|.
//
// By Poisson summation θ = 1 + 2Σ_{m≥1} e^{−2π²m²σ²}, so |θ − 1| ≤
// 2e^{−2π²σ²}/(1 − e^{−2π²σ²}). By Taylor's theorem with the φ′ term
// integrating to 0 over the symmetric cell I_k = [k−½, k+½], |φ(k) − r(k)|
// ≤ sup_{I_k}|φ″|·∫u²/2 = sup_{I_k}|φ″|/24, and summing sups over the unit
// cells, Σ_k sup_{I_k}|φ″| ≤ ∫|φ″| + V(|φ″|): ∫|φ″| = −4φ′(σ) =
// 4e^{−½}/(√(2π)σ²) < 0.9679/σ², and |φ″| = φ|t² − σ²|/σ⁴ falls from
// 1/(√(2π)σ³) at 0 to 0 at σ, rises to 2e^{−3/2}/(√(2π)σ³) at √3σ and
// falls to 0, so its total variation is below 1.5103/σ³. Hence
//
//	τ(σ) ≤ e^{−2π²σ²}/(1 − e^{−2π²σ²}) + (0.9679/σ² + 1.5103/σ³)/48.
func DiscreteGaussianTV(sigma float64) (float64, error) {
	if !(sigma >= 1) || math.IsInf(sigma, 0) {
		return 0, fmt.Errorf("accounting: discrete gaussian sigma is %v grid steps, must be >= 1 and finite", sigma)
	}
	e := xmath.Exp(-2 * math.Pi * math.Pi * sigma * sigma)
	s2 := sigma * sigma
	tv := e/(1-e) + (0.9679/s2+1.5103/(s2*sigma))/48
	return tv * (1 + 1e-12), nil // cover the rounding of this evaluation
}

// DiscreteGaussianDelta returns a δ at which the secure Gaussian mechanism
// (see the comment above) is (ε, δ)-DP: GDPDelta(μ, ε) + (1 + e^ε)·
// coords·DiscreteGaussianTV(sigmaMin), for a mechanism whose neighbouring
// integer shifts have weighted norm at most μ (Σ Δ_i²/σ_i² ≤ μ²), touch at
// most coords coordinates, and whose discrete σ_i are all at least
// sigmaMin grid steps (≥ 1). The result is capped at 1.
func DiscreteGaussianDelta(mu, eps float64, coords int, sigmaMin float64) (float64, error) {
	if err := checkPositive("mu", mu); err != nil {
		return 0, err
	}
	if err := checkNonNegative("epsilon", eps); err != nil {
		return 0, err
	}
	if err := checkCount("coordinates", coords); err != nil {
		return 0, err
	}
	tv, err := DiscreteGaussianTV(sigmaMin)
	if err != nil {
		return 0, err
	}
	d := GDPDelta(mu, eps) + float64(float64(1+xmath.Exp(eps))*float64(coords)*tv)
	return math.Min(d*(1+1e-12), 1), nil
}

// DiscreteGaussianEpsilon returns the smallest ε (to bisection precision,
// rounded up) at which [DiscreteGaussianDelta] is at most delta, or +Inf
// when even large ε leave the extra term above delta.
func DiscreteGaussianEpsilon(mu, delta float64, coords int, sigmaMin float64) (float64, error) {
	if err := checkDelta("delta", delta); err != nil {
		return 0, err
	}
	f := func(e float64) float64 {
		d, _ := DiscreteGaussianDelta(mu, e, coords, sigmaMin)
		return d
	}
	if _, err := DiscreteGaussianDelta(mu, 0, coords, sigmaMin); err != nil {
		return 0, err
	}
	if f(0) <= delta {
		return 0, nil
	}
	hi := 1.0
	for f(hi) > delta {
		if hi > 1e3 {
			return math.Inf(1), nil
		}
		hi *= 2
	}
	lo := bisect(0, hi, func(e float64) bool { return f(e) > delta })
	e := math.Nextafter(lo, math.Inf(1))
	for f(e) > delta { // bisect returns the last e where δ(e) > delta
		e = math.Nextafter(e, math.Inf(1))
	}
	return e, nil
}
