package audit

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/noise"
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
		r, err := Run(gaussianE2E(alg, e2eSetting, 2, noise.Simulated), Options{Trials: 3000, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Failed() {
			t.Errorf("%v at σ/2: verdict %s, ε lower %.3f; want a violation", alg, r.Verdict, r.Lower)
		}
	}
}

// TestE2EOffDiagonalPair: the off-diagonal pair ((e₁ ± e₂)/√2) reaches the
// same exact μ_s as the diagonal one, so its row is as tight: under-noised
// by 2 it must fail its claim (same argument and seed as
// TestE2EPlantedDefectCaught), as built it must not.
func TestE2EOffDiagonalPair(t *testing.T) {
	r, err := Run(gaussianE2EPair(ss18.GaussianExact, e2eSetting, 2, true, noise.Simulated), Options{Trials: 3000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Failed() {
		t.Errorf("off-diagonal pair at σ/2: verdict %s, ε lower %.3f; want a violation", r.Verdict, r.Lower)
	}
	r, err = Run(gaussianE2EOffDiag(ss18.GaussianExact, noise.Simulated), Options{Trials: 3000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if r.Failed() {
		t.Errorf("off-diagonal pair as built: verdict %s, ε lower %.3f above %g", r.Verdict, r.Lower, r.Epsilon)
	}
	t.Logf("as built: ε lower %.3f, estimate %.3f (claim %g)", r.Lower, r.Estimate, r.Epsilon)
}

// TestE2EWishartStatistic: the Wishart row's exact log-likelihood ratio
// catches a planted gross defect (user 1's data 36 times the bound L̃², a
// pair μ ≈ 2 against the claim's 0.92), while the tight k at the bound
// shows nothing (WishartTight's k is 108 times the k the claim needs) and
// its control, at the k whose privacy profile is the Gaussian rows' σ/2
// control's, is caught.
func TestE2EWishartStatistic(t *testing.T) {
	r, err := Run(wishartE2E(e2eSetting, 0, 36), Options{Trials: 4000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Failed() {
		t.Errorf("Wishart with data 36·L̃²: verdict %s, ε lower %.3f; want a violation", r.Verdict, r.Lower)
	}
	r, err = Run(wishartE2E(e2eSetting, 0, 1), Options{Trials: 2000, Short: true, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != "ok" || r.Lower != 0 || r.Control == nil || !r.Control.Caught {
		t.Errorf("WishartTight: verdict %s, ε lower %.3f, control %+v; want ok, 0, caught", r.Verdict, r.Lower, r.Control)
	}
}

// TestWishartKNeeded checks the exact-profile model behind the Wishart
// row's k_need against the regularizer itself: the row's trial function
// at k = k_need returns the exact log-likelihood ratio L of the released
// d×d blocks, and under D′ the mean of (1 − e^{ε−L})₊ over its runs is
// δ(ε) of that view, which the model gives with blocks of size p = d. Each
// estimate has standard error ≤ 0.5/√runs (0.0035 and 0.0016), so they
// differ by more than 0.02 (5 joint standard errors) with probability
// below 10⁻⁶; a wrong Schur-complement degree of freedom (k − p + 1 instead
// of k − p + 2) moves the model's δ(1) by about 0.02 at k = 16 and the
// exponent (k − p − 1)/2 by more. It also checks k_need is the smallest k
// at the claim: δ(k_need) ≤ 0.1 < δ(k_need − 1).
func TestWishartKNeeded(t *testing.T) {
	s := e2eSetting
	k := wishartKNeed(s, s.Delta)
	m := wishartE2ENodes(s.N)
	if m != 6 {
		t.Fatalf("%d released nodes hold user 1 at n = %d, want 6", m, s.N)
	}
	if dk, dk1 := wishartDelta(k, s.D+1, m, s.Epsilon, wishartNeedRuns, 1), wishartDelta(k-1, s.D+1, m, s.Epsilon, wishartNeedRuns, 1); !(dk <= s.Delta && dk1 > s.Delta) {
		t.Errorf("k_need = %d: δ(k) = %.4f, δ(k−1) = %.4f; want δ(k) ≤ %g < δ(k−1)", k, dk, dk1, s.Delta)
	}
	const runs = 20000
	trial := wishartE2E(s, k, 1).New()
	sum := 0.0
	for i := range runs {
		l := trial(bandit.Stream(7, uint64(i)), 1)
		if l > s.Epsilon {
			sum += -math.Expm1(s.Epsilon - l)
		}
	}
	got := sum / runs
	want := wishartDelta(k, s.D, m, s.Epsilon, wishartNeedRuns, 2)
	t.Logf("δ(%g) at k = %d: %.4f from the regularizer, %.4f from the model", s.Epsilon, k, got, want)
	if math.Abs(got-want) > 0.02 {
		t.Errorf("δ(%g) of the released blocks at k = %d: %.4f from the regularizer, %.4f from the model", s.Epsilon, k, got, want)
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
