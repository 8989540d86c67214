package dpb

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkCounterStep measures one round (Add then SumTo) of each counter
// on packed symmetric 6×6 matrices (dim 21: SS18 at d = 5) with the
// symmetrised Gaussian node noise, as the SS18 regularizer runs it. The
// exact square root's round costs O(t·dim); it runs at horizon 2¹³ (mean t
// ≈ 4096), the others at 2²⁰.
func BenchmarkCounterStep(b *testing.B) {
	const n1 = 6
	dim := PackedLen(n1)
	for _, kind := range CounterKinds {
		b.Run(kind.String(), func(b *testing.B) {
			horizon := 1 << 20
			if kind == CounterSqrt {
				horizon = 1 << 13
			}
			rng := rand.New(rand.NewPCG(1, 2))
			noise, _ := NewSymGaussianNoise(n1, 1, rng)
			c, err := NewCounter(kind, dim, horizon, noise)
			if err != nil {
				b.Fatal(err)
			}
			z := make([]float64, dim)
			dst := make([]float64, dim)
			for i := range z {
				z[i] = 0.01 * float64(i)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if c.Rounds() == horizon {
					b.StopTimer()
					c, _ = NewCounter(kind, dim, horizon, noise)
					b.StartTimer()
				}
				c.Add(z)
				c.SumTo(dst)
			}
		})
	}
}
