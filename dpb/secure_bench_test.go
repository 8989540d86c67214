package dpb

import (
	"fmt"
	"testing"
)

// BenchmarkSecureVsSimulated is the cost of the secure mode: the (5, 25)
// Gaussian LinUCB step (SS18 Fig. 4's size, padded tree, n = 5·10⁷), the same
// round with the Appendix D decision set drawn, and the DP-UCB step (k = 5),
// with the default seeded sampler and with NoiseSecure
// (exact discrete noise from crypto/rand). Neither allocates (the secure
// samplers' big-integer paths are for draws beyond 2⁶⁴ grid steps only).
func BenchmarkSecureVsSimulated(b *testing.B) {
	for _, mode := range []NoiseMode{NoiseSimulated, NoiseSecure} {
		b.Run(fmt.Sprintf("alg=Gaussian/d=5/K=25/noise=%v", mode), func(b *testing.B) {
			s := SS18Setting{D: 5, N: 50_000_000, Epsilon: 1, Delta: 0.1, Lt2: 2}
			reg, err := NewGaussianTree(TreeRegConfig{Setting: s, Mode: Padded, Noise: mode}, Stream(1, 1))
			if err != nil {
				b.Fatal(err)
			}
			benchStep(b, reg, 5, 25)
		})
		b.Run(fmt.Sprintf("alg=Gaussian-round/d=5/K=25/noise=%v", mode), func(b *testing.B) {
			const n = 50_000_000
			env, err := NewLinearEnv(LinearEnvConfig{Dim: 5, K: 25, Gap: 0.1}, Stream(1, 0))
			if err != nil {
				b.Fatal(err)
			}
			pol, err := NewSS18Policy(SS18PolicyConfig{Alg: SS18Gaussian, Setting: SS18Setting{D: 5, N: n, Epsilon: 1, Delta: 0.1, Lt2: 2}, Mode: Padded, Noise: mode}, Stream(1, 1))
			if err != nil {
				b.Fatal(err)
			}
			r := NewRound(env)
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
		b.Run(fmt.Sprintf("alg=DPUCB/k=5/noise=%v", mode), func(b *testing.B) {
			p, err := NewDPUCB(DPUCBConfig{Arms: 5, Horizon: 1 << 30, Epsilon: 1, Noise: mode}, Stream(1, 1))
			if err != nil {
				b.Fatal(err)
			}
			r := &Round{K: 5}
			b.ReportAllocs()
			for b.Loop() {
				r.T++
				p.Update(r, p.Choose(r), 1)
			}
		})
	}
}
