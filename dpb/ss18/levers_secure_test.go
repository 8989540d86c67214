package ss18

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// TestLeverSensitivityAttained: the packed ℓ2 change leverSensitivity
// gives the secure split noise is (a) attained by a neighbouring pair within
// the bounds (computed here from the records, corner zeroed, as the
// regularizer packs them) and (b) at most max ‖Δ‖_σ·max σ, the condition
// newSecureGaussian's inflation needs (M ≥ sens/max σ, M = √f/σ_V the
// continuous split mechanism's largest weighted change, LeverCal). (b)
// fails for a sensitivity twice too large (the planted control): the
// inflation would then be too small to pay for the rounding.
func TestLeverSensitivityAttained(t *testing.T) {
	packed := func(x []float64, y float64) []float64 {
		z := append(append([]float64(nil), x...), y)
		p := make([]float64, simd.PackedLen(len(z)))
		simd.PackOuterTo(p, z)
		p[len(p)-1] = 0
		return p
	}
	dist := func(a, b []float64) float64 {
		var s float64
		for i := range a {
			s += (a[i] - b[i]) * (a[i] - b[i])
		}
		return math.Sqrt(s)
	}
	for _, c := range []struct {
		d       int
		l, b, r float64
	}{{1, 1, 1, 1.5}, {2, 1, 1, 1.54}, {5, 1, 1, 1.571}, {5, 2, 0.5, 0.8}, {3, 0.5, 3, 4}, {10, 1, 1, 1}} {
		s := Setting{D: c.d, N: 100, Epsilon: 1, Delta: 0.1, Lt2: c.l*c.l + c.b*c.b}
		lc := LeverCal{Ratio: c.r, Levers: Levers{Split: true, XBound: c.l, YBound: c.b}}
		lc.Sigma = 1
		sens := leverSensitivity(s, lc)
		// (a) attained: the pairs of the doc comment, and no larger among random ones is required.
		e1, e2 := make([]float64, c.d), make([]float64, c.d)
		e1[0] = c.l
		best := dist(packed(e1, c.b), packed(e1, -c.b))
		if c.d >= 2 {
			e2[1] = c.l
			best = math.Max(best, dist(packed(e1, c.b), packed(e2, -c.b)))
		}
		if math.Abs(best-sens) > 1e-12*sens {
			t.Errorf("%+v: sensitivity %v, the pairs attain %v", c, sens, best)
		}
		// (b) sens ≤ M·max σ, M = √f/σ_V, max σ = √2·max(σ_V, σ_u).
		maxSigma := math.Sqrt2 * math.Max(1, c.r)
		m := SplitFactor(c.l, c.b, c.r)
		if !(sens <= m*maxSigma*(1+1e-12)) {
			t.Errorf("%+v: sensitivity %v above M·max σ = %v", c, sens, m*maxSigma)
		}
		if 2*sens <= m*maxSigma {
			t.Errorf("%+v: control: twice the sensitivity (%v) still below M·max σ = %v; the check cannot fail here", c, 2*sens, m*maxSigma)
		}
	}
}

// TestLeverVariantsSecure: every lever variant runs on secure noise
// (SecureSeeded, reproducible from its seed), its Toeplitz counter on the
// lever's own β with the data bound max(L², LB) (split) or L̃², and
// reports a discrete (ε, δ) within 10⁻⁶ of the setting's. Two policies
// seeded alike choose alike; a third seeded otherwise does not (the control
// that the noise is drawn at all).
func TestLeverVariantsSecure(t *testing.T) {
	s := Setting{D: 3, N: 300, Epsilon: 1, Delta: 0.1, Lt2: 2}
	for _, a := range LeverAlgs {
		run := func(seed uint64) ([]int, *LinUCB) {
			cfg := PolicyConfig{Alg: a, Setting: s, Noise: noise.SecureSeeded}
			if lv, _ := a.Levers(); lv.Split {
				cfg.XBound, cfg.YBound = 1, 1
			}
			p, err := NewPolicy(cfg, rand.New(rand.NewPCG(seed, 8)))
			if err != nil {
				t.Fatalf("%v: %v", a, err)
			}
			env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 3, K: 9, Gap: 0.1}, bandit.Stream(55, 1))
			if err != nil {
				t.Fatal(err)
			}
			r := bandit.NewRound(env)
			var arms []int
			for tt := 1; tt <= s.N; tt++ {
				env.Next(r, tt)
				arm := p.Choose(r)
				p.Update(r, arm, env.Reward(r, arm))
				arms = append(arms, arm)
			}
			if p.Err() != nil {
				t.Errorf("%v: %v", a, p.Err())
			}
			return arms, p
		}
		a1, p := run(7)
		a2, _ := run(7)
		a3, _ := run(9)
		if !slices.Equal(a1, a2) {
			t.Errorf("%v: two SecureSeeded runs of one seed differ", a)
		}
		if slices.Equal(a1, a3) {
			t.Errorf("%v: control: runs of seeds 7 and 9 choose alike", a)
		}
		pr := p.Privacy()
		if pr.Noise != "secure-seeded" || !(pr.Epsilon >= 1 && pr.Epsilon <= 1+1e-6) || pr.Delta != 0.1 || !strings.Contains(pr.Accounting, "on the discrete noise") {
			t.Errorf("%v: privacy %+v", a, pr)
		}
		reg := p.reg.(*TreeRegularizer)
		tc, ok := reg.Counter().(*counter.ToeplitzCounter)
		if !ok {
			t.Fatalf("%v: counter %T", a, reg.Counter())
		}
		lc := *reg.lever
		want := s.Lt2
		if lc.Levers.Split {
			want = 1
		}
		if b := tc.Bound(); math.Abs(b.Entry/want-1) > 1e-9 || !b.Clip {
			t.Errorf("%v: data bound %+v, want %v clipped", a, b, want)
		}
		if lc.Levers.Split && !strings.Contains(pr.Accounting, "split") {
			t.Errorf("%v: accounting %q", a, pr.Accounting)
		}
	}
}
