package as17

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
)

// The privacy reports of AS17's learners: what ε (and δ) their noise
// actually certifies under Definition 2.1's neighbours (one round's loss
// vector replaced), which is not always the configured ε when a scale is
// set by hand or printed differently.

// Privacy reports DP-FTRL's ε (AS17 Theorem 3.1 / Lemma 3.3): a loss enters
// m = 1 + ⌈log₂ T⌉ tree nodes and moves each node sum by at most 2‖𝒴‖₁ in
// ℓ1 (replacement), so Lap^N(λ) per node gives ε = 2‖𝒴‖₁·m/λ (Laplace
// mechanism, basic composition over the m nodes). With the default λ
// ([FTRLLambda]) this is the configured ε; with the printed λ
// ([FTRLLambdaPrinted]) it is larger, and the report says so.
func (f *FTRL) Privacy() bandit.Privacy {
	c := f.cfg
	if math.IsInf(c.Epsilon, 1) {
		return bandit.NonPrivate("DP-FTRL with ε = +Inf (exact prefix sums)")
	}
	if c.Delta > 0 {
		// The (ε, δ) variant on a counter with Gaussian node noise.
		cost := f.lead.ctr.Cost()
		sens2 := 2 * c.Set.YNorm2(c.Dim)
		mu := sens2 * math.Sqrt(cost.L2Sq) / c.Sigma
		p := bandit.Privacy{Private: true, Epsilon: accounting.GDPEpsilon(mu, c.Delta), Delta: c.Delta, Noise: c.Noise.String(), Accounting: fmt.Sprintf(
			"DP-FTRL on the %v counter with N(0, σ² I) node noise, σ = %.4g: a replaced loss moves the measurements by 2‖𝒴‖₂ = %g in ℓ2 with ‖C_·s‖² = %g, μ-GDP with μ = %.4g (Dong, Roth & Su 2022), exact (ε, δ) at δ = %g (configured ε = %g)",
			c.Counter, c.Sigma, sens2, cost.L2Sq, mu, c.Delta, c.Epsilon)}
		// On secure noise the exact continuous curve is not what the proof
		// gives: the discrete Gaussian's own bound (counter.DiscreteEpsilon).
		if eps, ok, err := counter.DiscreteEpsilon(f.lead.ctr, mu, c.Delta); err != nil {
			p.Epsilon = math.Inf(1)
			p.Accounting += fmt.Sprintf("; discrete accounting failed: %v", err)
		} else if ok {
			p.Epsilon = eps
			p.Accounting += fmt.Sprintf("; on the discrete noise (exact discrete Gaussian on a grid, within total variation of the rounded continuous mechanism: accounting.DiscreteGaussianDelta): ε = %.10g at δ = %g", eps, c.Delta)
		}
		return p
	}
	m := counter.TreeLevels(c.Horizon)
	sens := 2 * c.Set.YNorm1(c.Dim)
	eps := sens * float64(m) / c.Lambda
	note := ""
	if eps > c.Epsilon*(1+1e-12) {
		note = fmt.Sprintf(" — above the configured ε = %g: λ is below FTRLLambda = %.4g", c.Epsilon, FTRLLambda(c.Set, c.Dim, c.Horizon, c.Epsilon))
	}
	return bandit.Privacy{Private: true, Epsilon: eps, Noise: c.Noise.String(), Accounting: fmt.Sprintf(
		"AS17 Alg. 1 on TreeBasedAgg (%d levels over T = %d): Lap^%d(λ = %.4g) per node, a replaced loss moves a node sum by ≤ 2‖𝒴‖₁ = %g in ℓ1, ε = 2‖𝒴‖₁·m/λ%s",
		m, c.Horizon, c.Dim, c.Lambda, sens, note)}
}

// Privacy reports DP-FTPL's (ε, δ) (AS17 Theorem 3.5): a loss enters m
// nodes and moves each node sum by at most 2‖𝒴‖₂ in ℓ2, so N(0, σ²I) per node
// is ρ-zCDP with ρ = m(2‖𝒴‖₂)²/(2σ²) (Bun & Steinke 2016), reported as the ε
// that ρ certifies at the configured δ ([accounting.ZCDPToDP]). (The theorem states
// ε-DP, which Gaussian noise cannot give.) The same holds on secure noise:
// the discrete Gaussian with the inflated σ is ρ-zCDP with at most this ρ
// (Canonne, Kamath & Steinke 2020, Thms 4 and 14), and the conversion holds
// for every ρ-zCDP mechanism.
func (f *FTPL) Privacy() bandit.Privacy {
	c := f.cfg
	if math.IsInf(c.Epsilon, 1) {
		return bandit.NonPrivate("FTPL with ε = +Inf (σ is the regret term only)")
	}
	m := counter.TreeLevels(c.Horizon)
	sens := 2 * c.Set.YNorm2(c.Dim)
	rho := float64(m) * accounting.GaussianRho(c.Sigma, sens)
	return bandit.Privacy{Private: true, Epsilon: accounting.ZCDPToDP(rho, c.Delta), Delta: c.Delta, Noise: c.Noise.String(), Accounting: fmt.Sprintf(
		"AS17 Alg. 3 on TreeBasedAgg (%d levels over T = %d): N(0, σ² I), σ = %.4g, per node; a replaced loss moves a node sum by ≤ 2‖𝒴‖₂ = %g in ℓ2: ρ = m(2‖𝒴‖₂)²/(2σ²) = %.4g zCDP over the m nodes, ε(δ = %g) = ρ + 2√(ρ ln 1/δ) (configured ε = %g)",
		m, c.Horizon, c.Sigma, sens, rho, c.Delta, c.Epsilon)}
}

// Privacy reports the ε of AS17 Algorithm 4 (Lemma 4.2): the learner sees
// only ⟨l_t, x̃_t⟩ + ⟨Z_t, x̃_t⟩, Z_t ~ Lap^N(λ), and a replaced loss moves
// the reported value by at most 2B‖x̃_t‖∞, so the played sequence is
// (2B/λ)-DP (the printed λ = B/ε gives 2ε under replacement).
//
// On secure noise the release is the exact discrete Laplace mechanism on the
// normalised loss (see [PrivateBandit]), whose ratio bound gives the same ε.
func (pb *PrivateBandit) Privacy() bandit.Privacy {
	eps := 2 * pb.cfg.Bound / pb.cfg.Lambda
	p := bandit.Privacy{Private: true, Epsilon: eps, Noise: pb.cfg.Noise.String(), Accounting: fmt.Sprintf(
		"AS17 Alg. 4: Lap^%d(λ = %.4g) added to the reported loss; a replaced loss moves it by ≤ 2B‖x̃‖∞ with B = %g, ε = 2B/λ (Lemma 4.2's B/λ is for a changed loss l^Fict of ℓ1 norm ≤ B)",
		pb.cfg.Dim, pb.cfg.Lambda, pb.cfg.Bound)}
	if pb.sec != nil {
		p.Accounting += fmt.Sprintf("; secure sampler: the loss over ‖x̃‖∞, clamped to ±B, rounded to the grid %g and released with an exact discrete Laplace draw of %d grid steps (noise.NewSecureLaplaceNoise for sensitivity 2B: the same ε by its ratio bound), times ‖x̃‖∞, plus discrete draws for x̃'s other coordinates (post-processing)", pb.sec.Grid(), pb.sec.Tau())
	}
	return p
}
