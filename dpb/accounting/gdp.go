package accounting

import (
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// Φ, the standard normal CDF.
func normalCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// GDPDelta returns the smallest δ at which a μ-GDP mechanism is (ε, δ)-DP,
// the exact tradeoff of Balle & Wang (2018, Thm 8) and Dong, Roth & Su
// (2022, Cor. 2.13):
//
//	δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2).
//
// The Gaussian mechanism N(f(x), σ²I) with ℓ2 sensitivity Δ₂ is μ-GDP with
// μ = Δ₂/σ. Valid for μ > 0, ε ≥ 0; accurate while δ ≳ 1e-300 (no
// cancellation beyond Float64's: both terms are formed in log space when
// e^ε would overflow).
func GDPDelta(mu, eps float64) float64 {
	a := normalCDF(-eps/mu + float64(mu/2))
	t := -eps/mu - float64(mu/2)
	var b float64
	if eps < 700 {
		b = xmath.Exp(eps) * normalCDF(t)
	} else {
		b = xmath.Exp(eps + xmath.Log(normalCDF(t)))
	}
	return math.Max(a-b, 0)
}

// GDPEpsilon returns the smallest ε ≥ 0 at which a μ-GDP mechanism is
// (ε, δ)-DP (0 if δ(0) ≤ δ already).
func GDPEpsilon(mu, delta float64) float64 {
	if GDPDelta(mu, 0) <= delta {
		return 0
	}
	hi := 1.0
	for GDPDelta(mu, hi) > delta {
		hi *= 2
	}
	// bisect keeps the side where ok holds; ok = "δ(ε) still too large".
	lo := bisect(0, hi, func(e float64) bool { return GDPDelta(mu, e) > delta })
	return math.Nextafter(lo, math.Inf(1))
}

// GDPMu returns the largest μ such that every μ-GDP mechanism is
// (ε, δ)-DP: the root of δ(ε; μ) = δ (δ(ε; μ) increases with μ).
func GDPMu(eps, delta float64) float64 {
	hi := 1.0
	for GDPDelta(hi, eps) < delta {
		hi *= 2
	}
	return bisect(0, hi, func(m float64) bool { return m == 0 || GDPDelta(m, eps) < delta })
}

// ComposeGDP returns the μ of the adaptive composition of μ_i-GDP
// mechanisms, √(Σ μ_i²) (Dong, Roth & Su 2022, Cor. 3.3). It is how the
// nodes a record touches compose: a record that enters node j with ℓ2
// sensitivity Δ_j, node noise σ, gives μ² = Σ_j Δ_j²/σ².
func ComposeGDP(mus ...float64) float64 {
	var s float64
	for _, m := range mus {
		s += float64(m * m)
	}
	return math.Sqrt(s)
}

// GaussianSigma returns the smallest σ for which the Gaussian mechanism
// with ℓ2 sensitivity sens2 — or any composition of Gaussian mechanisms
// whose squared sensitivities sum to sens2² (the nodes of a tree a record
// touches, or the column of a factorisation) — is (ε, δ)-DP: σ = sens2/μ
// with μ = GDPMu(ε, δ). This is Balle & Wang's (2018) analytic Gaussian
// mechanism, exact: no smaller σ is (ε, δ)-DP.
func GaussianSigma(eps, delta, sens2 float64) (float64, error) {
	if err := checkTarget(eps, delta); err != nil {
		return 0, err
	}
	if err := checkPositive("sensitivity", sens2); err != nil {
		return 0, err
	}
	return sens2 / GDPMu(eps, delta), nil
}

// GaussianEpsilon returns the exact ε at δ of the Gaussian mechanism with
// noise σ and ℓ2 sensitivity sens2 (composed sensitivity as in
// [GaussianSigma]).
func GaussianEpsilon(sigma, delta, sens2 float64) (float64, error) {
	if err := checkPositive("sigma", sigma); err != nil {
		return 0, err
	}
	if err := checkDelta("delta", delta); err != nil {
		return 0, err
	}
	if err := checkPositive("sensitivity", sens2); err != nil {
		return 0, err
	}
	return GDPEpsilon(sens2/sigma, delta), nil
}
