package as17

import (
	"math"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// With zero node noise the counter variant of DP-FTRL is FTL-with-
// regulariser on the exact cumulative loss: every counter must give the
// non-private learner's predictions (up to summation order).
func TestFTRLCounterZeroNoiseExact(t *testing.T) {
	const dim, T = 4, 37
	for _, set := range []DecisionSet{Simplex, Ball, Cube} {
		ref, err := NewFTRL(FTRLConfig{Set: set, Dim: dim, Horizon: T, Epsilon: math.Inf(1), Noise: noise.Simulated}, bandit.Stream(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		losses, err := NewLosses(LossConfig{Set: set, Dim: dim, Horizon: T}, bandit.Stream(2, 1))
		if err != nil {
			t.Fatal(err)
		}
		for _, kind := range counter.Kinds {
			cfg := FTRLConfig{Set: set, Dim: dim, Horizon: T, Epsilon: 1, Delta: 1e-5, Counter: kind, Eta: ref.Config().Eta, Noise: noise.Simulated}
			f, err := newFTRLOn(cfg, noise.ZeroNoise{N: dim})
			if err != nil {
				t.Fatal(err)
			}
			g, _ := NewFTRL(FTRLConfig{Set: set, Dim: dim, Horizon: T, Epsilon: math.Inf(1), Noise: noise.Simulated}, bandit.Stream(1, 1))
			l := make([]float64, dim)
			for s := 1; s <= T; s++ {
				x, y := f.Predict(nil), g.Predict(nil)
				for i := range x {
					if math.Abs(x[i]-y[i]) > 1e-12 {
						t.Fatalf("%v/%v round %d: x = %v, non-private %v", set, kind, s, x, y)
					}
				}
				losses.Next(s, l)
				if err := f.Observe(l); err != nil {
					t.Fatal(err)
				}
				if err := g.Observe(l); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// The calibrated σ, checked against an independent computation: δ of the
// composed Gaussian mechanism by quadrature of the two output densities
// (δ(ε) = ∫ max(0, φ(x) − e^ε φ(x − μ)) dx, μ = Δ₂√m/σ), with Δ₂ = 2‖𝒴‖₂
// and, for the trees, m = the number of nodes a loss enters counted here
// from the tree's levels, not from Cost().
func TestFTRLGaussianSigmaCalibration(t *testing.T) {
	const dim, T, eps, delta = 10, 1000, 1.0, 1e-5
	for _, set := range []DecisionSet{Simplex, Ball, Cube} {
		for _, kind := range counter.Kinds {
			sigma, err := FTRLGaussianSigma(set, dim, T, eps, delta, kind)
			if err != nil {
				t.Fatal(err)
			}
			probe, _ := counter.New(counter.Config{Kind: kind, Dim: 1, Horizon: T, Noise: noise.ZeroNoise{N: 1}})
			l2sq := probe.Cost().L2Sq
			if kind == counter.Tree || kind == counter.TreePadded {
				if l2sq != float64(counter.TreeLevels(T)) {
					t.Errorf("%v: L2Sq %v, a loss enters %d nodes", kind, l2sq, counter.TreeLevels(T))
				}
			}
			mu := 2 * set.YNorm2(dim) * math.Sqrt(l2sq) / sigma
			got := quadGaussianDelta(mu, eps)
			// The quadrature's error is below 1e-9 (step 1e-3 on a smooth
			// integrand); σ's bisection resolution moves δ by less.
			if math.Abs(got-delta) > 1e-7 {
				t.Errorf("%v/%v: σ = %v gives δ = %v by quadrature, want %v", set, kind, sigma, got, delta)
			}
			// 1% less noise must break the target (σ is the smallest).
			if d := quadGaussianDelta(mu/0.99, eps); !(d > delta*1.01) {
				t.Errorf("%v/%v: σ·0.99 still gives δ = %v ≤ %v", set, kind, d, delta)
			}
		}
	}
}

// quadGaussianDelta integrates max(0, φ(x) − e^ε φ(x − μ)) by the composite
// Simpson rule on [−40, 40 + μ].
func quadGaussianDelta(mu, eps float64) float64 {
	phi := func(x float64) float64 { return math.Exp(-x*x/2) / math.Sqrt(2*math.Pi) }
	f := func(x float64) float64 { return math.Max(0, phi(x)-math.Exp(eps)*phi(x-mu)) }
	a, b := -40.0, 40+mu
	n := int((b-a)/1e-3) &^ 1
	h := (b - a) / float64(n)
	s := f(a) + f(b)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		s += w * f(a+float64(i)*h)
	}
	return s * h / 3
}

func TestFTRLCounterBadInput(t *testing.T) {
	base := FTRLConfig{Set: Ball, Dim: 3, Horizon: 64, Epsilon: 1, Delta: 1e-5, Counter: counter.BLT, Noise: noise.Simulated}
	sigma, err := FTRLGaussianSigma(Ball, 3, 64, 1, 1e-5, counter.BLT)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		mod  func(*FTRLConfig)
		want string
	}{
		{"delta 1", func(c *FTRLConfig) { c.Delta = 1 }, "delta"},
		{"delta NaN", func(c *FTRLConfig) { c.Delta = math.NaN() }, "delta"},
		{"delta negative", func(c *FTRLConfig) { c.Delta = -0.1 }, "delta"},
		{"eps inf", func(c *FTRLConfig) { c.Epsilon = math.Inf(1) }, "finite"},
		{"eps 0", func(c *FTRLConfig) { c.Epsilon = 0 }, "eps"},
		{"lambda", func(c *FTRLConfig) { c.Lambda = 3 }, "lambda"},
		{"plain", func(c *FTRLConfig) { c.Plain = true }, "Plain"},
		{"sigma low", func(c *FTRLConfig) { c.Sigma = sigma * 0.999 }, "must be >="},
		{"sigma NaN", func(c *FTRLConfig) { c.Sigma = math.NaN() }, "sigma"},
		{"counter no delta", func(c *FTRLConfig) { c.Delta = 0 }, "needs delta"},
		{"unknown counter", func(c *FTRLConfig) { c.Counter = counter.Kind(99) }, "unknown counter"},
		{"sqrt too long", func(c *FTRLConfig) { c.Counter, c.Horizon = counter.Sqrt, counter.MaxSqrtHorizon+1 }, "horizon"},
	}
	for _, c := range cases {
		cfg := base
		c.mod(&cfg)
		_, err := NewFTRL(cfg, bandit.Stream(1, 1))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want one containing %q", c.name, err, c.want)
		}
	}
	f, err := NewFTRL(base, bandit.Stream(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	if f.Config().Sigma != sigma {
		t.Errorf("default sigma %v, want %v", f.Config().Sigma, sigma)
	}
	for _, l := range [][]float64{{3, 4, 0}, {math.NaN(), 0, 0}} {
		if err := f.Observe(l); err == nil {
			t.Errorf("loss %v accepted", l)
		}
	}
	if r := f.Counter().Rounds(); r != 0 {
		t.Errorf("rejected losses entered the counter: %d rounds", r)
	}
	g, err := NewFTRL(FTRLConfig{Set: Ball, Dim: 3, Horizon: 64, Epsilon: 1, Delta: 1e-5, Counter: counter.BLT, Sigma: 2 * sigma, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if err != nil || g.Config().Sigma != 2*sigma {
		t.Errorf("a larger sigma: %v, %v", g, err)
	}
}

// One seed reproduces the run, and a round allocates nothing.
func TestFTRLCounterReproducibleNoAlloc(t *testing.T) {
	run := func() []float64 {
		f, err := NewFTRL(FTRLConfig{Set: Simplex, Dim: 5, Horizon: 200, Epsilon: 1, Delta: 1e-5, Counter: counter.BLT, Noise: noise.Simulated}, bandit.Stream(3, 1))
		if err != nil {
			t.Fatal(err)
		}
		l := []float64{0.5, -1, 1, 0, 0.25}
		x := make([]float64, 5)
		for range 150 {
			if err := f.Observe(l); err != nil {
				t.Fatal(err)
			}
		}
		if a := testing.AllocsPerRun(20, func() {
			f.Predict(x)
			_ = f.Observe(l)
		}); a != 0 {
			t.Errorf("a round allocates %v times", a)
		}
		return f.Predict(nil)
	}
	a, b := run(), run()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed, different predictions: %v, %v", a, b)
		}
	}
}
