package dpb

import (
	"fmt"
	"testing"
)

var benchSizes = []struct{ d, k int }{{5, 25}, {16, 256}, {64, 4096}}

// BenchmarkLinUCBStep times one bandit step (Choose + Update) on pre-drawn
// decision sets: the decision-set generation is excluded.
func BenchmarkLinUCBStep(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(fmt.Sprintf("alg=nonprivate/d=%d/K=%d", sz.d, sz.k), func(b *testing.B) {
			reg, _ := NewRidge(sz.d, 1)
			benchStep(b, reg, sz.d, sz.k)
		})
	}
}

func benchStep(b *testing.B, reg Regularizer, d, k int) {
	const n = 1 << 22
	p, err := NewLinUCB(LinUCBConfig{Dim: d, Horizon: n, Regularizer: reg})
	if err != nil {
		b.Fatal(err)
	}
	const pool = 8
	rounds := make([]*Round, pool)
	for i := range rounds {
		rounds[i] = randomRound(nil, uint64(i), k, d)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		r := rounds[i%pool]
		a := p.Choose(r)
		p.Update(r, a, 0.5)
		i++
		if i == n-1 {
			b.Fatal("benchmark ran past the horizon")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/round")
}
