package audit

import (
	"math"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// TestLeverE2EMu checks the model behind the lever rows' Neyman–Pearson
// test against the calibration, exactly (1e-9 relative): the counter's
// noise matrix B gives a_sᵀ(BBᵀ)⁻¹a_s = Cost.L2Sq at round 1 (the zero
// item's: B is invertible, so the releases show all of C's column), and
// the worst pair's exact μ from the packed entries' Δ/var
// ([splitWeights]) is levers.go's √(q·f)/σ_V with f from
// [ss18.SplitFactor] — the calibrated μ at q = Cost.L2Sq. A wrong entry
// variance in the model (√2σ_V off the diagonal, or σ_V on u) or a wrong
// worst pair moves μ by far more. The u and v pairs lie below the worst,
// and no row's pair exceeds the calibrated μ (a "calibration bug" note).
func TestLeverE2EMu(t *testing.T) {
	for _, alg := range ss18.NoiseLeverAlgs {
		cal, _ := leverBuild(alg, 1, noise.Simulated)
		cfg := counter.Config{Kind: counter.BLT, Horizon: e2eSetting.N}
		if cal.Beta != 0.5 {
			cfg.Omega, cfg.Lambda, _ = counter.BLTParamsBeta(e2eSetting.N, cal.Beta)
		}
		_, _, sq1 := pairWeightsFrom(noiseMatrixOf(cfg), 1, 1)
		if l2 := sq1 * sq1; math.Abs(l2-cal.Cost.L2Sq) > 1e-9*cal.Cost.L2Sq {
			t.Errorf("%v: a_1ᵀ(BBᵀ)⁻¹a_1 = %.12g, Cost.L2Sq = %.12g", alg, l2, cal.Cost.L2Sq)
		}
		_, _, q := leverNoiseMatrix(cal)
		worst := math.Sqrt(q/cal.Cost.L2Sq) * cal.Mu
		if !(worst < cal.Mu) {
			t.Errorf("%v: worst pair's μ %.6g not below the calibrated %.6g", alg, worst, cal.Mu)
		}
		pairs := splitPairs
		xb, yb := leverBound, leverBound
		if !cal.Levers.Split {
			pairs, xb, yb = []splitPair{splitPairV}, math.Sqrt(e2eSetting.Lt2), 0
		}
		for _, p := range pairs {
			x, y, x2, y2 := splitRecords(p, e2eSetting.D, xb, yb, cal.Ratio)
			_, _, m2 := splitWeights(x, y, x2, y2, cal.Sigma, cal.SigmaU)
			mu := math.Sqrt(q * m2)
			if cal.Levers.Split && p == splitPairWorst || !cal.Levers.Split {
				want := math.Sqrt(q) * e2eSetting.Lt2 / cal.Sigma // unsplit: μ = √q·L̃²/σ
				if cal.Levers.Split {
					want = math.Sqrt(q) * ss18.SplitFactor(xb, yb, cal.Ratio) / cal.Sigma
				}
				if math.Abs(mu-want) > 1e-9*want || math.Abs(mu-worst) > 1e-9*worst {
					t.Errorf("%v, pair %v: exact μ %.12g, levers.go's %.12g, worst %.12g", alg, p, mu, want, worst)
				}
			} else if !(mu < worst*(1-1e-3)) {
				t.Errorf("%v, pair %v: μ %.6g not below the worst pair's %.6g", alg, p, mu, worst)
			}
			if m := leverE2E(alg, p, 1, noise.Simulated); alg != ss18.GaussianLevers || p == splitPairWorst {
				if strings.Contains(m.Note, "calibration bug") {
					t.Errorf("%s: %s", m.Name, m.Note)
				}
			}
		}
	}
}

// TestLeverE2EPlantedDefectCaught: each lever row built for a bound 2
// times too small (σ_V and σ_u, or σ, about halved: the -short control)
// and fed the pair at the row's bounds must fail its claim (VIOLATION).
// (TestShortAudit runs the rows as built.) The runs are seeded, so the
// outcome is fixed; over seeds, the pairs' true ε at about σ/2 is 1.9 (the
// v pair, μ ≈ 2·0.66 at δ = 0.1) to 3.3 (the worst pairs), while the 95 %
// lower bound from 1,500 evaluation runs lies within about 0.5 of its
// estimate, so a missed defect has probability below 10⁻³ per row.
func TestLeverE2EPlantedDefectCaught(t *testing.T) {
	for _, m := range leverAudits() {
		alg, p := leverRowOf(t, m.Name)
		r, err := Run(leverE2E(alg, p, 2, noise.Simulated), Options{Trials: 3000, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Failed() {
			t.Errorf("%s at σ/2: verdict %s, ε lower %.3f; want a violation", m.Name, r.Verdict, r.Lower)
		}
		t.Logf("%s at σ/2: ε lower %.3f (true ε of the pair %.3f)", m.Name, r.Lower, accounting.GDPEpsilon(2*leverPairMu(alg, p), e2eSetting.Delta))
	}
}

// leverRowOf returns the variant and pair of a lever row's name.
func leverRowOf(t *testing.T, name string) (ss18.Alg, splitPair) {
	t.Helper()
	for _, a := range ss18.NoiseLeverAlgs {
		for _, p := range splitPairs {
			ok := a != ss18.GaussianToeplitz || p == splitPairV
			if ok && leverName(a, p) == name {
				return a, p
			}
		}
	}
	t.Fatalf("%s: not a lever row", name)
	return 0, 0
}

// leverPairMu is the exact μ of a lever row's pair as calibrated.
func leverPairMu(alg ss18.Alg, p splitPair) float64 {
	cal, _ := leverBuild(alg, 1, noise.Simulated)
	_, _, q := leverNoiseMatrix(cal)
	xb, yb := leverBound, leverBound
	if !cal.Levers.Split {
		xb, yb = math.Sqrt(e2eSetting.Lt2), 0
	}
	x, y, x2, y2 := splitRecords(p, e2eSetting.D, xb, yb, cal.Ratio)
	_, _, m2 := splitWeights(x, y, x2, y2, cal.Sigma, cal.SigmaU)
	return math.Sqrt(q * m2)
}

// TestLeverAuditsCoverVariants: every noise-lever variant (ss18.NoiseLeverAlgs; the
// released shift is post-processing, audited through its twin) has
// an end-to-end row on its worst pair, and GaussianSplit one on each pair;
// a variant added to NoiseLeverAlgs without a row fails here.
func TestLeverAuditsCoverVariants(t *testing.T) {
	rows := map[string]bool{}
	for _, m := range leverAudits() {
		rows[m.Name] = true
	}
	var want []string
	for _, p := range splitPairs {
		want = append(want, leverName(ss18.GaussianSplit, p))
	}
	for _, a := range ss18.NoiseLeverAlgs {
		p := splitPairV // the BLT row's pair: the worst without the split
		if lv, _ := a.Levers(); lv.Split {
			p = splitPairWorst
		}
		want = append(want, leverName(a, p)) // panics for a variant leverName does not know
	}
	for _, n := range want {
		if !rows[n] {
			t.Errorf("%s: no such lever row", n)
		}
	}
	if len(rows) != len(leverAudits()) {
		t.Errorf("lever rows with the same name: %v", rows)
	}
	// On the secure sampler: each variant on its worst pair.
	sec := map[string]bool{}
	for _, m := range leverSecureAudits(noise.SecureSeeded) {
		sec[m.Name] = true
	}
	for _, a := range ss18.NoiseLeverAlgs {
		p := splitPairV
		if lv, _ := a.Levers(); lv.Split {
			p = splitPairWorst
		}
		if n := leverName(a, p) + "-secure"; !sec[n] {
			t.Errorf("%s: no such secure lever row", n)
		}
	}
}
