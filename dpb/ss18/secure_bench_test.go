package ss18

import (
	"fmt"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// BenchmarkSecureVsSimulated is the cost of the secure mode: the (5, 25)
// Gaussian LinUCB step (SS18 Fig. 4's size, padded tree, n = 5·10⁷), the same
// round with the Appendix D decision set drawn, and the DP-UCB step (k = 5),
// with the default seeded sampler and with noise.Secure
// (exact discrete noise from crypto/rand). Neither allocates (the secure
// samplers' big-integer paths are for draws beyond 2⁶⁴ grid steps only).
func BenchmarkSecureVsSimulated(b *testing.B) {
	for _, mode := range []noise.Mode{noise.Simulated, noise.Secure} {
		b.Run(fmt.Sprintf("alg=Gaussian/d=5/K=25/noise=%v", mode), func(b *testing.B) {
			s := Setting{D: 5, N: 50_000_000, Epsilon: 1, Delta: 0.1, Lt2: 2}
			reg, err := NewRegularizer(RegularizerConfig{Kind: RegGaussianTree, Setting: s, Mode: counter.Padded, Noise: mode}, bandit.Stream(1, 1))
			if err != nil {
				b.Fatal(err)
			}
			benchStep(b, reg, 5, 25)
		})
		b.Run(fmt.Sprintf("alg=Gaussian-round/d=5/K=25/noise=%v", mode), func(b *testing.B) {
			const n = 50_000_000
			env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 5, K: 25, Gap: 0.1}, bandit.Stream(1, 0))
			if err != nil {
				b.Fatal(err)
			}
			pol, err := NewPolicy(PolicyConfig{Alg: Gaussian, Setting: Setting{D: 5, N: n, Epsilon: 1, Delta: 0.1, Lt2: 2}, Mode: counter.Padded, Noise: mode}, bandit.Stream(1, 1))
			if err != nil {
				b.Fatal(err)
			}
			r := bandit.NewRound(env)
			b.ReportAllocs()
			t := 0
			for b.Loop() {
				t++
				env.Next(r, t)
				a := pol.Choose(r)
				pol.Update(r, a, env.Reward(r, a))
			}
			if pol.Err() != nil {
				b.Fatal(pol.Err())
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/round")
		})
		b.Run(fmt.Sprintf("alg=GaussianBLTRound-round/d=5/K=25/noise=%v", mode), func(b *testing.B) {
			// The BLT counter's secure measurements (double-word, O(K·dim) per
			// round) at Fig. 4's setting, n = 10⁶.
			env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 5, K: 25, Gap: 0.1}, bandit.Stream(1, 0))
			if err != nil {
				b.Fatal(err)
			}
			pol, err := NewPolicy(PolicyConfig{Alg: GaussianBLTRound, Setting: Setting{D: 5, N: 1_000_000, Epsilon: 1, Delta: 0.1, Lt2: 2}, Noise: mode}, bandit.Stream(1, 1))
			if err != nil {
				b.Fatal(err)
			}
			r := bandit.NewRound(env)
			b.ReportAllocs()
			t := 0
			cpu := testkit.StartCPUClock()
			for b.Loop() {
				t++
				env.Next(r, t)
				a := pol.Choose(r)
				pol.Update(r, a, env.Reward(r, a))
			}
			if pol.Err() != nil {
				b.Fatal(pol.Err())
			}
			testkit.ReportRound(b, cpu)
		})
		b.Run(fmt.Sprintf("alg=DPUCB/k=5/noise=%v", mode), func(b *testing.B) {
			p, err := mt14.NewDPUCB(mt14.DPUCBConfig{Arms: 5, Horizon: 1 << 30, Epsilon: 1, Noise: mode}, bandit.Stream(1, 1))
			if err != nil {
				b.Fatal(err)
			}
			r := &bandit.Round{K: 5}
			b.ReportAllocs()
			for b.Loop() {
				r.T++
				p.Update(r, p.Choose(r), 1)
			}
		})
	}
}
