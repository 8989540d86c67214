package dpb

import (
	"fmt"
	"math"
	"testing"
)

// BenchmarkLinUCBPrepare times LinUCB's per-round algebra alone: V_t's
// factorisation, the inverse factor M and z = M ũ in the kernel layout, and
// ln det V_t with β_t (Ridge statistics of 4d observations from a fixed
// stream; the regularizer's StatsTo is included).
func BenchmarkLinUCBPrepare(b *testing.B) {
	for _, d := range []int{5, 16, 64} {
		b.Run(fmt.Sprintf("d=%d", d), func(b *testing.B) {
			reg, err := NewRidge(d, 1)
			if err != nil {
				b.Fatal(err)
			}
			p, err := NewLinUCB(LinUCBConfig{Dim: d, Horizon: 1 << 20, Regularizer: reg})
			if err != nil {
				b.Fatal(err)
			}
			rng := Stream(1, 9)
			x := make([]float64, d)
			for range 4 * d {
				var s float64
				for i := range x {
					x[i] = rng.NormFloat64()
					s += x[i] * x[i]
				}
				for i := range x {
					x[i] /= 2 * math.Sqrt(s)
				}
				if err := p.Observe(x, rng.Float64()-0.5); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				p.prepare()
			}
		})
	}
}
