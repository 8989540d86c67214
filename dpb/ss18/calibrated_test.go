package ss18

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

func TestGaussianCounterCalibration(t *testing.T) {
	s := Setting{D: 5, N: 5000, Epsilon: 1, Delta: 0.1, Lt2: 2}
	printed := s.GaussianSigma()
	for _, kind := range counter.Kinds {
		c, err := GaussianCounterCalibration(s, kind)
		if err != nil {
			t.Fatal(err)
		}
		// The calibrated σ reaches exactly the target ε (exact GDP accounting).
		if e := c.Epsilon(s); !(math.Abs(e-s.Epsilon) <= 1e-9) {
			t.Errorf("%v: calibrated ε = %v, want %v", kind, e, s.Epsilon)
		}
		// Independently: μ² summed over the measurements a record touches,
		// Cost·L̃⁴/σ², and δ at ε by numerical integration of the
		// hockey-stick divergence (not the closed form the calibration inverts).
		mu := math.Sqrt(c.Cost.L2Sq) * s.Lt2 / c.Sigma
		if d := accounting.GaussianDeltaQuad(mu, s.Epsilon); !(math.Abs(d-s.Delta) <= 1e-6*s.Delta) {
			t.Errorf("%v: δ at ε is %v, want %v", kind, d, s.Delta)
		}
		if !(c.Sigma < printed) {
			t.Errorf("%v: calibrated σ %v not below the printed %v", kind, c.Sigma, printed)
		}
		b := c.Bounds
		if !(b.RhoMin == c.Upsilon && b.RhoMax == 3*c.Upsilon && b.Shift == 2*c.Upsilon && b.Gamma > 0) {
			t.Errorf("%v: bounds %+v for Υ = %v", kind, b, c.Upsilon)
		}
	}
	// On the padded tree the calibration is the printed formula's structure
	// with the sharp Υ at α/(4n): Υ = σ√(2m)(2√d + √(2 ln(4n/α))), α = 1/n.
	c, _ := GaussianCounterCalibration(s, counter.TreePadded)
	m := float64(s.Levels())
	want := c.Sigma * math.Sqrt(2*m) * (2*math.Sqrt(5) + math.Sqrt(2*math.Log(4*float64(s.N)*float64(s.N))))
	if !(math.Abs(c.Upsilon-want) <= 1e-9*want) {
		t.Errorf("padded Υ = %v, want %v", c.Upsilon, want)
	}
	if _, err := GaussianCounterCalibration(Setting{D: 5, N: 10, Epsilon: -1, Delta: 0.1, Lt2: 2}, counter.BLT); err == nil {
		t.Error("negative ε accepted")
	}
}

func TestWishartKTight(t *testing.T) {
	s := Setting{D: 5, N: 50000000, Epsilon: 1, Delta: 0.1, Lt2: 2}
	k, err := s.WishartKTight()
	if err != nil {
		t.Fatal(err)
	}
	if !(k > s.D+1 && k < s.WishartK()) {
		t.Errorf("tight k = %d, printed %d", k, s.WishartK())
	}
}

// TestNewSS18Variants builds every new variant in both release modes and
// runs it 50 rounds of the Appendix D environment without error (their
// bounds are checked per round in dpb/check).
func TestNewSS18Variants(t *testing.T) {
	s := Setting{D: 3, N: 200, Epsilon: 1, Delta: 0.1, Lt2: 2}
	for _, a := range []Alg{GaussianExact, GaussianHonaker, GaussianSmooth, GaussianSqrt, GaussianBLT, WishartTight, GaussianBLTSharp} {
		name := a.String()
		if b, err := ParseAlg(name); err != nil || b != a {
			t.Errorf("ParseSS18Alg(%q) = %v, %v", name, b, err)
		}
		for _, mode := range []counter.ReleaseMode{counter.Plain, counter.Padded} {
			p, err := NewPolicy(PolicyConfig{Alg: a, Setting: s, Mode: mode, Noise: noise.Simulated}, bandit.Stream(1, 2))
			if err != nil {
				t.Fatalf("%v: %v", a, err)
			}
			env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 3, K: 9, Gap: 0.1}, bandit.Stream(1, 3))
			if err != nil {
				t.Fatal(err)
			}
			r := bandit.NewRound(env)
			for t := 1; t <= 50; t++ {
				env.Next(r, t)
				p.Update(r, p.Choose(r), env.Reward(r, p.Choose(r)))
			}
			if err := p.Err(); err != nil {
				t.Errorf("%v: %v", a, err)
			}
		}
	}
	if _, err := NewPolicy(PolicyConfig{Alg: GaussianBLT, Setting: s, Shift: ShiftGiven, ShiftValue: 3, Noise: noise.Simulated}, bandit.Stream(1, 2)); err == nil {
		t.Error("a given shift accepted for a counter variant")
	}
}

func TestGaussianCounterCalibrationSharp(t *testing.T) {
	for _, n := range []int{1000, 100000} {
		s := Setting{D: 5, N: n, Epsilon: 1, Delta: 0.1, Lt2: 2}
		c0, err := GaussianCounterCalibration(s, counter.BLT)
		if err != nil {
			t.Fatal(err)
		}
		c, err := GaussianCounterCalibrationSharp(s, counter.BLT)
		if err != nil {
			t.Fatal(err)
		}
		// The same noise: σ, cost and μ, so the same (ε, δ).
		if c.Sigma != c0.Sigma || c.Cost != c0.Cost || c.Mu != c0.Mu || c.MaxVar != c0.MaxVar || !c.Sharp || c0.Sharp {
			t.Fatalf("sharp calibration changed the noise: %+v against %+v", c, c0)
		}
		nf, a, sd := float64(n), 1/float64(n), math.Sqrt(5)
		sv := c.Sigma * math.Sqrt(c.MaxVar)
		if want := sv * (2*sd + 2*math.Sqrt(math.Log(8*nf/a))); !(math.Abs(c.Upsilon-want) <= 1e-12*want) {
			t.Errorf("n=%d: Υ = %v, want %v", n, c.Upsilon, want)
		}
		b := c.Bounds
		g0 := sv * (sd + math.Sqrt(2*math.Log(4*nf/a)))
		if !(b.RhoMin > 0 && math.Abs(b.RhoMax-b.RhoMin-2*c.Upsilon) <= 1e-9*b.RhoMax &&
			math.Abs(b.Shift-b.RhoMin-c.Upsilon) <= 1e-9*b.Shift && math.Abs(b.Gamma*math.Sqrt(b.RhoMin)-g0) <= 1e-9*g0) {
			t.Errorf("n=%d: bounds %+v for Υ = %v, g₀ = %v", n, b, c.Upsilon, g0)
		}
		// ρ minimises β̄_n: 1% either way, and the paper's ρ = Υ, are no better.
		cp := ConfidenceParams{D: 5, Sigma: 1, S: 1, L: 1, Alpha: a}
		at := func(rho float64) float64 {
			return BetaBar(cp, RegBounds{RhoMin: rho, RhoMax: rho + 2*c.Upsilon, Gamma: g0 / math.Sqrt(rho)}, n)
		}
		best := BetaBar(cp, b, n)
		for _, rho := range []float64{b.RhoMin * 0.99, b.RhoMin * 1.01, c.Upsilon} {
			if !(best <= at(rho)) {
				t.Errorf("n=%d: β̄ = %v at ρ = %v, %v at ρ = %v", n, best, b.RhoMin, at(rho), rho)
			}
		}
		// And it is below the existing calibration's β̄_n.
		if old := BetaBar(cp, c0.Bounds, n); !(best < old) {
			t.Errorf("n=%d: sharp β̄ %v not below %v", n, best, old)
		}
	}
}

// TestSS18AlgJSON round-trips every variant through its text form (the
// figures' metadata) and rejects an unknown name.
func TestSS18AlgJSON(t *testing.T) {
	for a := NonPrivate; a <= GaussianBLTRound; a++ {
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		var back Alg
		if err := json.Unmarshal(b, &back); err != nil || back != a {
			t.Errorf("%s: back %v, %v", b, back, err)
		}
	}
	var x Alg
	if err := json.Unmarshal([]byte(`"Wishartt"`), &x); err == nil || !strings.Contains(err.Error(), "unknown SS18 algorithm") {
		t.Errorf("unknown name: %v", err)
	}
}
