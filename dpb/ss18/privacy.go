package ss18

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// Privacy reports the guarantee of LinUCB with its regularizer: the tree
// regularizer's (SS18 Section 4 and Theorem 7: everything LinUCB does is
// post-processing of the tree's releases), or none with Ridge.
func (p *LinUCB) Privacy() bandit.Privacy {
	if r, ok := p.reg.(interface{ Privacy() bandit.Privacy }); ok {
		return r.Privacy()
	}
	return bandit.NonPrivate(fmt.Sprintf("regularizer %v", p.reg))
}

// Privacy reports ridge regression's absence of privacy.
func (r *Ridge) Privacy() bandit.Privacy { return bandit.NonPrivate(r.String()) }

// Privacy reports the (ε, δ) of the tree regularizer (SS18 Section 4): round
// t's outer product [x_t; y_t][x_t; y_t]ᵀ enters m = 1 + ⌈log₂ n⌉ tree nodes,
// each with independent node noise calibrated so that the m nodes compose to
// (ε, δ) for streams differing in one round.
//
//   - Wishart (Section 4.1, Theorem 8 per node, advanced composition over m):
//     k = d + 1 + ⌈224 m ε⁻² ln(8m/δ) ln(2/δ)⌉ degrees of freedom per node. A k
//     set by hand below that value voids the guarantee (reported as ε = +Inf).
//   - Gaussian (Section 4.2): σ²_noise = 16 m L̃⁴ ln(4/δ)²/ε² per entry; the
//     zCDP accounting of [Setting.GaussianEpsilonZCDP] shows it reaches a
//     smaller ε at the same δ (the stated ε is the target, not the tightest).
//   - The exactly calibrated Gaussian regularizers ([NewRegularizer] (RegGaussianCounter),
//     any counter): σ from exact Gaussian-DP accounting of the counter's
//     per-record cost (Dong, Roth & Su 2022), so (ε, δ) is reached exactly.
//   - A Wishart k between the tight value of [Setting.WishartKTight]
//     (Theorem 8 and the optimal composition theorem) and the printed one is
//     reported with that accounting.
//
// On secure noise (exact discrete Gaussian on a grid) the continuous
// accounting above is not what the proof gives: the discrete mechanism's
// (ε, δ) is computed by accounting.DiscreteGaussianEpsilon (the continuous
// μ-GDP curve of the calibration plus (1 + e^ε) times the total variation
// between each discrete Gaussian coordinate a record moves and a rounded
// continuous one, counter.DiscreteEpsilon), and ε is the larger of that and
// the configured ε: 1 + 2·10⁻⁸ (node counters) to 1 + 5·10⁻⁷ (square root,
// BLT) for the exact calibrations at d = 3, n = 256, (1, 10⁻⁵), and the
// configured ε for the over-calibrated printed Gaussian.
func (r *TreeRegularizer) Privacy() bandit.Privacy {
	p := r.privacy()
	mode := noise.Simulated
	if cs, ok := r.ctr.(counter.State); ok {
		mode = noise.ModeOf(cs.NodeNoise())
	}
	p.Noise = mode.String()
	if mode.Secure() && r.kind == "Gaussian" {
		s := r.setting
		sigma := s.GaussianSigma()
		if r.cal != nil {
			sigma = r.cal.Sigma
		}
		// A record moves a node's packed Gram matrix by ‖Δ‖_F ≤ √2·L̃², and the
		// symmetrised noise (σ off the diagonal, √2σ on it) weighs that as
		// L̃²/σ; over the counter's measurements μ = √L2Sq·L̃²/σ. Split
		// (levers.go), the weighted change is at most √f/σ_V.
		w := s.Lt2
		if lc := r.lever; lc != nil && lc.Levers.Split {
			w = SplitFactor(lc.Levers.XBound, lc.Levers.YBound, lc.Ratio)
		}
		mu := math.Sqrt(r.ctr.Cost().L2Sq) * w / sigma
		eps, ok, err := counter.DiscreteEpsilon(r.ctr, mu, s.Delta)
		switch {
		case err != nil:
			p.Epsilon = math.Inf(1)
			p.Accounting += fmt.Sprintf("; discrete accounting failed: %v", err)
		case ok:
			p.Epsilon = math.Max(p.Epsilon, eps)
			p.Accounting += fmt.Sprintf("; on the discrete noise: the continuous mechanism is μ-GDP with μ = %.6g, and the discrete one within total variation (accounting.DiscreteGaussianDelta) of its rounding, so (ε = %.10g, δ = %g)-DP", mu, eps, s.Delta)
		}
	}
	if mode.Secure() {
		if tc, ok := r.ctr.(*counter.ToeplitzCounter); ok {
			p.Accounting += fmt.Sprintf("; secure sampler: exact discrete Gaussian on a grid, records rounded to it, the %v counter's measurements computed with floating-point error at most e = %.3g (data bound %g per entry), rounded to the grid and noised there, the rounding and 2e counted in the calibration, the release computed from the noisy measurements (dpb/counter's Toeplitz measurements, noise.NewSecureGaussianNoiseSlack)", tc, tc.ErrorBound(), tc.Bound().Entry)
		} else {
			p.Accounting += "; secure sampler: exact discrete Gaussian on a grid, data rounded to it and the scale inflated for the rounding (dpb/counter's grid wrapper, noise.NewSecureGaussianNoise)"
		}
	}
	return p
}

func (r *TreeRegularizer) privacy() bandit.Privacy {
	s := r.setting
	m := s.Levels()
	if lc := r.lever; lc != nil {
		return bandit.Privacy{Private: true, Epsilon: s.Epsilon, Delta: s.Delta, Accounting: lc.accounting(s)}
	}
	if c := r.cal; c != nil {
		return bandit.Privacy{Private: true, Epsilon: s.Epsilon, Delta: s.Delta, Accounting: fmt.Sprintf(
			"SS18 §4.2 Gaussian regularizer on the %v counter, σ calibrated exactly: a record enters the counter's measurements with ‖C_·s‖² = %g, so σ = %.4g gives μ-GDP with μ = √%g·L̃²/σ = %.4g (L̃² = %g), which is (ε = %g, δ = %g)-DP (Dong, Roth & Su 2022); joint DP by post-processing (Thm. 7)",
			c.Kind, c.Cost.L2Sq, c.Sigma, c.Cost.L2Sq, c.Mu, s.Lt2, s.Epsilon, s.Delta)}
	}
	switch r.kind {
	case "Wishart":
		kp := s.WishartK()
		comp := "advanced composition over the m levels (Thm. 8)"
		cal := "k = d + 1 + ⌈224 m ε⁻² ln(8m/δ) ln(2/δ)⌉, the printed calibration"
		if r.k < kp {
			kt, err := s.WishartKTight()
			if err != nil || r.k < kt {
				return bandit.Privacy{Private: true, Epsilon: math.Inf(1), Delta: s.Delta, Accounting: fmt.Sprintf(
					"Wishart tree with k = %d below the degrees of freedom ε = %g needs (%d by Theorem 8 and optimal composition, %d as printed): no guarantee at that ε", r.k, s.Epsilon, kt, kp)}
			}
			cal = fmt.Sprintf("k ≥ %d, the tight value; printed: %d", kt, kp)
			comp = "Theorem 8 per node and the optimal composition theorem of Kairouz, Oh & Viswanath over the m levels"
		} else if r.k > kp {
			cal = fmt.Sprintf("above the printed calibration's %d", kp)
		}
		return bandit.Privacy{Private: true, Epsilon: s.Epsilon, Delta: s.Delta, Accounting: fmt.Sprintf(
			"SS18 §4.1 Wishart tree: W_%d(L̃² I, k = %d) per node (%s), L̃² = %g, one round enters m = %d nodes over n = %d rounds, %s; joint DP by post-processing (Thm. 7)",
			s.D+1, r.k, cal, s.Lt2, m, s.N, comp)}
	default:
		return bandit.Privacy{Private: true, Epsilon: s.Epsilon, Delta: s.Delta, Accounting: fmt.Sprintf(
			"SS18 §4.2 Gaussian tree: symmetrised N(0, σ²) per node, σ = 4√m L̃² ln(4/δ)/ε = %.4g, L̃² = %g, one round enters m = %d nodes over n = %d rounds (zCDP certifies ε = %.3g at this δ); joint DP by post-processing (Thm. 7)",
			s.GaussianSigma(), s.Lt2, m, s.N, s.GaussianEpsilonZCDP())}
	}
}
