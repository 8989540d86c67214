package ss18

import (
	"fmt"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/internal/testutil"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// BenchmarkLinUCBStep times one bandit step (Choose + Update) on pre-drawn
// decision sets: the decision-set generation is excluded.
func BenchmarkLinUCBStep(b *testing.B) {
	for _, sz := range testutil.BenchSizes {
		b.Run(fmt.Sprintf("alg=NonPrivate/d=%d/K=%d", sz.D, sz.K), func(b *testing.B) {
			reg, _ := NewRegularizer(RegularizerConfig{Kind: RegRidge, Setting: Setting{D: sz.D}, Lambda: 1}, nil)
			benchStep(b, reg, sz.D, sz.K)
		})
	}
}

// benchStep times Choose + Update on one decision set drawn by the SS18
// Appendix D environment and kept in one Round buffer, scored every round:
// the access pattern of the real loop, which draws each round's set into the
// same buffer (NewRound once, Next in place), so the step reads it from the
// cache level its size allows (at (64, 4096), 2 MB: beyond L2). A pool of
// several pre-drawn sets (8–16 × 2 MB) would instead measure memory
// bandwidth. harness.TimeLoop's step mode uses the same pattern. Besides
// wall time it reports the thread's CPU time per round, which a loaded host
// disturbs much less.
func benchStep(b *testing.B, reg Regularizer, d, k int) {
	const n = 50_000_000 // the paper's horizon (m = 27 tree levels)
	p, err := NewLinUCB(LinUCBConfig{Dim: d, Horizon: n, Regularizer: reg})
	if err != nil {
		b.Fatal(err)
	}
	env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: d, K: k, Gap: 0.1}, bandit.Stream(1, 0))
	if err != nil {
		b.Fatal(err)
	}
	r := bandit.NewRound(env)
	env.Next(r, 1)
	b.ReportAllocs()
	cpu := testkit.StartCPUClock()
	t := 0
	for b.Loop() {
		t++
		if t == n-1 {
			b.Fatal("benchmark ran past the horizon")
		}
		r.T = t
		a := p.Choose(r)
		p.Update(r, a, 0.5)
	}
	testkit.ReportRound(b, cpu)
}

// BenchmarkLinUCBPrivateStep times one step of the private variants with
// pre-drawn decision sets (decision-set generation excluded).
func BenchmarkLinUCBPrivateStep(b *testing.B) {
	for _, sz := range testutil.BenchSizes {
		s := Setting{D: sz.D, N: 50_000_000, Epsilon: 1, Delta: 0.1, Lt2: 2}
		b.Run(fmt.Sprintf("alg=Gaussian/d=%d/K=%d", sz.D, sz.K), func(b *testing.B) {
			reg, err := NewRegularizer(RegularizerConfig{Kind: RegGaussianTree, Setting: s, Mode: counter.Padded, Noise: noise.Simulated}, bandit.Stream(1, 1))
			if err != nil {
				b.Fatal(err)
			}
			benchStep(b, reg, sz.D, sz.K)
		})
		b.Run(fmt.Sprintf("alg=Wishart/d=%d/K=%d", sz.D, sz.K), func(b *testing.B) {
			reg, err := NewRegularizer(RegularizerConfig{Kind: RegWishartTree, Setting: s, Mode: counter.Padded, Noise: noise.Simulated}, bandit.Stream(1, 1))
			if err != nil {
				b.Fatal(err)
			}
			benchStep(b, reg, sz.D, sz.K)
		})
	}
}

// BenchmarkLinUCBRound times a whole round: decision-set generation (SS18
// Appendix D sets) plus the policy's step.
func BenchmarkLinUCBRound(b *testing.B) {
	for _, sz := range testutil.BenchSizes {
		for _, alg := range []Alg{NonPrivate, Gaussian, Wishart} {
			b.Run(fmt.Sprintf("alg=%v/d=%d/K=%d", alg, sz.D, sz.K), func(b *testing.B) {
				// The paper's horizon (m = 27 tree levels), padded tree.
				benchWholeRound(b, PolicyConfig{Alg: alg, Setting: Setting{D: sz.D, N: 50_000_000, Epsilon: 1, Delta: 0.1, Lt2: 2}, Mode: counter.Padded, Noise: noise.Simulated}, sz.K)
			})
		}
	}
}

// benchWholeRound runs the policy of cfg on SS18 Appendix D decision sets
// with K actions, one round per iteration.
func benchWholeRound(b *testing.B, cfg PolicyConfig, k int) {
	n := cfg.Setting.N
	env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: cfg.Setting.D, K: k, Gap: 0.1}, bandit.Stream(1, 0))
	if err != nil {
		b.Fatal(err)
	}
	pol, err := NewPolicy(cfg, bandit.Stream(1, 1))
	if err != nil {
		b.Fatal(err)
	}
	r := bandit.NewRound(env)
	b.ReportAllocs()
	cpu := testkit.StartCPUClock()
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
	testkit.ReportRound(b, cpu)
}

// BenchmarkLinUCBCounterRound times a whole round of the exactly calibrated
// BLT variants at (d, K) = (5, 25): constant bounds (GaussianBLT, and
// GaussianBLTSharp, the same work), and bounds re-read every round
// (GaussianBLTRound: VarianceAt(t), two logarithms and the radius constants).
func BenchmarkLinUCBCounterRound(b *testing.B) {
	const d, k, n = 5, 25, 1 << 22
	for _, alg := range []Alg{GaussianBLT, GaussianBLTSharp, GaussianBLTRound} {
		b.Run(fmt.Sprintf("alg=%v/d=%d/K=%d", alg, d, k), func(b *testing.B) {
			benchWholeRound(b, PolicyConfig{Alg: alg, Setting: Setting{D: d, N: n, Epsilon: 1, Delta: 0.1, Lt2: 2}, Noise: noise.Simulated}, k)
		})
	}
}
