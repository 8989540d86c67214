package check

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// TestIndependentCalibration: the check's own evaluations agree with the
// accountant and SS18's formulas at the paper's and the short setting, and
// the accounting rows pass with their controls caught.
func TestIndependentCalibration(t *testing.T) {
	short := ss18.Setting{D: 5, N: 128, Epsilon: 1, Delta: 0.1, Lt2: 2, Alpha: 1.0 / 128}
	for _, s := range []ss18.Setting{SS18PaperSetting, short} {
		if got, want := ss18Levels(s.N), s.Levels(); got != want {
			t.Errorf("n=%d: m = %d, ss18 %d", s.N, got, want)
		}
		if got, want := ss18PrintedSigma(s), s.GaussianSigma(); math.Abs(got-want) > 1e-12*want {
			t.Errorf("n=%d: σ = %v, ss18 %v", s.N, got, want)
		}
		if got, want := ss18PrintedWishartK(s), s.WishartK(); got != want {
			t.Errorf("n=%d: k = %d, ss18 %d", s.N, got, want)
		}
		vs, err := accountingRows(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			if !v.Pass || v.ControlCaught == nil || !*v.ControlCaught {
				t.Errorf("n=%d %s: %s, control %s (%s)", s.N, v.Name, v.Status(), v.ControlCell(), v.Note)
			}
		}
	}
	for _, c := range []struct{ m, eps0, d0, eps float64 }{{1, 0.5, 0, 0.2}, {27, 0.1, 1e-4, 1}, {8, 0.3, 1e-3, 0.5}} {
		got := kovCompositionDelta(int(c.m), c.eps0, c.d0, c.eps)
		want := accounting.KOVDelta(int(c.m), c.eps0, c.d0, c.eps)
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("KOV %v: %v, accounting %v", c, got, want)
		}
	}
	for _, mu := range []float64{0.1, 1, 3} {
		for _, eps := range []float64{0, 0.5, 2} {
			got, want := gaussProfileDelta(mu, eps), accounting.GaussianDeltaQuad(mu, eps)
			if math.Abs(got-want) > 1e-6*math.Max(want, 1e-6) {
				t.Errorf("Gaussian profile μ=%v ε=%v: %v, quadrature %v", mu, eps, got, want)
			}
		}
	}
}
