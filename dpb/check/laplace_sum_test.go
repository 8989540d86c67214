package check

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// TestLaplaceSumLaw: the exact law of a sum of n Lap(b) draws has P[S > 0]
// = ½, is Lap(b) at n = 1, has variance 2nb² (by the tail integral), and
// 100,000 direct sums lie within the DKW bound at 1e-5 of it (a false
// failure with probability ≤ 1e-5 per n).
func TestLaplaceSumLaw(t *testing.T) {
	for _, n := range []int{1, 2, 5, 11, 21} {
		d1, d2 := newLaplaceSum(n, 1), newLaplaceSum(n, 2)
		if p := newLaplaceSum(n, 3).Tail(0); math.Abs(p-0.5) > 1e-12 {
			t.Errorf("n=%d: P[S > 0] = %v, want ½", n, p)
		}
		// E[S²] = 2∫₀^∞ 2x P[S > x] dx = 2nb² (b = 1): midpoint rule.
		var m2 float64
		const dx = 1e-3
		for x := dx / 2; x < 60+float64(4*n); x += dx {
			m2 += 4 * x * d1.Tail(x) * dx
		}
		if math.Abs(m2-2*float64(n)) > 1e-4*float64(n) {
			t.Errorf("n=%d: E[S²] = %v, want %d", n, m2, 2*n)
		}
		rng := bandit.Stream(21, uint64(n))
		const draws = 100_000
		u := make([]float64, draws)
		for i := range u {
			var s float64
			for range n {
				s += noise.Laplace(rng, 2)
			}
			u[i] = d2.CDF(s)
		}
		if d := ksUniform(u); d > ksThreshold(draws) {
			t.Errorf("n=%d: KS distance of direct sums to the exact law %v > %v", n, d, ksThreshold(draws))
		}
		q := d2.AbsQuantile(0.05)
		if p := 2 * d2.Tail(q); math.Abs(p-0.05) > 1e-9 {
			t.Errorf("n=%d: P[|S| > q] = %v at the 0.05 quantile", n, p)
		}
	}
	for _, x := range []float64{0.3, 1, 4} {
		if got, want := newLaplaceSum(1, 1.5).Tail(x), 0.5*math.Exp(-x/1.5); math.Abs(got-want) > 1e-15 {
			t.Errorf("Lap(1.5) tail at %v: %v, want %v", x, got, want)
		}
	}
}
