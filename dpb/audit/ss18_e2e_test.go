package audit

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// TestE2EPlantedDefectCaught is the negative control of the end-to-end SS18
// rows, run as rows: each exactly calibrated Gaussian variant built for
// L̃²/2 (σ/2, the -short control) and fed data of norm L̃ must fail its
// own claim (VIOLATION). (TestShortAudit runs the variants as calibrated.)
// The runs are seeded, so the outcome is fixed; over seeds, the pair's true
// ε at σ/2 is ≥ 1.76 (μ_s ≥ 0.63·2 at δ = 0.1, the smooth counter's) while
// the 95 % lower bound from 1,500 evaluation runs lies within about 0.5 of
// its estimate, so a missed defect has probability below 10⁻³ per variant.
func TestE2EPlantedDefectCaught(t *testing.T) {
	for _, alg := range []ss18.Alg{ss18.GaussianExact, ss18.GaussianSmooth, ss18.GaussianBLTRound} {
		r, err := Run(gaussianE2E(alg, e2eSetting, 2), Options{Trials: 3000, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Failed() {
			t.Errorf("%v at σ/2: verdict %s, ε lower %.3f; want a violation", alg, r.Verdict, r.Lower)
		}
	}
}

// TestE2EWishartStatistic: the Wishart row's exact log-likelihood ratio
// catches a planted gross defect (user 1's data 36 times the bound L̃², a
// pair μ ≈ 2 against the claim's 0.92), while the tight k at the bound
// shows nothing (the pair's μ ≈ 0.06: WishartTight's k is far above what
// the claim needs, so k halved is no detectable defect and the row is
// "no power").
func TestE2EWishartStatistic(t *testing.T) {
	r, err := Run(wishartE2E(e2eSetting, 1, 36), Options{Trials: 4000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Failed() {
		t.Errorf("Wishart with data 36·L̃²: verdict %s, ε lower %.3f; want a violation", r.Verdict, r.Lower)
	}
	r, err = Run(wishartE2E(e2eSetting, 1, 1), Options{Trials: 2000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if r.Failed() || r.Verdict != "no power" || r.Control == nil || r.Control.Caught {
		t.Errorf("WishartTight: verdict %s, control %+v; want no power", r.Verdict, r.Control)
	}
}

// TestNoPowerVerdict: a row whose control is no defect at all (the same
// mechanism) is reported "no power", never "ok", and counted so; a control
// that changes the claim is an error.
func TestNoPowerVerdict(t *testing.T) {
	gauss := func(mu float64) func() func(*rand.Rand, int) float64 {
		return func() func(*rand.Rand, int) float64 {
			return func(rng *rand.Rand, which int) float64 { return rng.NormFloat64() + mu*float64(which) }
		}
	}
	m := &Mechanism{Name: "toy", Epsilon: 1, Delta: 0.1, Trials: 4000, New: gauss(0.5)}
	m.Control = func(bool) *Mechanism { return &Mechanism{Name: "toy-control", Epsilon: 1, Delta: 0.1, New: gauss(0.5)} }
	r, err := Run(m, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != "no power" || r.PowerShown() {
		t.Errorf("control without a defect: verdict %s, control %+v", r.Verdict, r.Control)
	}
	m.Control = func(bool) *Mechanism { return &Mechanism{Name: "toy-control", Epsilon: 1, Delta: 0.1, New: gauss(4)} }
	r2, err := Run(m, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r2.Verdict != "ok" || !r2.PowerShown() || !(r2.Control.OverClaim > 1) {
		t.Errorf("gross control: verdict %s, control %+v", r2.Verdict, r2.Control)
	}
	s := Results{r, r2}.Summary()
	if s.NoPower != 1 || s.PowerShown != 1 || s.WithControl != 2 {
		t.Errorf("summary %+v", s)
	}
	if !strings.Contains(Results{r}.Markdown(), "| NO | no power |") {
		t.Errorf("markdown does not show the uncaught control:\n%s", Results{r}.Markdown())
	}
	m.Control = func(bool) *Mechanism { return &Mechanism{Name: "toy-control", Epsilon: 2, Delta: 0.1, New: gauss(4)} }
	if _, err := Run(m, Options{Seed: 1}); err == nil {
		t.Error("a control with another claim was accepted")
	}
}
