package accounting

import (
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// GaussianRDP returns the Rényi divergence of order a > 1 of the Gaussian
// mechanism with noise σ and ℓ2 sensitivity sens2: aΔ₂²/(2σ²) (Mironov
// 2017, Prop. 7). Rényi DP of fixed order adds under composition.
func GaussianRDP(a, sigma, sens2 float64) float64 { return a * sens2 * sens2 / (2 * sigma * sigma) }

// LaplaceRDP returns the Rényi DP of order a > 1 of the Laplace mechanism
// with ε₀ = Δ₁/b (Mironov 2017, Prop. 6):
//
//	(1/(a−1)) ln( a/(2a−1) e^{(a−1)ε₀} + (a−1)/(2a−1) e^{−aε₀} ).
func LaplaceRDP(a, eps0 float64) float64 {
	x := float64(a/(2*a-1)*xmath.Exp((a-1)*eps0)) + float64((a-1)/(2*a-1)*xmath.Exp(-a*eps0))
	return xmath.Log(x) / (a - 1)
}

// RDPToDP returns the ε at δ of a mechanism whose Rényi DP of order a is
// rdp(a), minimised over a > 1, by the conversion of Canonne, Kamath &
// Steinke (2020, Prop. 12) (also Balle et al. 2020, Thm 21):
//
//	ε = rdp(a) + (ln(1/δ) + (a−1) ln(1 − 1/a) − ln a)/(a − 1),
//
// floored at 0. Orders are scanned on a log grid of a − 1 from 1.2·10⁻⁴ to
// 6·10⁴; the infimum over the grid is a valid ε (each order's value is).
func RDPToDP(rdp func(a float64) float64, delta float64) float64 { return rdpToDPScan(rdp, delta) }

func rdpToDPScan(rdp func(a float64) float64, delta float64) float64 {
	best := math.Inf(1)
	for i := range 4000 {
		a := 1 + xmath.Exp(-9+float64(float64(i)*0.005))
		e := rdp(a) + (xmath.Log(1/delta)+float64((a-1)*xmath.Log(1-1/a))-xmath.Log(a))/(a-1)
		best = math.Min(best, e)
	}
	return math.Max(best, 0)
}
