package ss18fig

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"gonum.org/v1/gonum/stat/distuv"
)

// chiSquareRounds checks each round's mean square error of r against the
// variance the test computes on its own, σ_ref² VarianceAt(t) with σ_ref =
// √Cost.L2Sq / μ(ε, δ): the coordinates are independent runs with Gaussian
// noise, so reps·MS_t / (σ_ref² V_t) is exactly χ²(reps) at every round.
// Each round is tested two-sided at level alpha; it returns the rounds
// outside and the largest and smallest ratio MS_t / (σ_ref² V_t).
func chiSquareRounds(t *testing.T, r *CounterErrorResult, alpha float64) (bad int, lo, hi float64) {
	t.Helper()
	cfg := r.Config
	p, err := counter.ProfileOf(cfg.Kind, cfg.Horizon)
	if err != nil {
		t.Fatal(err)
	}
	sigma := math.Sqrt(p.Cost.L2Sq) / accounting.GDPMu(cfg.Epsilon, cfg.Delta)
	probe, err := counter.New(counter.Config{Kind: cfg.Kind, Dim: 1, Horizon: cfg.Horizon, Noise: noise.ZeroNoise{N: 1}})
	if err != nil {
		t.Fatal(err)
	}
	chi := distuv.ChiSquared{K: float64(cfg.Reps)}
	qlo, qhi := chi.Quantile(alpha/2)/float64(cfg.Reps), chi.Quantile(1-alpha/2)/float64(cfg.Reps)
	lo, hi = math.Inf(1), math.Inf(-1)
	for i, ms := range r.MeanSquare {
		ratio := ms / (sigma * sigma * probe.VarianceAt(i+1))
		lo, hi = min(lo, ratio), max(hi, ratio)
		if ratio < qlo || ratio > qhi {
			bad++
		}
	}
	return bad, lo, hi
}

// The measured error of every counter agrees round by round with the
// variance of its exactly calibrated noise, and a σ off by 10 % either way
// (under-noise is the privacy defect) is caught by the same check.
//
// False-failure probability: 7 counters × 64 rounds = 448 two-sided χ²(4096)
// tests at level 1e-6/448 each, so at most 1e-6 for the passing half by the
// union bound (the rounds of one counter are correlated; the bound does not
// need independence). The planted halves need power: at σ × 1.1 (0.9) the
// ratio's mean is 1.21 (0.81), 9.5 (8.6) of its standard deviations
// √(2/4096) = 0.022 from 1 where the acceptance band ends 6.1 deviations out,
// so a round escapes detection with probability below 1e-3 and the check
// fails on nearly all 64.
func TestCounterErrorMatchesCalibration(t *testing.T) {
	const n, reps = 64, 4096
	alpha := 1e-6 / float64(len(counter.Kinds)*n)
	for _, k := range counter.Kinds {
		cfg := CounterErrorConfig{Kind: k, Epsilon: 1, Delta: 1e-5, Horizon: n, Reps: reps, Seed: 11}
		r, err := CounterError(cfg)
		if err != nil {
			t.Fatal(err)
		}
		bad, lo, hi := chiSquareRounds(t, r, alpha)
		if bad > 0 {
			t.Errorf("%v: %d of %d rounds' mean square error outside the χ² band (ratio to the calibrated variance in [%.3f, %.3f])", k, bad, n, lo, hi)
		}
		// The predicted series is σ_ref √V_t with the test's own σ_ref.
		p, _ := counter.ProfileOf(k, n)
		sigma := math.Sqrt(p.Cost.L2Sq) / accounting.GDPMu(1, 1e-5)
		if math.Abs(r.Sigma-sigma) > 1e-12*sigma {
			t.Errorf("%v: σ = %v, want √L2Sq/μ = %v", k, r.Sigma, sigma)
		}
		for _, f := range []float64{1.1, 0.9} {
			planted := cfg
			planted.sigmaFactor = f
			rp, err := CounterError(planted)
			if err != nil {
				t.Fatal(err)
			}
			if bad, lo, hi := chiSquareRounds(t, rp, alpha); bad < n/2 {
				t.Errorf("%v with σ × %g (planted): only %d of %d rounds caught (ratio in [%.3f, %.3f])", k, f, bad, n, lo, hi)
			}
		}
	}
}

// One seed reproduces a run bit for bit; the seed, ε and the counter each
// change it, and ε scales the predicted curve by σ(ε₁)/σ(ε₂) exactly.
func TestCounterErrorSeeded(t *testing.T) {
	cfg := CounterErrorConfig{Kind: counter.Honaker, Epsilon: 0.5, Horizon: 128, Reps: 16, Seed: 3}
	a, err := CounterError(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := CounterError(cfg)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same config gave two results")
	}
	if a.Config.Delta != CounterErrorDelta || len(a.Curves.X) != 128 || a.Curves.Reps != 16 {
		t.Errorf("defaults or sizes: %+v, %d points", a.Config, len(a.Curves.X))
	}
	for what, c := range map[string]CounterErrorConfig{
		"seed":    {Kind: counter.Honaker, Epsilon: 0.5, Horizon: 128, Reps: 16, Seed: 4},
		"epsilon": {Kind: counter.Honaker, Epsilon: 2, Horizon: 128, Reps: 16, Seed: 3},
		"counter": {Kind: counter.BLT, Epsilon: 0.5, Horizon: 128, Reps: 16, Seed: 3},
	} {
		o, err := CounterError(c)
		if err != nil {
			t.Fatal(err)
		}
		if reflect.DeepEqual(a.Curves.Mean[0], o.Curves.Mean[0]) {
			t.Errorf("changing the %s left the measured curve unchanged", what)
		}
		if what == "epsilon" {
			s := a.Sigma / o.Sigma
			for i := range a.Curves.X {
				if got := a.Curves.Mean[1][i] / o.Curves.Mean[1][i]; math.Abs(got-s) > 1e-12*s {
					t.Fatalf("round %d: predicted ratio %v, want σ ratio %v", i+1, got, s)
				}
			}
			if s <= 1 {
				t.Errorf("σ at ε = 0.5 over σ at ε = 2 is %v, want > 1", s)
			}
		}
	}
	if !strings.Contains(a.Title(), "honaker") || !strings.Contains(a.Title(), "ε = 0.5") {
		t.Errorf("title %q", a.Title())
	}
}

func TestCounterErrorValidates(t *testing.T) {
	ok := CounterErrorConfig{Kind: counter.Tree, Epsilon: 1, Horizon: 16, Reps: 4}
	if _, err := CounterError(ok); err != nil {
		t.Fatal(err)
	}
	for name, mod := range map[string]func(*CounterErrorConfig){
		"kind":        func(c *CounterErrorConfig) { c.Kind = counter.Kind(99) },
		"eps 0":       func(c *CounterErrorConfig) { c.Epsilon = 0 },
		"eps NaN":     func(c *CounterErrorConfig) { c.Epsilon = math.NaN() },
		"eps Inf":     func(c *CounterErrorConfig) { c.Epsilon = math.Inf(1) },
		"delta 1":     func(c *CounterErrorConfig) { c.Delta = 1 },
		"delta NaN":   func(c *CounterErrorConfig) { c.Delta = math.NaN() },
		"delta < 0":   func(c *CounterErrorConfig) { c.Delta = -0.1 },
		"horizon":     func(c *CounterErrorConfig) { c.Horizon = -1 },
		"reps 1":      func(c *CounterErrorConfig) { c.Reps = 1 },
		"work limit":  func(c *CounterErrorConfig) { c.Horizon, c.Reps = 1<<15, 64 },
		"reps < 0":    func(c *CounterErrorConfig) { c.Reps = -3 },
		"eps < 0":     func(c *CounterErrorConfig) { c.Epsilon = -1 },
		"horizon max": func(c *CounterErrorConfig) { c.Horizon = math.MaxInt },
	} {
		c := ok
		mod(&c)
		if _, err := CounterError(c); err == nil {
			t.Errorf("%s: no error for %+v", name, c)
		} else if !strings.HasPrefix(err.Error(), "ss18fig: counter error: ") {
			t.Errorf("%s: error %q does not say where it comes from", name, err)
		}
	}
}
