package accounting

import (
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// GaussianDeltaQuad returns δ(ε) of the Gaussian mechanism with μ = Δ₂/σ by
// numerical integration of the hockey-stick divergence,
//
//	δ(ε) = ∫ max(0, φ(x) − e^ε φ(x − μ)) dx,
//
// with Simpson's rule on the interval where the integrand is positive
// (x ≤ μ/2 − ε/μ, truncated 40 standard deviations out): a computation
// independent of the closed form [GDPDelta], for tests and proof checks.
// Accurate to about 1e-10 absolute for μ in [0.01, 10].
func GaussianDeltaQuad(mu, eps float64) float64 {
	xs := mu/2 - eps/mu
	f := func(x float64) float64 {
		p := xmath.Exp(-x*x/2) / math.Sqrt(2*math.Pi)
		q := xmath.Exp(-(x-mu)*(x-mu)/2) / math.Sqrt(2*math.Pi)
		return math.Max(0, p-xmath.Exp(eps)*q)
	}
	return simpson(f, xs-40, xs, 200000)
}

// simpson integrates f over [a, b] with n (even) panels.
func simpson(f func(float64) float64, a, b float64, n int) float64 {
	h := (b - a) / float64(n)
	s := f(a) + f(b)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		s += float64(w * f(a+float64(float64(i)*h)))
	}
	return s * h / 3
}
