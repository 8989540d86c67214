package dpb

import (
	"math"
	"math/rand/v2"
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
// It keeps the constants of one shape so that a draw allocates nothing and
// takes a handful of normals at most; it is unexported because only the
// Wishart sampler needs it.
type gammaSampler struct {
	a    float64 // shape
	d, c float64 // Marsaglia–Tsang constants for max(a, a+1)
	inv  float64 // 1/a when a < 1, else 0
}

// newGammaSampler returns a sampler of Gamma(a, 1); a must be > 0 and finite.
func newGammaSampler(a float64) gammaSampler {
	if !(a > 0) || math.IsInf(a, 0) {
		panic("dpb: gamma shape must be > 0 and finite")
	}
	g := gammaSampler{a: a}
	b := a
	if a < 1 {
		b = a + 1
		g.inv = 1 / a
	}
	g.d = b - 1.0/3
	g.c = 1 / math.Sqrt(9*g.d)
	return g
}

// draw returns one Gamma(a, 1) variable.
func (g *gammaSampler) draw(rng *rand.Rand) float64 {
	var r float64
	for {
		x := rng.NormFloat64()
		v := 1 + g.c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		x2 := x * x
		if u < 1-0.0331*x2*x2 {
			r = g.d * v
			break
		}
		if u > 0 && math.Log(u) < 0.5*x2+g.d*(1-v+math.Log(v)) {
			r = g.d * v
			break
		}
	}
	if g.inv != 0 {
		// U in (0, 1]: 1 − Float64() avoids U = 0, which would give 0 exactly.
		r *= math.Pow(1-rng.Float64(), g.inv)
	}
	return r
}
