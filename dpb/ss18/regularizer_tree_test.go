package ss18

import (
	"math"
	"math/bits"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

func testSetting(d, n int) Setting {
	return Setting{D: d, N: n, Epsilon: 1, Delta: 0.1, Lt2: 2}
}

// TestTreeRegularizerStats: the released statistics minus the perturbation
// are exactly the data's G_t and u_t (up to rounding), the zero item makes
// round 1 carry noise, and the shift sits on the diagonal.
func TestTreeRegularizerStats(t *testing.T) {
	const d, n = 3, 40
	for _, tc := range []struct {
		name string
		mk   func() (*TreeRegularizer, error)
	}{
		{"wishart-shifted-padded", func() (*TreeRegularizer, error) {
			return treeReg(NewRegularizer(RegularizerConfig{Kind: RegWishartTree, Setting: testSetting(d, n), Mode: counter.Padded, Noise: noise.Simulated}, bandit.Stream(1, 1)))
		}},
		{"wishart-unshifted-plain", func() (*TreeRegularizer, error) {
			return treeReg(NewRegularizer(RegularizerConfig{Kind: RegWishartTree, Setting: testSetting(d, n), Shift: ShiftNone, Noise: noise.Simulated}, bandit.Stream(1, 2)))
		}},
		{"gaussian-plain", func() (*TreeRegularizer, error) {
			return treeReg(NewRegularizer(RegularizerConfig{Kind: RegGaussianTree, Setting: testSetting(d, n), Noise: noise.Simulated}, bandit.Stream(1, 3)))
		}},
		{"gaussian-given", func() (*TreeRegularizer, error) {
			s := testSetting(d, n)
			return treeReg(NewRegularizer(RegularizerConfig{Kind: RegGaussianTree, Setting: s, Shift: ShiftGiven, ShiftValue: 3 * s.Upsilon(), Mode: counter.Padded, Noise: noise.Simulated}, bandit.Stream(1, 4)))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := tc.mk()
			if err != nil {
				t.Fatal(err)
			}
			rng := bandit.Stream(2, 0)
			g := make([]float64, d*d)
			u := make([]float64, d)
			v, ut := make([]float64, d*d), make([]float64, d)
			h, hv := make([]float64, d*d), make([]float64, d)
			for round := 1; round <= n; round++ {
				r.StatsTo(v, ut)
				r.PerturbationTo(h, hv)
				if round == 1 && r.Tree().NodesInRelease() < 1 {
					t.Fatal("round 1's release carries no noise")
				}
				scale := math.Abs(h[0]) + 1
				for i := 0; i < d; i++ {
					for j := 0; j < d; j++ {
						if math.Abs(v[i*d+j]-h[i*d+j]-g[i*d+j]) > 1e-9*scale {
							t.Fatalf("round %d: V−H [%d,%d] = %v, want G = %v", round, i, j, v[i*d+j]-h[i*d+j], g[i*d+j])
						}
						if h[i*d+j] != h[j*d+i] {
							t.Fatalf("H not symmetric")
						}
					}
					if math.Abs(ut[i]-hv[i]-u[i]) > 1e-9*scale {
						t.Fatalf("round %d: ũ−h [%d] = %v, want %v", round, i, ut[i]-hv[i], u[i])
					}
				}
				x := []float64{rng.Float64() - 0.5, rng.Float64() - 0.5, rng.Float64() - 0.5}
				y := rng.Float64()*2 - 1
				r.Add(x, y)
				for i := 0; i < d; i++ {
					for j := 0; j < d; j++ {
						g[i*d+j] += x[i] * x[j]
					}
					u[i] += y * x[i]
				}
			}
		})
	}
}

// TestTreeRegularizerShift: the mean of H_t's diagonal is the noise mean plus
// the shift: for Wishart, E H_t = (m k L̃² − c) I when padded; for Gaussian,
// E H_t = 2Υ I. Checked on the exact means (no sampling) by a zero-variance
// argument: H_t − (shift) on the diagonal is the noise block, whose diagonal
// for Wishart is positive, and the recorded shift equals the bounds' Shift.
func TestTreeRegularizerShift(t *testing.T) {
	s := testSetting(4, 1000)
	w, err := NewRegularizer(RegularizerConfig{Kind: RegWishartTree, Setting: s, Mode: counter.Padded, Noise: noise.Simulated}, bandit.Stream(3, 1))
	if err != nil {
		t.Fatal(err)
	}
	if c := w.Bounds().Shift; c != s.WishartShift(s.WishartK()) {
		t.Fatalf("wishart shift %v, want c of Eq. 4 = %v", c, s.WishartShift(s.WishartK()))
	}
	h, hv := make([]float64, 16), make([]float64, 4)
	w.PerturbationTo(h, hv)
	mk := float64(s.Levels() * s.WishartK())
	// Each diagonal entry of W(L̃²I, mk) is L̃²·χ²(mk): within 6 sd of its mean
	// (false failure < 1e-8 per entry).
	for i := 0; i < 4; i++ {
		got := h[i*4+i] + w.Bounds().Shift
		if math.Abs(got-s.Lt2*mk) > 6*s.Lt2*math.Sqrt(2*mk) {
			t.Fatalf("H+c diagonal %v, want ≈ %v", got, s.Lt2*mk)
		}
	}
	g, err := NewRegularizer(RegularizerConfig{Kind: RegGaussianTree, Setting: s, Noise: noise.Simulated}, bandit.Stream(3, 2))
	if err != nil {
		t.Fatal(err)
	}
	if c := g.Bounds().Shift; c != 2*s.Upsilon() {
		t.Fatalf("gaussian shift %v, want 2Υ = %v", c, 2*s.Upsilon())
	}
}

func TestTreeRegularizerErrors(t *testing.T) {
	s := testSetting(3, 100)
	cases := []struct {
		name, want string
		err        error
	}{}
	add := func(name, want string, _ *TreeRegularizer, err error) {
		cases = append(cases, struct {
			name, want string
			err        error
		}{name, want, err})
	}
	r, err := treeReg(NewRegularizer(RegularizerConfig{Kind: RegWishartTree, Setting: Setting{D: 3, N: 100, Epsilon: -1, Delta: 0.1, Lt2: 2}, Noise: noise.Simulated}, bandit.Stream(1, 1)))
	add("eps<0", "epsilon", r, err)
	r, err = treeReg(NewRegularizer(RegularizerConfig{Kind: RegWishartTree, Setting: Setting{D: 3, N: 100, Epsilon: math.NaN(), Delta: 0.1, Lt2: 2}, Noise: noise.Simulated}, bandit.Stream(1, 1)))
	add("eps NaN", "epsilon", r, err)
	r, err = treeReg(NewRegularizer(RegularizerConfig{Kind: RegGaussianTree, Setting: Setting{D: 3, N: 100, Epsilon: 1, Delta: 1, Lt2: 2}, Noise: noise.Simulated}, bandit.Stream(1, 1)))
	add("delta=1", "delta", r, err)
	r, err = treeReg(NewRegularizer(RegularizerConfig{Kind: RegGaussianTree, Setting: Setting{D: 0, N: 100, Epsilon: 1, Delta: 0.1, Lt2: 2}, Noise: noise.Simulated}, bandit.Stream(1, 1)))
	add("d=0", "dimension", r, err)
	r, err = treeReg(NewRegularizer(RegularizerConfig{Kind: RegWishartTree, Setting: s, K: 3, Noise: noise.Simulated}, bandit.Stream(1, 1)))
	add("k<=d", "degrees of freedom", r, err)
	r, err = treeReg(NewRegularizer(RegularizerConfig{Kind: RegGaussianTree, Setting: s, Shift: ShiftNone, Noise: noise.Simulated}, bandit.Stream(1, 1)))
	add("gaussian unshifted", "needs a shift", r, err)
	r, err = treeReg(NewRegularizer(RegularizerConfig{Kind: RegGaussianTree, Setting: s, Shift: ShiftGiven, ShiftValue: s.Upsilon() / 2, Noise: noise.Simulated}, bandit.Stream(1, 1)))
	add("gaussian shift below Υ", "not above", r, err)
	r, err = treeReg(NewRegularizer(RegularizerConfig{Kind: RegWishartTree, Setting: s, Shift: ShiftGiven, ShiftValue: 1e12, Noise: noise.Simulated}, bandit.Stream(1, 1)))
	add("wishart shift too big", "ρ_min", r, err)
	for _, c := range cases {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: err = %v, want one mentioning %q", c.name, c.err, c.want)
		}
	}
}

// TestTreeNoiseVariance: the per-round noise variance of a release is
// popcount(t)·σ² in Plain mode and m·σ² in Padded mode. Each estimate uses
// R independent trees; the sample variance of R normal draws satisfies
// (R−1)s²/v ~ χ²(R−1); the bounds are its 1e-6 and 1 − 1e-6 quantiles, so with
// 2·12 rounds checked the test fails spuriously with probability < 5e-5.
func TestTreeNoiseVariance(t *testing.T) {
	const n, R, sigma = 12, 4000, 1.5
	for _, mode := range []counter.ReleaseMode{counter.Plain, counter.Padded} {
		sum := make([]float64, n+1)
		sum2 := make([]float64, n+1)
		buf := make([]float64, 1)
		for rep := 0; rep < R; rep++ {
			g, _ := noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Simulated, Dim: 1, Sigma: sigma}, bandit.Stream(5, uint64(rep)))
			ts, _ := counter.New(counter.Config{Kind: counter.Tree, Dim: 1, Horizon: n, Noise: g, Mode: mode})
			for r := 1; r <= n; r++ {
				ts.Add(buf[:1:1])
				z := ts.NoiseTo(nil)[0]
				sum[r] += z
				sum2[r] += z * z
			}
		}
		m := counter.TreeLevels(n)
		// s²/v quantiles at 1e-6 and 1−1e-6: χ²(3999)/3999 by Wilson–Hilferty
		// (z = 4.7534): (1 − a ∓ z√a)³ with a = 2/(9·3999).
		lo, hi := 0.89726, 1.10994
		for r := 1; r <= n; r++ {
			nodes := bits.OnesCount(uint(r))
			if mode == counter.Padded {
				nodes = m
			}
			want := float64(nodes) * sigma * sigma
			mean := sum[r] / R
			v := (sum2[r] - R*mean*mean) / (R - 1)
			if v < lo*want || v > hi*want {
				t.Errorf("%v t=%d: noise variance %.3f, want %.3f (%d nodes) within [%.3f, %.3f]", mode, r, v, want, nodes, lo*want, hi*want)
			}
		}
	}
}
