package noise

import (
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// gammaSampler draws Gamma(shape, 1) variables (density x^{a−1} e^{−x}/Γ(a))
// by the method of Marsaglia & Tsang (2000), "A simple method for generating
// gamma variables", ACM TOMS 26(3): with d = a − 1/3 and c = 1/√(9d), draw
// x ~ N(0,1), v = (1 + c x)³ and accept d·v when v > 0 and
//
//	ln U < x²/2 + d − d v + d ln v          (U ~ Uniform(0,1)),
//
// with the squeeze U < 1 − 0.0331 x⁴ avoiding most logarithms. The expected
// number of trials is below 1.05 for a >= 1, independent of a. For a < 1 it
// uses Gamma(a) = Gamma(a+1)·U^{1/a} (ibid., Section 6).
//
// A second squeeze makes the logarithms rare for the large shapes of the
// Wishart diagonal (a ≈ 7·10⁴ in SS18's experiments, where the first one
// sends ≈ 10% of trials to the logarithms): with t = c x the right-hand side
// is d·φ(t), φ(t) = (9/2)t² + 1 − (1+t)³ + 3 ln(1+t), whose derivatives
// vanish at 0 up to the third and φ⁗(t) = −18/(1+t)⁴, so by Taylor's theorem
//
//	x²/2 + d − d v + d ln v  ≥  −x⁴ / (108 d · min(1, 1+t)⁴)  =: L,
//
// and ln U ≤ U − 1. So U < 1 + L accepts only trials the exact test accepts
// (with a margin of 10⁻¹² for rounding): the draws, and the stream, are those
// of the exact method (TestGammaSqueeze checks the implication).
//
// It keeps the constants of one shape so that a draw allocates nothing and
// takes a handful of normals at most; it draws from the fast generator
// (wyrand + ziggurat, band.go); it is unexported because only the Wishart
// sampler needs it.
type gammaSampler struct {
	a    float64 // shape
	d, c float64 // Marsaglia–Tsang constants for max(a, a+1)
	q    float64 // −1/(108 d): the second squeeze's coefficient
	inv  float64 // 1/a when a < 1, else 0
}

// newGammaSampler returns a sampler of Gamma(a, 1); a must be > 0 and finite.
func newGammaSampler(a float64) gammaSampler {
	if !(a > 0) || math.IsInf(a, 0) {
		panic("noise: gamma shape must be > 0 and finite")
	}
	g := gammaSampler{a: a}
	b := a
	if a < 1 {
		b = a + 1
		g.inv = 1 / a
	}
	g.d = b - 1.0/3
	g.c = 1 / math.Sqrt(9*g.d)
	g.q = -1 / (108 * g.d)
	return g
}

// draw returns one Gamma(a, 1) variable.
func (g *gammaSampler) draw(f *FastRand) float64 {
	var r float64
	for {
		x := f.Norm()
		v := 1 + float64(g.c*x)
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := f.Float64()
		x2 := x * x
		if u < 1-0.0331*x2*x2 || g.squeeze(x, u) || g.exact(x, u) {
			r = g.d * v
			break
		}
	}
	if g.inv != 0 {
		// U in (0, 1]: 1 − Float64() avoids U = 0, which would give 0 exactly.
		r *= xmath.Pow(1-f.Float64(), g.inv)
	}
	return r
}

// squeeze reports u < squeezeBound(x): a trial that the exact test accepts
// too.
func (g *gammaSampler) squeeze(x, u float64) bool { return u < g.squeezeBound(x) }

// squeezeBound returns 1 + L − 10⁻¹² (see gammaSampler) for a trial with
// v = (1 + c x)³ > 0.
func (g *gammaSampler) squeezeBound(x float64) float64 {
	m := min(1, 1+float64(g.c*x))
	m2, x2 := m*m, x*x
	return 1 + g.q*x2*x2/(m2*m2) - 1e-12
}

// exact is Marsaglia and Tsang's acceptance test ln U < x²/2 + d − d v + d ln v
// for a trial with v = (1 + c x)³ > 0.
func (g *gammaSampler) exact(x, u float64) bool {
	v := 1 + float64(g.c*x)
	v = v * v * v
	return u > 0 && xmath.Log(u) < float64(0.5*x*x)+float64(g.d*(1-v+xmath.Log(v)))
}
