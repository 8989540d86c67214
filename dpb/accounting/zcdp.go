package accounting

import (
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// GaussianRho returns the zCDP parameter ρ = Δ₂²/(2σ²) of the Gaussian
// mechanism (Bun & Steinke 2016, Prop. 1.6); ρ's add under composition.
func GaussianRho(sigma, sens2 float64) float64 { return sens2 * sens2 / (2 * sigma * sigma) }

// ZCDPToDP returns the ε at δ that ρ-zCDP implies by Bun & Steinke (2016,
// Prop. 1.3): ε = ρ + 2√(ρ ln(1/δ)). (Float64(rho) rounds a product the
// caller passes once inlined, so a GOAMD64=v3 build cannot fuse it; see
// .ci/fma-check.)
func ZCDPToDP(rho, delta float64) float64 {
	return float64(rho) + float64(2*math.Sqrt(rho*xmath.Log(1/delta)))
}

// ZCDPToDPTight returns the infimum over Rényi orders a > 1 of the
// conversion of Canonne, Kamath & Steinke (2020, Prop. 12) applied to the
// Rényi curve aρ of ρ-zCDP, floored at 0. See [RDPToDP].
func ZCDPToDPTight(rho, delta float64) float64 {
	return rdpToDPScan(func(a float64) float64 { return a * rho }, delta)
}

// ZCDPRho returns the largest ρ whose ρ-zCDP implies (ε, δ)-DP by
// [ZCDPToDP]: ρ = (√(ln(1/δ) + ε) − √(ln(1/δ)))².
func ZCDPRho(eps, delta float64) float64 {
	l := xmath.Log(1 / delta)
	r := math.Sqrt(l+eps) - math.Sqrt(l)
	return r * r
}
