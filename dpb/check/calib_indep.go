package check

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// Independent evaluations of what the accountant (dpb/accounting) and SS18's
// calibration (dpb/ss18) claim, written here from the papers' formulas and
// sharing no code with them: a defect in the calibrating function (a δ
// ×0.9, a conversion missing a factor, a printed σ or k scaled) then shows
// as a disagreement, where a row that recomputes the calibration with the
// same functions agrees with any error in them.

// ss18Levels is m = 1 + ⌈log₂ n⌉, the number of tree nodes a round enters
// (SS18 §4; the authors' PanPrivTreeStrategy), by counting.
func ss18Levels(n int) int {
	m := 1
	for 1<<(m-1) < n {
		m++
	}
	return m
}

// ss18PrintedSigma is σ_noise of SS18 §4.2 as printed, σ²_noise = 16 m L̃⁴
// ln(4/δ)²/ε², from the setting's ε, δ, L̃² and m.
func ss18PrintedSigma(s ss18.Setting) float64 {
	m := float64(ss18Levels(s.N))
	return math.Sqrt(16*m) * s.Lt2 * math.Log(4/s.Delta) / s.Epsilon
}

// ss18PrintedWishartK is k of SS18 §4.1 as printed, k = d + 1 + ⌈224 m ε⁻²
// ln(8m/δ) ln(2/δ)⌉.
func ss18PrintedWishartK(s ss18.Setting) int {
	m := float64(ss18Levels(s.N))
	x := 224 * m * math.Log(8*m/s.Delta) * math.Log(2/s.Delta) / (s.Epsilon * s.Epsilon)
	return s.D + 1 + int(math.Ceil(x))
}

// phi is the standard normal CDF.
func phi(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// gaussProfileDelta is the exact privacy profile of the Gaussian mechanism
// of sensitivity over σ = μ (Balle & Wang 2018, Thm 8):
//
//	δ(ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ).
func gaussProfileDelta(mu, eps float64) float64 {
	return phi(mu/2-eps/mu) - float64(math.Exp(eps)*phi(-mu/2-eps/mu))
}

// kovCompositionDelta is the δ at ε of the m-fold composition of (ε₀,
// δ₀)-DP mechanisms by the optimal composition theorem (Kairouz, Oh &
// Viswanath 2015, Thm 3.3; all ε: Murtagh & Vadhan 2016, Thm 1.5), written
// as the privacy-loss distribution of m randomized responses: under P the
// loss of one response is +ε₀ with probability p = e^{ε₀}/(1 + e^{ε₀}) and
// −ε₀ otherwise, so the m-fold loss is (m − 2l)ε₀ with the binomial
// probability of l, and
//
//	δ_RR = E_P[(1 − e^{ε − L})₊],   δ = 1 − (1 − δ₀)^m (1 − δ_RR).
//
// The binomial weights come from the ratio recurrence in log space.
func kovCompositionDelta(m int, eps0, delta0, eps float64) float64 {
	logp := -math.Log1p(math.Exp(-eps0)) // ln p
	logw := float64(m) * logp            // ln P(l = 0)
	var rr float64
	for l := 0; l <= m; l++ {
		loss := float64(float64(m-2*l) * eps0)
		if loss > eps {
			rr += float64(math.Exp(logw) * -math.Expm1(eps-loss))
		}
		// P(l+1)/P(l) = (m−l)/(l+1) · (1−p)/p, (1−p)/p = e^{−ε₀}.
		logw += math.Log(float64(m-l)/float64(l+1)) - eps0
	}
	keep := math.Exp(float64(m) * math.Log1p(-delta0)) // (1 − δ₀)^m
	return 1 - float64(keep*(1-rr))
}

// sheffetEps0 is the ε₀ at which SS18 Theorem 8 (Sheffet 2015) makes one
// Wishart node W_{d+1}(L̃²I, k) (ε₀, δ₀)-DP: k = d + 1 + 28 ε₀⁻² ln(4/δ₀)
// solved for ε₀.
func sheffetEps0(k, d int, delta0 float64) float64 {
	return math.Sqrt(28 * math.Log(4/delta0) / float64(k-d-1))
}

// accountingRows are the rows that hold the accountant to independent
// evaluations at the setting s (exact computations, Trials 0):
//
//   - "accounting-zcdp-to-dp": [accounting.ZCDPToDP] claims that ρ-zCDP
//     implies (ε, δ)-DP at the ε it returns (Bun & Steinke 2016, Prop. 1.3).
//     The Gaussian mechanism with μ = √(2ρ) is exactly ρ-zCDP, so its exact
//     profile (gaussProfileDelta) at the returned ε must be ≤ δ, on a grid
//     of (ρ, δ) and at the ε SS18's Gaussian tree reports
//     ([ss18.Setting.GaussianEpsilonZCDP]). Control: the conversion without
//     its factor 2, ε = ρ + √(ρ ln(1/δ)), in the same evaluation.
//   - "accounting-kov-wishart": the calibrated tight Wishart k
//     ([ss18.Setting.WishartKTight], [accounting.WishartKOV]) with the
//     accountant's per-node δ₀ is (ε, δ)-DP by Theorem 8 (sheffetEps0) and
//     the optimal composition evaluated here (kovCompositionDelta), and the
//     accountant's own δ ([accounting.WishartK].Delta, from
//     [accounting.KOVDelta]) agrees with it to 10⁻⁹. Control: k − 1 degrees
//     of freedom (the smallest defect of the calibrated k) in the same
//     evaluation, which must exceed δ: k is the smallest that reaches it.
func accountingRows(s ss18.Setting) (Verdicts, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	// ZCDPToDP.
	type pt struct{ rho, delta, eps float64 }
	var pts []pt
	for _, rho := range []float64{1e-3, 1e-2, 0.1, 1, 10} {
		for _, delta := range []float64{0.1, 1e-5, 1e-10} {
			pts = append(pts, pt{rho, delta, accounting.ZCDPToDP(rho, delta)})
		}
	}
	pts = append(pts, pt{s.GaussianZCDPRho(), s.Delta, s.GaussianEpsilonZCDP()})
	worst, cworst := 0.0, 0.0
	var wp pt
	for _, p := range pts {
		mu := math.Sqrt(2 * p.rho)
		if r := gaussProfileDelta(mu, p.eps) / p.delta; r > worst {
			worst, wp = r, p
		}
		ce := p.rho + math.Sqrt(p.rho*math.Log(1/p.delta))
		cworst = math.Max(cworst, gaussProfileDelta(mu, ce)/p.delta)
	}
	zv := NewVerdict("accounting-zcdp-to-dp",
		fmt.Sprintf("accounting.ZCDPToDP: ρ-zCDP ⇒ (ε, δ)-DP at the ε it returns; the exactly ρ-zCDP Gaussian mechanism (μ = √(2ρ)) has δ(ε) ≤ δ on %d points (ρ 10⁻³…10, δ 0.1…10⁻¹⁰, and SS18's Gaussian tree at ε_zCDP = %.4g)", len(pts), s.GaussianEpsilonZCDP()),
		"Bun & Steinke 2016, Prop. 1.3; Balle & Wang 2018, Thm 8 (evaluated in the check)", 0, 0,
		boolFail(worst <= 1+1e-9), worst,
		fmt.Sprintf("largest δ(ε)/δ = %.4g at ρ = %g, δ = %g (ε = %.4g)", worst, wp.rho, wp.delta, wp.eps))
	zv.Kind = KindArithmetic
	zv = withControl(zv, NewVerdict("control", "", "", 0, 0, boolFail(cworst <= 1+1e-9), cworst, ""), "the conversion without its factor 2, ε = ρ + √(ρ ln(1/δ))")
	vs := Verdicts{zv}

	// The tight Wishart k.
	k, err := s.WishartKTight()
	if err != nil {
		return nil, err
	}
	m := ss18Levels(s.N)
	w, err := accounting.WishartKOV(s.D, s.Levels(), s.Epsilon, s.Delta)
	if err != nil {
		return nil, err
	}
	delta := kovCompositionDelta(m, sheffetEps0(k, s.D, w.Delta0), w.Delta0, s.Epsilon)
	agree := math.Abs(w.Delta-delta) <= 1e-9*delta
	kv := NewVerdict("accounting-kov-wishart",
		fmt.Sprintf("the calibrated Wishart k = %d (δ₀ = %.4g per node, m = %d nodes) is (ε=%g, δ=%g)-DP by Thm 8 and the optimal composition evaluated in the check, and the accountant's δ agrees", k, w.Delta0, m, s.Epsilon, s.Delta),
		"SS18 Thm 8 (Sheffet 2015); Kairouz, Oh & Viswanath 2015, Thm 3.3; Murtagh & Vadhan 2016, Thm 1.5", 0, 0,
		boolFail(delta <= s.Delta*(1+1e-12) && agree), delta/s.Delta,
		fmt.Sprintf("δ here %.9g, the accountant's %.9g (relative difference %.2g)", delta, w.Delta, math.Abs(w.Delta-delta)/delta))
	kv.Kind = KindArithmetic
	cd := kovCompositionDelta(m, sheffetEps0(k-1, s.D, w.Delta0), w.Delta0, s.Epsilon)
	kv = withControl(kv, NewVerdict("control", "", "", 0, 0, boolFail(cd <= s.Delta*(1+1e-12)), cd/s.Delta, ""), "k − 1 degrees of freedom")
	return append(vs, kv), nil
}

// The printed constants the learner-definition rows compare the built
// learners with (issue 51): transcribed here from the papers, sharing no
// code with dpb/ss18, dpb/mt14 or dpb/as17, so a defect in the function a
// learner calls (a constant halved) shows as a disagreement with the built
// object. Logarithms are natural, as in those packages' readings.

// ss18PrintedUpsilon is Υ of SS18 §4.2 (Proposition 11) as printed,
// Υ = σ_noise √(2m) (4√d + 2 ln(2n/α)), α = 1/n unless the setting gives
// one (SS18 Appendix D), σ_noise by ss18PrintedSigma. The Gaussian tree's
// H_t is the summed node noise plus 2Υ I.
func ss18PrintedUpsilon(s ss18.Setting) float64 {
	alpha := s.Alpha
	if alpha == 0 {
		alpha = 1 / float64(s.N)
	}
	m := float64(ss18Levels(s.N))
	return ss18PrintedSigma(s) * math.Sqrt(2*m) * (float64(4*math.Sqrt(float64(s.D))) + float64(2*math.Log(2*float64(s.N)/alpha)))
}

// mt14PrintedGamma is the confidence relaxation of MT14 Algorithm 1, line 7,
// Γ = k log²T log(k T log T / γ) / ε (the extraction's "/Γ" read as /ε, as
// Theorem 4's regret shows), for k arms, horizon T, privacy ε and failure
// probability γ.
func mt14PrintedGamma(k, T int, eps, gamma float64) float64 {
	lt := math.Log(float64(T))
	return float64(k) * lt * lt * math.Log(float64(k)*float64(T)*lt/gamma) / eps
}

// as17PrintedExp2 is η and γ of AS17 Theorem 4.1 (private EXP2, Algorithms
// 4 and 5) as printed, with λ = 1/ε (Lemma 4.2, B = 1):
// η = √(log N / (2NT(1 + 2λ² log NT))), γ = ηN √(1 + 2λ² log NT).
func as17PrintedExp2(arms, T int, eps float64) (eta, gamma float64) {
	n, t, lam := float64(arms), float64(T), 1/eps
	c := 1 + 2*lam*lam*math.Log(n*t)
	eta = math.Sqrt(math.Log(n) / (2 * n * t * c))
	return eta, eta * n * math.Sqrt(c)
}
