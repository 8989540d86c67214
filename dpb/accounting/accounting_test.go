package accounting

import (
	"math"
	"testing"
)

// gaussianHockeyStick is the numerical integration of GaussianDeltaQuad:
// independent of the closed form.
func gaussianHockeyStick(mu, eps float64) float64 { return GaussianDeltaQuad(mu, eps) }

func TestGDPDeltaMatchesIntegration(t *testing.T) {
	for _, mu := range []float64{0.05, 0.3, 1, 2.5} {
		for _, eps := range []float64{0, 0.1, 0.5, 1, 3} {
			got, want := GDPDelta(mu, eps), gaussianHockeyStick(mu, eps)
			if !(math.Abs(got-want) <= 1e-9+1e-7*want) {
				t.Errorf("GDPDelta(μ=%g, ε=%g) = %.12g, integration %.12g", mu, eps, got, want)
			}
		}
	}
}

func TestGaussianSigmaIsSmallest(t *testing.T) {
	for _, c := range []struct{ eps, delta, sens float64 }{
		{1, 1e-5, 1}, {0.1, 1e-6, 2}, {1, 0.1, 3}, {5, 1e-3, 1}, {0.5, 0.01, 0.7},
	} {
		s, err := GaussianSigma(c.eps, c.delta, c.sens)
		if err != nil {
			t.Fatal(err)
		}
		// Independent: the hockey-stick at ε by integration, at σ and just below.
		at := gaussianHockeyStick(c.sens/s, c.eps)
		below := gaussianHockeyStick(c.sens/(s*(1-1e-4)), c.eps)
		if !(math.Abs(at-c.delta) <= 1e-6*c.delta) {
			t.Errorf("%+v: σ=%g gives δ=%g by integration, want %g", c, s, at, c.delta)
		}
		if !(below > c.delta) {
			t.Errorf("%+v: σ·(1−1e−4) still gives δ=%g ≤ %g: σ is not the smallest", c, below, c.delta)
		}
		// The analytic σ is never above the classical √(2 ln(1.25/δ))Δ/ε (valid for ε < 1).
		if c.eps < 1 {
			if cl := math.Sqrt(2*math.Log(1.25/c.delta)) * c.sens / c.eps; !(s <= cl) {
				t.Errorf("%+v: analytic σ=%g above classical %g", c, s, cl)
			}
		}
		e, err := GaussianEpsilon(s, c.delta, c.sens)
		if err != nil {
			t.Fatal(err)
		}
		if !(math.Abs(e-c.eps) <= 1e-9*c.eps) {
			t.Errorf("%+v: GaussianEpsilon(σ)=%g, want %g", c, e, c.eps)
		}
	}
	if _, err := GaussianSigma(-1, 0.1, 1); err == nil {
		t.Error("negative ε accepted")
	}
	if _, err := GaussianSigma(1, 1, 1); err == nil {
		t.Error("δ = 1 accepted")
	}
	if _, err := GaussianSigma(1, 0.1, math.NaN()); err == nil {
		t.Error("NaN sensitivity accepted")
	}
}

// The SS18 Fig. 4 setting: d = 5, n = 5·10⁶ (m = 24), L̃² = 2,
// ε = 1, δ = 0.1. The printed σ_noise = 4√m L̃² ln(4/δ)/ε; a record enters m
// nodes with squared sensitivity ‖Δ‖_F²/2 ≤ L̃⁴ each (symmetrised noise), so
// μ² = m L̃⁴/σ². Exact accounting needs σ = √m L̃²/μ(1, 0.1).
func TestSS18GaussianCalibration(t *testing.T) {
	m, lt2, eps, delta := 24.0, 2.0, 1.0, 0.1
	printed := 4 * math.Sqrt(m) * lt2 * math.Log(4/delta) / eps
	s, err := GaussianSigma(eps, delta, math.Sqrt(m)*lt2)
	if err != nil {
		t.Fatal(err)
	}
	// Independent: the integrated hockey-stick at the calibrated μ.
	if got := gaussianHockeyStick(math.Sqrt(m)*lt2/s, eps); !(math.Abs(got-delta) <= 1e-6) {
		t.Errorf("calibrated σ=%g gives δ=%g", s, got)
	}
	t.Logf("σ printed %.4g, exact %.4g, ratio %.3g", printed, s, printed/s)
	if r := printed / s; !(r > 10 && r < 20) {
		t.Errorf("printed/exact σ ratio %g, want ≈ 13.6 (between 10 and 20)", r)
	}
}

func TestZCDP(t *testing.T) {
	for _, c := range []struct{ eps, delta float64 }{{1, 0.1}, {0.3, 1e-5}, {4, 1e-8}} {
		rho := ZCDPRho(c.eps, c.delta)
		if e := ZCDPToDP(rho, c.delta); !(math.Abs(e-c.eps) <= 1e-12*c.eps) {
			t.Errorf("ZCDPToDP(ZCDPRho(%g)) = %g", c.eps, e)
		}
		if e := ZCDPToDPTight(rho, c.delta); !(e <= c.eps) {
			t.Errorf("tight conversion %g above Bun–Steinke %g", e, c.eps)
		}
		// A Gaussian with this ρ is μ-GDP, μ = √(2ρ); exact ε is smaller still.
		if e := GDPEpsilon(math.Sqrt(2*rho), c.delta); !(e <= ZCDPToDPTight(rho, c.delta)) {
			t.Errorf("exact GDP ε %g above the zCDP conversion %g", e, ZCDPToDPTight(rho, c.delta))
		}
	}
	if r := GaussianRho(2, 1); r != 0.125 {
		t.Errorf("GaussianRho(σ=2, Δ=1) = %g, want 1/8", r)
	}
}

// laplaceRenyi integrates the Rényi divergence of order a of Lap(0,1)
// against Lap(ε₀,1) numerically.
func laplaceRenyi(a, eps0 float64) float64 {
	// p^a q^{1−a} in log space (q^{1−a} overflows alone for large a).
	f := func(x float64) float64 { return math.Exp(-a*math.Abs(x)-(1-a)*math.Abs(x-eps0)) / 2 }
	// Split at the kinks 0 and ε₀.
	s := simpson(f, -60, 0, 200000) + simpson(f, 0, eps0, 2000) + simpson(f, eps0, 60, 200000)
	return math.Log(s) / (a - 1)
}

func TestRDP(t *testing.T) {
	for _, a := range []float64{1.5, 2, 8, 32} {
		for _, e0 := range []float64{0.1, 1, 3} {
			if got, want := LaplaceRDP(a, e0), laplaceRenyi(a, e0); !(math.Abs(got-want) <= 1e-7*math.Max(1, want)) {
				t.Errorf("LaplaceRDP(a=%g, ε₀=%g) = %.10g, integration %.10g", a, e0, got, want)
			}
		}
	}
	// The RDP conversion of a Gaussian is an upper bound on its exact ε and equals the zCDP one.
	sigma := 3.0
	e := RDPToDP(func(a float64) float64 { return GaussianRDP(a, sigma, 1) }, 1e-5)
	if ex := GDPEpsilon(1/sigma, 1e-5); !(e >= ex && e <= 1.5*ex) {
		t.Errorf("RDP ε %g vs exact %g", e, ex)
	}
	if z := ZCDPToDPTight(GaussianRho(sigma, 1), 1e-5); !(math.Abs(z-e) <= 1e-12) {
		t.Errorf("RDP ε %g ≠ zCDP tight %g", e, z)
	}
}
