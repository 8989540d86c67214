package dpb_test

import (
	"fmt"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/mab"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// BenchmarkSecureEveryMechanism is the cost per round of every mechanism
// with a secure mode, simulated and secure (crypto/rand) side by side in one
// run: the SS18 variants at Fig. 4's setting (d = 5, K = 25, n = 10⁶, padded
// trees, the decision set drawn every round; the square root at its largest
// horizon 2¹⁷, whose cost per round grows with the round), DP-UCB (k = 5) on each node
// counter, the (ε, δ) DP-FTRL (N = 10) on Honaker's counter and the private
// MAB family (k = 5). Run with -benchtime=Nx for equal round counts; on a
// shared host compare cpu-µs/round (the benchmark thread's CPU time).
func BenchmarkSecureEveryMechanism(b *testing.B) {
	modes := []noise.Mode{noise.Simulated, noise.Secure}
	for _, alg := range []ss18.Alg{ss18.Gaussian, ss18.GaussianExact, ss18.GaussianHonaker, ss18.GaussianSmooth,
		ss18.GaussianSqrt, ss18.GaussianBLT, ss18.GaussianBLTSharp, ss18.GaussianBLTRound, ss18.GaussianLeversNorms} {
		for _, mode := range modes {
			b.Run(fmt.Sprintf("ss18-%v/noise=%v", alg, mode), func(b *testing.B) {
				env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 5, K: 25, Gap: 0.1}, bandit.Stream(1, 0))
				if err != nil {
					b.Fatal(err)
				}
				n := 1_000_000
				if alg == ss18.GaussianSqrt {
					n = counter.MaxSqrtHorizon // its largest horizon; O(t) per round
				}
				cfg := ss18.PolicyConfig{Alg: alg, Setting: ss18.Setting{D: 5, N: n, Epsilon: 1, Delta: 0.1, Lt2: 2}, Mode: counter.Padded, Noise: mode}
				if lv, _ := alg.Levers(); lv.Split {
					cfg.XBound, cfg.YBound = 1, 1 // unit actions, rewards in [−1, 1]
				}
				pol, err := ss18.NewPolicy(cfg, bandit.Stream(1, 1))
				if err != nil {
					b.Fatal(err)
				}
				loop(b, env, pol)
			})
		}
	}
	for _, kind := range []counter.Kind{counter.Tree, counter.Honaker, counter.Smooth, counter.Kary} {
		for _, mode := range modes {
			b.Run(fmt.Sprintf("dpucb-%v/noise=%v", kind, mode), func(b *testing.B) {
				env, _ := dpenv.NewKArmedEnv(dpenv.KArmedConfig{Means: []float64{0.9, 0.8, 0.7, 0.6, 0.5}, Noise: dpenv.Bernoulli}, bandit.Stream(1, 0))
				pol, err := mt14.NewDPUCB(mt14.DPUCBConfig{Arms: 5, Horizon: 1 << 24, Epsilon: 1, Counter: kind, Noise: mode, NoRelaxation: kind != counter.Tree}, bandit.Stream(1, 1))
				if err != nil {
					b.Fatal(err)
				}
				loop(b, env, pol)
			})
		}
	}
	for _, mode := range modes {
		b.Run(fmt.Sprintf("ftrl-honaker/noise=%v", mode), func(b *testing.B) {
			f, err := as17.NewFTRL(as17.FTRLConfig{Set: as17.Ball, Dim: 10, Horizon: 1 << 24, Epsilon: 1, Delta: 1e-5, Counter: counter.Honaker, Noise: mode}, bandit.Stream(1, 1))
			if err != nil {
				b.Fatal(err)
			}
			loss := make([]float64, 10)
			x := make([]float64, 10)
			b.ReportAllocs()
			cpu := testkit.StartCPUClock()
			for b.Loop() {
				f.Predict(x)
				loss[0] = -x[0]
				if err := f.Observe(loss); err != nil {
					b.Fatal(err)
				}
			}
			testkit.ReportRound(b, cpu)
		})
	}
	for _, mode := range modes {
		for name, mk := range map[string]func() (bandit.Policy, error){
			"dpse": func() (bandit.Policy, error) {
				return mab.NewDPSE(mab.DPSEConfig{Arms: 5, Horizon: 1 << 24, Epsilon: 1, Noise: mode}, bandit.Stream(1, 1))
			},
			"adap": func() (bandit.Policy, error) {
				return mab.NewAdaP(mab.AdaPConfig{Arms: 5, Epsilon: 1, Noise: mode}, bandit.Stream(1, 1))
			},
		} {
			b.Run(fmt.Sprintf("mab-%s/noise=%v", name, mode), func(b *testing.B) {
				env, _ := dpenv.NewKArmedEnv(dpenv.KArmedConfig{Means: []float64{0.9, 0.8, 0.7, 0.6, 0.5}, Noise: dpenv.Bernoulli}, bandit.Stream(1, 0))
				pol, err := mk()
				if err != nil {
					b.Fatal(err)
				}
				loop(b, env, pol)
			})
		}
	}
}

func loop(b *testing.B, env bandit.Environment, pol bandit.Policy) {
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
	testkit.ReportRound(b, cpu)
}
