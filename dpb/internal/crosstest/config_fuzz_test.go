package crosstest

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// The config constructors' fuzz targets: any field values give a value or
// an error, never a panic, and what is accepted works. Sizes are bounded
// here (a fuzzer would otherwise ask for terabytes); the constructors'
// own limits are tested in their unit tests.

func FuzzSS18Setting(f *testing.F) {
	f.Add(5, int64(50_000_000), 1.0, 0.1, 2.0, 0.0)
	f.Add(5, int64(50_000_000), 1e-8, 0.1, 2.0, 0.0)
	f.Add(0, int64(-1), math.NaN(), math.Inf(1), -1.0, 2.0)
	f.Fuzz(func(t *testing.T, d int, n int64, eps, delta, lt2, alpha float64) {
		s := ss18.Setting{D: d, N: int(n), Epsilon: eps, Delta: delta, Lt2: lt2, Alpha: alpha}
		if s.Validate() != nil {
			return
		}
		if k := s.WishartK(); k <= d {
			t.Fatalf("%+v: k = %d", s, k)
		}
		if k := s.WishartKAuthors(); k <= d {
			t.Fatalf("%+v: authors' k = %d", s, k)
		}
		_, ws := s.WishartBounds(s.WishartK())
		gb := s.GaussianBounds()
		for _, v := range []float64{ws.RhoMin, ws.RhoMax, gb.RhoMin, gb.RhoMax, s.GaussianSigma(), s.Upsilon()} {
			if math.IsNaN(v) {
				t.Fatalf("%+v: NaN bound", s)
			}
		}
	})
}

func FuzzNewDPUCB(f *testing.F) {
	f.Add(2, 100, 1.0, 0.0, 0.0, false, 0.5)
	f.Add(0, -1, math.NaN(), -1.0, math.Inf(1), true, 2.0)
	f.Fuzz(func(t *testing.T, arms, horizon int, eps, gamma, scale float64, clip bool, reward float64) {
		if arms > 16 || horizon > 1<<12 {
			return
		}
		p, err := mt14.NewDPUCB(mt14.DPUCBConfig{Arms: arms, Horizon: horizon, Epsilon: eps, Gamma: gamma, RelaxationScale: scale, Clip: clip, Noise: noise.Simulated}, bandit.Stream(1, 1))
		if err != nil {
			return
		}
		r := &bandit.Round{K: arms}
		for t1 := 1; t1 <= min(horizon, 8); t1++ {
			r.T = t1
			a := p.Choose(r)
			if a < 0 || a >= arms {
				t.Fatalf("chose %d of %d", a, arms)
			}
			if !(reward >= 0 && reward <= 1) && !clip {
				defer func() { recover() }() // documented panic: rewards outside [0, 1] without Clip
			}
			p.Update(r, a, reward)
		}
	})
}

func FuzzNewLinearEnv(f *testing.F) {
	f.Add(5, 25, 0.1, 0.0, 0, 0.0)
	f.Add(1, 0, -1.0, math.NaN(), 7, math.Inf(1))
	f.Fuzz(func(t *testing.T, d, k int, gap, opt float64, nz int, sigma float64) {
		if d > 64 || k > 1024 {
			return
		}
		env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: d, K: k, Gap: gap, OptReward: opt, Noise: dpenv.RewardNoise(nz), Sigma: sigma}, bandit.Stream(1, 1))
		if err != nil {
			return
		}
		r := &bandit.Round{K: k, Dim: d, Actions: make([]float64, k*d)}
		for t1 := 1; t1 <= 3; t1++ {
			env.Next(r, t1)
			if r.K != k || r.Dim != d || len(r.Actions) < k*d {
				t.Fatalf("round has K=%d Dim=%d, %d numbers", r.K, r.Dim, len(r.Actions))
			}
			for _, v := range r.Actions {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("non-finite action coordinate")
				}
			}
			if y := env.Reward(r, 0); math.IsNaN(y) {
				t.Fatalf("NaN reward")
			}
		}
	})
}

func FuzzNewRidgeLinUCB(f *testing.F) {
	f.Add(3, 1.0, 10, 1.0, 0.1)
	f.Add(-1, math.NaN(), 0, -1.0, 2.0)
	f.Fuzz(func(t *testing.T, d int, lambda float64, n int, sigma, alpha float64) {
		if d > 32 || n > 1<<20 {
			return
		}
		reg, err := ss18.NewRegularizer(ss18.RegularizerConfig{Kind: ss18.RegRidge, Setting: ss18.Setting{D: d}, Lambda: lambda}, nil)
		if err != nil {
			return
		}
		p, err := ss18.NewLinUCB(ss18.LinUCBConfig{Dim: d, Horizon: n, Regularizer: reg, Sigma: sigma, Alpha: alpha})
		if err != nil {
			return
		}
		r := &bandit.Round{T: 1, K: 2, Dim: d, Actions: make([]float64, 2*d)}
		for i := range r.Actions {
			r.Actions[i] = 0.1 * float64(i%3)
		}
		if a := p.Choose(r); a < 0 || a > 1 {
			t.Fatalf("chose %d", a)
		}
		p.Update(r, 0, 0.5)
	})
}
