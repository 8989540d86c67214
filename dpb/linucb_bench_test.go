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
		b.Run(fmt.Sprintf("alg=NonPrivate/d=%d/K=%d", sz.d, sz.k), func(b *testing.B) {
			reg, _ := NewRidge(sz.d, 1)
			benchStep(b, reg, sz.d, sz.k)
		})
	}
}

func benchStep(b *testing.B, reg Regularizer, d, k int) {
	const n = 50_000_000 // the paper's horizon (m = 27 tree levels)
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

// BenchmarkLinUCBPrivateStep times one step of the private variants with
// pre-drawn decision sets (decision-set generation excluded).
func BenchmarkLinUCBPrivateStep(b *testing.B) {
	for _, sz := range benchSizes {
		s := SS18Setting{D: sz.d, N: 50_000_000, Epsilon: 1, Delta: 0.1, Lt2: 2}
		b.Run(fmt.Sprintf("alg=Gaussian/d=%d/K=%d", sz.d, sz.k), func(b *testing.B) {
			reg, err := NewGaussianTree(TreeRegConfig{Setting: s, Mode: Padded}, Stream(1, 1))
			if err != nil {
				b.Fatal(err)
			}
			benchStep(b, reg, sz.d, sz.k)
		})
		b.Run(fmt.Sprintf("alg=Wishart/d=%d/K=%d", sz.d, sz.k), func(b *testing.B) {
			reg, err := NewWishartTree(TreeRegConfig{Setting: s, Mode: Padded}, Stream(1, 1))
			if err != nil {
				b.Fatal(err)
			}
			benchStep(b, reg, sz.d, sz.k)
		})
	}
}

// BenchmarkLinUCBRound times a whole round: decision-set generation (SS18
// Appendix D sets) plus the policy's step.
func BenchmarkLinUCBRound(b *testing.B) {
	for _, sz := range benchSizes {
		for _, alg := range []SS18Alg{SS18NonPrivate, SS18Gaussian, SS18Wishart} {
			b.Run(fmt.Sprintf("alg=%v/d=%d/K=%d", alg, sz.d, sz.k), func(b *testing.B) {
				const n = 50_000_000 // the paper's horizon (m = 27 tree levels)
				env, err := NewLinearEnv(LinearEnvConfig{Dim: sz.d, K: sz.k, Gap: 0.1}, Stream(1, 0))
				if err != nil {
					b.Fatal(err)
				}
				pol, err := NewSS18Policy(SS18PolicyConfig{Alg: alg, Setting: SS18Setting{D: sz.d, N: n, Epsilon: 1, Delta: 0.1, Lt2: 2}, Mode: Padded}, Stream(1, 1))
				if err != nil {
					b.Fatal(err)
				}
				r := NewRound(env)
				b.ReportAllocs()
				t := 0
				for b.Loop() {
					t++
					if t >= n {
						b.Fatal("benchmark ran past the horizon")
					}
					env.Next(r, t)
					a := pol.Choose(r)
					pol.Update(r, a, env.Reward(r, a))
				}
				if pol.Err() != nil {
					b.Fatal(pol.Err())
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/round")
			})
		}
	}
}

// BenchmarkScoreKernel times the scoring kernel alone (all K actions of one
// decision set, scored with each kernel this CPU supports) and reports
// GFLOP/s counting the useful work only: d(d+1)/2 multiply–adds of w = M x
// and 2d of ⟨z, w⟩ and ‖w‖² per action, 2 flops each.
func BenchmarkScoreKernel(b *testing.B) {
	ks := kernelsAvailable()
	for _, k := range ks {
		if k == kernelAVX2 {
			ks = append(ks, kernelAVX2x4)
		}
	}
	for _, sz := range benchSizes {
		for _, k := range ks {
			b.Run(fmt.Sprintf("kernel=%s/d=%d/K=%d", k, sz.d, sz.k), func(b *testing.B) {
				d, dp := sz.d, padDim(sz.d)
				_, _, mt, zp := randomKernel(Stream(1, 4), d, dp)
				r := randomRound(nil, 1, sz.k, d)
				scores := make([]float64, sz.k)
				nblk := sz.k / 4
				b.ReportAllocs()
				for b.Loop() {
					scoreBlocksWith(k, mt, dp, zp, d, r.Actions, nblk, 1.5, scores)
				}
				flops := float64(4*nblk) * float64(d*(d+1)+4*d)
				b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
