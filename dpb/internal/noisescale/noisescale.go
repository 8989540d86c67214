// Package noisescale holds one process-wide factor by which every simulated
// sampler of dpb/noise (Laplace, Gaussian, symmetric Gaussian, Wishart) and
// every other draw of a mechanism's noise (AS17 Algorithm 4's feedback noise)
// is multiplied after it is drawn. It is 1 — the samplers untouched, not even
// multiplied — unless a test or a planted-defect run sets it: dpb/check's
// construction test sets 0 (every mechanism's noise switched off) to find
// the verdicts whose control is caught whatever the noise does.
//
// The draw itself is made as before and only then scaled, so the random
// streams advance exactly as with the factor 1 and everything else a run
// draws (environments, tie-breaking, other mechanisms) is unchanged.
// Reference computations that draw noise to estimate a law or a bound (the
// Laplace sums of dpb/as17's D_Lap, a check's reference sample) use
// noise.Laplace, which this factor does not touch.
//
// The factor is read atomically; set it only while no run is under way (a
// test that sets it must not run in parallel with one that draws).
package noisescale

import (
	"math"
	"sync/atomic"
)

// bits holds Float64bits(factor) XOR Float64bits(1), so that its zero value
// is the factor 1.
var bits atomic.Uint64

var one = math.Float64bits(1)

// Factor returns the factor and whether it is set (not 1).
func Factor() (f float64, set bool) {
	b := bits.Load()
	return math.Float64frombits(b ^ one), b != 0
}

// Set sets the factor to f (finite and >= 0) and returns a function that
// restores the previous one.
func Set(f float64) (restore func()) {
	if !(f >= 0 && f <= math.MaxFloat64) {
		panic("noisescale: factor must be finite and >= 0")
	}
	prev := bits.Swap(math.Float64bits(f) ^ one)
	return func() { bits.Store(prev) }
}

// Apply multiplies every entry of dst by the factor when it is set.
func Apply(dst []float64) {
	if f, set := Factor(); set {
		for i := range dst {
			dst[i] *= f
		}
	}
}

// Scale returns x times the factor when it is set, x itself otherwise.
func Scale(x float64) float64 {
	if f, set := Factor(); set {
		return x * f
	}
	return x
}
