package dpb

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/accounting"
)

func TestGaussianCounterCalibration(t *testing.T) {
	s := SS18Setting{D: 5, N: 5000, Epsilon: 1, Delta: 0.1, Lt2: 2}
	printed := s.GaussianSigma()
	for _, kind := range CounterKinds {
		c, err := GaussianCounterCalibration(s, kind)
		if err != nil {
			t.Fatal(err)
		}
		// The calibrated σ reaches exactly the target ε (exact GDP accounting).
		if e := c.Epsilon(s); !(math.Abs(e-s.Epsilon) <= 1e-9) {
			t.Errorf("%v: calibrated ε = %v, want %v", kind, e, s.Epsilon)
		}
		// Independently: μ² summed over the measurements a record touches,
		// Cost·L̃⁴/σ², against the (ε, δ) curve by accounting.GDPDelta.
		mu := math.Sqrt(c.Cost.L2Sq) * s.Lt2 / c.Sigma
		if d := accounting.GDPDelta(mu, s.Epsilon); !(math.Abs(d-s.Delta) <= 1e-9) {
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
	// with the sharp Υ: Υ = σ√(2m)(2√d + √(2 ln(2n/α))).
	c, _ := GaussianCounterCalibration(s, CounterTreePadded)
	m := float64(s.Levels())
	want := c.Sigma * math.Sqrt(2*m) * (2*math.Sqrt(5) + math.Sqrt(2*math.Log(2*float64(s.N)*float64(s.N))))
	if !(math.Abs(c.Upsilon-want) <= 1e-9*want) {
		t.Errorf("padded Υ = %v, want %v", c.Upsilon, want)
	}
	if _, err := GaussianCounterCalibration(SS18Setting{D: 5, N: 10, Epsilon: -1, Delta: 0.1, Lt2: 2}, CounterBLT); err == nil {
		t.Error("negative ε accepted")
	}
}

func TestWishartKTight(t *testing.T) {
	s := SS18Setting{D: 5, N: 50000000, Epsilon: 1, Delta: 0.1, Lt2: 2}
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
	s := SS18Setting{D: 3, N: 200, Epsilon: 1, Delta: 0.1, Lt2: 2}
	for _, a := range []SS18Alg{SS18GaussianExact, SS18GaussianHonaker, SS18GaussianSmooth, SS18GaussianSqrt, SS18GaussianBLT, SS18WishartTight} {
		name := a.String()
		if b, err := ParseSS18Alg(name); err != nil || b != a {
			t.Errorf("ParseSS18Alg(%q) = %v, %v", name, b, err)
		}
		for _, mode := range []ReleaseMode{Plain, Padded} {
			p, err := NewSS18Policy(SS18PolicyConfig{Alg: a, Setting: s, Mode: mode}, Stream(1, 2))
			if err != nil {
				t.Fatalf("%v: %v", a, err)
			}
			env, err := NewLinearEnv(LinearEnvConfig{Dim: 3, K: 9, Gap: 0.1}, Stream(1, 3))
			if err != nil {
				t.Fatal(err)
			}
			r := NewRound(env)
			for t := 1; t <= 50; t++ {
				env.Next(r, t)
				p.Update(r, p.Choose(r), env.Reward(r, p.Choose(r)))
			}
			if err := p.Err(); err != nil {
				t.Errorf("%v: %v", a, err)
			}
		}
	}
	if _, err := NewSS18Policy(SS18PolicyConfig{Alg: SS18GaussianBLT, Setting: s, Shift: ShiftGiven, ShiftValue: 3}, Stream(1, 2)); err == nil {
		t.Error("a given shift accepted for a counter variant")
	}
}
