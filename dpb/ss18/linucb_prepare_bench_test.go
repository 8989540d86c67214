package ss18

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
)

// BenchmarkLinUCBPrepare times LinUCB's per-round algebra alone: V_t's
// factorisation, the inverse factor M and z = M ũ in the kernel layout, and
// ln det V_t with β_t (Ridge statistics of 4d observations from a fixed
// stream; the regularizer's StatsTo is included).
func BenchmarkLinUCBPrepare(b *testing.B) {
	for _, d := range []int{5, 16, 64} {
		b.Run(fmt.Sprintf("d=%d", d), func(b *testing.B) {
			p := ridgeLinUCB(b, d, 1<<20, 4*d, bandit.Stream(1, 9))
			b.ReportAllocs()
			for b.Loop() {
				p.prepare()
			}
		})
	}
}

// BenchmarkPrepareLockstep times prepareLockstep for four ridge policies at
// d = 5 (CholInv4AVX2 on AVX2 CPUs: the four factorisations, inverse
// factors and z in vector lanes, as SS18 Fig. 4's job-round needs them).
func BenchmarkPrepareLockstep(b *testing.B) {
	const d = 5
	rng := bandit.Stream(1, 10)
	pols := make([]bandit.Policy, 4)
	lins := make([]*LinUCB, 4)
	for i := range pols {
		p := ridgeLinUCB(b, d, 1<<20, 4*d+i, rng)
		pols[i], lins[i] = p, p
	}
	for _, lanes := range []bool{true, false} {
		b.Run(fmt.Sprintf("lanes=%v", lanes), func(b *testing.B) {
			if lanes && !simd.Prep4AVX2 {
				b.Skip("no AVX2")
			}
			defer func(v bool) { simd.Prep4AVX2 = v }(simd.Prep4AVX2)
			simd.Prep4AVX2 = lanes
			b.ReportAllocs()
			for b.Loop() {
				for _, p := range lins {
					p.f.fresh = false
				}
				prepareLockstep(pols)
			}
		})
	}
}

// ridgeLinUCB returns a ridge (λ = 1) LinUCB of dimension d and horizon n
// that has seen obs observations from rng: random directions of norm 1/2 and
// rewards uniform in [−1/2, 1/2).
func ridgeLinUCB(tb testing.TB, d, n, obs int, rng *rand.Rand) *LinUCB {
	reg, err := NewRegularizer(RegularizerConfig{Kind: RegRidge, Setting: Setting{D: d}, Lambda: 1}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := NewLinUCB(LinUCBConfig{Dim: d, Horizon: n, Regularizer: reg})
	if err != nil {
		tb.Fatal(err)
	}
	x := make([]float64, d)
	for range obs {
		var s float64
		for i := range x {
			x[i] = rng.NormFloat64()
			s += x[i] * x[i]
		}
		for i := range x {
			x[i] /= 2 * math.Sqrt(s)
		}
		if err := p.Observe(x, rng.Float64()-0.5); err != nil {
			tb.Fatal(err)
		}
	}
	return p
}
