package testutil

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

var BenchSizes = []struct{ D, K int }{{5, 25}, {16, 256}, {64, 4096}}

// NormaliseCases calls f for d = 1…dmax and K = 0…kmax with θ of d normal
// draws and K vectors of d normal draws each, scaled by 1, 2⁵²⁰,
// 2⁻⁵²⁰ (so that the sum of squares over- or underflows) and 0, the vector
// at position zeroAt zeroed when K > zeroAt + 1 (NaN means and components);
// all from the fixed stream Stream(seed, 503).
func NormaliseCases(seed uint64, dmax, kmax, zeroAt int, f func(d, k int, scale float64, acts, theta []float64)) {
	g := noise.NewFastRand(bandit.Stream(seed, 503))
	for d := 1; d <= dmax; d++ {
		theta := make([]float64, d)
		g.NormalsTo(theta)
		for k := 0; k <= kmax; k++ {
			for _, scale := range []float64{1, 0x1p520, 0x1p-520, 0} {
				a := make([]float64, k*d)
				g.NormalsTo(a)
				for i := range a {
					a[i] *= scale
				}
				if k > zeroAt+1 {
					clear(a[zeroAt*d : (zeroAt+1)*d])
				}
				f(d, k, scale, a, theta)
			}
		}
	}
}

// RandomRound fills a round with K random actions of norm <= 1.
func RandomRound(_ testing.TB, seed uint64, k, d int) *bandit.Round {
	rng := bandit.Stream(seed, 99)
	r := &bandit.Round{T: 1, K: k, Dim: d, Actions: make([]float64, k*d)}
	for a := 0; a < k; a++ {
		x := r.Actions[a*d : (a+1)*d]
		var n float64
		for i := range x {
			x[i] = rng.NormFloat64()
			n += float64(x[i] * x[i])
		}
		s := rng.Float64() / math.Sqrt(n)
		for i := range x {
			x[i] *= s
		}
	}
	return r
}
