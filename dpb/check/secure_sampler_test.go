package check

import (
	"math"
	"math/rand/v2"
	"testing"
)

// requireHeldAndCaught fails on a row that did not pass or whose control
// was not caught.
func requireHeldAndCaught(t *testing.T, vs Verdicts, n int) {
	t.Helper()
	if len(vs) != n {
		t.Fatalf("%d rows, want %d", len(vs), n)
	}
	for _, v := range vs {
		if !v.Pass || v.ControlCaught == nil || !*v.ControlCaught || v.ControlScore < 1 {
			t.Errorf("%s: pass %v, control %q caught %v (score %.3g): %s", v.Name, v.Pass, v.Control, v.ControlCaught, v.ControlScore, v.Note)
		}
	}
}

// TestSecureSamplersRows: the secure samplers' rows hold on dpb/noise's
// samplers and catch their ×0.97 and other-shape controls.
func TestSecureSamplersRows(t *testing.T) {
	vs, err := SecureSamplers(rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	requireHeldAndCaught(t, vs, 7)
}

// TestStatedNoiseRows: the private MAB's, DP-FTPL's, private EXP2's and
// DP-FTRL's (Laplace and Gaussian) noise rows hold at the paper's scales and
// catch the noise ×0.97.
func TestStatedNoiseRows(t *testing.T) {
	vs, err := PrivateMABNoise(rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	av, err := AS17StatedNoise(rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	requireHeldAndCaught(t, append(vs, av...), 5)
}

// TestDiscreteLaplaceLaw: the closed forms against direct summation of the
// pmf at a small τ.
func TestDiscreteLaplaceLaw(t *testing.T) {
	const tau = 3.0
	l := newDiscreteLaplaceLaw(tau)
	var z, m2, cdf float64
	for k := -400; k <= 400; k++ {
		z += l.pmfUnnorm(float64(k))
	}
	for k := -400; k <= 400; k++ {
		p := l.pmfUnnorm(float64(k)) / z
		m2 += float64(float64(k*k) * p)
		cdf += p
		if k >= -20 && k <= 20 && !approx(cdf, l.cdf(float64(k)), 1e-12) {
			t.Fatalf("cdf(%d) = %v, summed %v", k, l.cdf(float64(k)), cdf)
		}
	}
	if !approx(m2, l.variance(), 1e-12) {
		t.Errorf("variance %v, summed %v", l.variance(), m2)
	}
}

func approx(a, b, rel float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	return d <= rel*max(1, b, -b)
}

// TestDiscreteGaussCDF: Φ((k + ½)/σ) against the summed discrete Gaussian
// CDF at σ = 50, within the midpoint rule's bound e^{−1/2}/(6σ)/(√(2π)σ)
// (≈ 4·10⁻⁶ here; < 10⁻¹³ at the samplers' σ ≥ 2²⁰).
func TestDiscreteGaussCDF(t *testing.T) {
	const s = 50.0
	var z float64
	w := func(k int) float64 { return math.Exp(-float64(k*k) / (2 * s * s)) }
	for k := -2000; k <= 2000; k++ {
		z += w(k)
	}
	bound := math.Exp(-0.5) / (6 * s) / (math.Sqrt(2*math.Pi) * s)
	var cdf float64
	for k := -2000; k <= 2000; k++ {
		cdf += w(k) / z
		if k >= -200 && k <= 200 && math.Abs(cdf-discreteGaussCDF(float64(k), s)) > bound {
			t.Fatalf("k = %d: summed %v, Φ((k+½)/σ) %v, bound %v", k, cdf, discreteGaussCDF(float64(k), s), bound)
		}
	}
}
