package dpb

import (
	"fmt"
	"math"
)

// Privacy is the differential-privacy guarantee a policy reports, and the
// accounting behind it. Neighbouring streams differ in one round's data
// (one (x_t, y_t) for SS18, one reward vector for MT14); the guarantee holds
// for every adaptively chosen stream.
type Privacy struct {
	// Private is false for a non-private policy (then Epsilon = +Inf, Delta = 1).
	Private bool
	// Epsilon and Delta: the policy is (ε, δ)-differentially private — jointly
	// (SS18 Definition 2: the actions shown to every other round) for LinUCB,
	// in the usual sense for DP-UCB.
	Epsilon, Delta float64
	// Accounting says how (ε, δ) follows from the mechanism: noise per node,
	// levels, composition, epochs.
	Accounting string
}

func (p Privacy) String() string {
	if !p.Private {
		return "not private: " + p.Accounting
	}
	return fmt.Sprintf("(ε = %g, δ = %g)-DP: %s", p.Epsilon, p.Delta, p.Accounting)
}

// nonPrivate is the report of a policy without privacy.
func nonPrivate(why string) Privacy {
	return Privacy{Epsilon: math.Inf(1), Delta: 1, Accounting: why}
}

// Privacy reports the guarantee of LinUCB with its regularizer: the tree
// regularizer's (SS18 Section 4 and Theorem 7: everything LinUCB does is
// post-processing of the tree's releases), or none with Ridge.
func (p *LinUCB) Privacy() Privacy {
	if r, ok := p.reg.(interface{ Privacy() Privacy }); ok {
		return r.Privacy()
	}
	return nonPrivate(fmt.Sprintf("regularizer %v", p.reg))
}

// Privacy reports ridge regression's absence of privacy.
func (r *Ridge) Privacy() Privacy { return nonPrivate(r.String()) }

// Privacy reports the (ε, δ) of the tree regularizer (SS18 Section 4): round
// t's outer product [x_t; y_t][x_t; y_t]ᵀ enters m = 1 + ⌈log₂ n⌉ tree nodes,
// each with independent node noise calibrated so that the m nodes compose to
// (ε, δ) for streams differing in one round.
//
//   - Wishart (Section 4.1, Theorem 8 per node, advanced composition over m):
//     k = d + 1 + ⌈224 m ε⁻² ln(8m/δ) ln(2/δ)⌉ degrees of freedom per node. A k
//     set by hand below that value voids the guarantee (reported as ε = +Inf).
//   - Gaussian (Section 4.2): σ²_noise = 16 m L̃⁴ ln(4/δ)²/ε² per entry; the
//     zCDP accounting of [SS18Setting.GaussianEpsilonZCDP] shows it reaches a
//     smaller ε at the same δ (the stated ε is the target, not the tightest).
//   - The exactly calibrated Gaussian regularizers ([NewGaussianCounterReg],
//     any counter): σ from exact Gaussian-DP accounting of the counter's
//     per-record cost (Dong, Roth & Su 2022), so (ε, δ) is reached exactly.
//   - A Wishart k between the tight value of [SS18Setting.WishartKTight]
//     (Theorem 8 and the optimal composition theorem) and the printed one is
//     reported with that accounting.
func (r *TreeRegularizer) Privacy() Privacy {
	p := r.privacy()
	if r.tree == nil {
		return p
	}
	if _, ok := r.tree.nodeNoise().(*SecureNoise); ok {
		p.Accounting += "; secure sampler: exact discrete noise on a grid from crypto/rand, scale inflated for the rounding (secure.go)"
	}
	return p
}

func (r *TreeRegularizer) privacy() Privacy {
	s := r.setting
	m := s.Levels()
	if c := r.cal; c != nil {
		return Privacy{Private: true, Epsilon: s.Epsilon, Delta: s.Delta, Accounting: fmt.Sprintf(
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
				return Privacy{Private: true, Epsilon: math.Inf(1), Delta: s.Delta, Accounting: fmt.Sprintf(
					"Wishart tree with k = %d below the degrees of freedom ε = %g needs (%d by Theorem 8 and optimal composition, %d as printed): no guarantee at that ε", r.k, s.Epsilon, kt, kp)}
			}
			cal = fmt.Sprintf("k ≥ %d, the tight value; printed: %d", kt, kp)
			comp = "Theorem 8 per node and the optimal composition theorem of Kairouz, Oh & Viswanath over the m levels"
		} else if r.k > kp {
			cal = fmt.Sprintf("above the printed calibration's %d", kp)
		}
		return Privacy{Private: true, Epsilon: s.Epsilon, Delta: s.Delta, Accounting: fmt.Sprintf(
			"SS18 §4.1 Wishart tree: W_%d(L̃² I, k = %d) per node (%s), L̃² = %g, one round enters m = %d nodes over n = %d rounds, %s; joint DP by post-processing (Thm. 7)",
			s.D+1, r.k, cal, s.Lt2, m, s.N, comp)}
	default:
		return Privacy{Private: true, Epsilon: s.Epsilon, Delta: s.Delta, Accounting: fmt.Sprintf(
			"SS18 §4.2 Gaussian tree: symmetrised N(0, σ²) per node, σ = 4√m L̃² ln(4/δ)/ε = %.4g, L̃² = %g, one round enters m = %d nodes over n = %d rounds (zCDP certifies ε = %.3g at this δ); joint DP by post-processing (Thm. 7)",
			s.GaussianSigma(), s.Lt2, m, s.N, s.GaussianEpsilonZCDP())}
	}
}

// Privacy reports DP-UCB's ε (MT14 Algorithm 1, δ = 0): each of the k arms'
// trees over T leaves carries Lap(b) per node, b = m·k/ε, m = 1 + ⌈log₂ T⌉; a
// reward in [0, 1] enters m nodes of one tree, so each tree is ε/k-DP and the
// k trees compose to ε. With NoNoise the policy is not private.
func (p *DPUCB) Privacy() Privacy {
	if p.cfg.NoNoise {
		return nonPrivate("DP-UCB with NoNoise (exact totals)")
	}
	sampler := ""
	if p.cfg.Noise == NoiseSecure {
		sampler = "; secure sampler: exact discrete Laplace on a grid from crypto/rand"
	}
	if _, tree := p.trees[0].(*TreeSum); !tree {
		return Privacy{Private: true, Epsilon: p.cfg.Epsilon, Accounting: fmt.Sprintf(
			"MT14 Alg. 1 on %d %v counters of T = %d leaves: a reward enters node sums with ℓ1 weight L1 = %g, Lap(b = L1·k/ε = %.4g) per node; each counter ε/k-DP (Laplace mechanism), basic composition over the k counters",
			p.cfg.Arms, p.trees[0], p.cfg.Horizon, p.trees[0].Cost().L1, p.scale)}
	}
	return Privacy{Private: true, Epsilon: p.cfg.Epsilon, Accounting: fmt.Sprintf(
		"MT14 Alg. 1: %d arm trees of T = %d leaves, Lap(b = m·k/ε = %.4g) per node, m = %d levels; each tree ε/k-DP (Laplace mechanism, ℓ1 sensitivity m), basic composition over the k trees%s",
		p.cfg.Arms, p.cfg.Horizon, p.scale, TreeLevels(p.cfg.Horizon), sampler)}
}

// Privacy reports the ε of private contextual UCB (MT14 Algorithm 2, δ = 0;
// neighbours differ in one round's contexts and reward, all in [0, 1]): the
// entry trees, (d² + 3d)/2 counters with Lap(m/ε₀) per node, ε₀ = 2ε/(d² + 3d),
// compose to ε; the single SS18-style tree has ℓ1 sensitivity m·P per round,
// P = (d+1)(d+2)/2, and Lap(m·P/ε) per entry. The non-private mechanism is not.
func (p *ContextualUCB) Privacy() Privacy {
	c := p.cfg
	m := TreeLevels(c.Horizon)
	switch c.Mechanism {
	case ContextEntryTrees:
		return Privacy{Private: true, Epsilon: c.Epsilon, Accounting: fmt.Sprintf(
			"MT14 Alg. 2: %d entry counters over T = %d leaves, Lap(m/ε₀ = %.4g) per node, m = %d, ε₀ = 2ε/(d² + 3d) = %.4g; basic composition over the counters",
			(p.d*p.d+3*p.d)/2, c.Horizon, p.scale, m, MT14Epsilon0(c.Epsilon, p.d))}
	case ContextSS18Tree:
		return Privacy{Private: true, Epsilon: c.Epsilon, Accounting: fmt.Sprintf(
			"one tree of the packed [z; y][z; y]ᵀ over T = %d leaves, ℓ1 sensitivity m·P per round (m = %d, P = %d), Lap(m·P/ε = %.4g) per entry",
			c.Horizon, m, (p.d+1)*(p.d+2)/2, p.scale)}
	}
	return nonPrivate("contextual UCB with exact sums (LinUCB)")
}

// Privacy reports the wrapped policy's guarantee: delaying the feedback is
// post-processing of the same releases, so it changes no (ε, δ).
func (d *DelayedPolicy) Privacy() Privacy {
	if p, ok := d.p.(interface{ Privacy() Privacy }); ok {
		pr := p.Privacy()
		pr.Accounting += fmt.Sprintf("; feedback delayed by τ = %d (post-processing)", d.tau)
		return pr
	}
	return nonPrivate(fmt.Sprintf("%T reports no privacy", d.p))
}
