package mt14

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// Privacy reports DP-UCB's ε (MT14 Algorithm 1, δ = 0): each of the k arms'
// trees over T leaves carries Lap(b) per node, b = m·k/ε, m = 1 + ⌈log₂ T⌉; a
// reward in [0, 1] enters m nodes of one tree, so each tree is ε/k-DP and the
// k trees compose to ε. With NoNoise the policy is not private.
func (p *DPUCB) Privacy() bandit.Privacy {
	if p.cfg.NoNoise {
		return bandit.NonPrivate("DP-UCB with NoNoise (exact totals)")
	}
	sampler := ""
	if p.cfg.Noise.Secure() {
		sampler = "; secure sampler: exact discrete Laplace on a grid from crypto/rand"
		if p.cfg.Noise == noise.SecureSeeded {
			sampler = "; secure sampler: exact discrete Laplace on a grid, bits from the seeded stream (reproducible, not for releases)"
		}
	}
	if _, tree := p.trees[0].(*counter.TreeSum); !tree {
		return bandit.Privacy{Private: true, Epsilon: p.cfg.Epsilon, Noise: p.cfg.Noise.String(), Accounting: fmt.Sprintf(
			"MT14 Alg. 1 on %d %v counters of T = %d leaves: a reward enters node sums with ℓ1 weight L1 = %g, Lap(b = L1·k/ε = %.4g) per node; each counter ε/k-DP (Laplace mechanism), basic composition over the k counters%s",
			p.cfg.Arms, p.trees[0], p.cfg.Horizon, p.trees[0].Cost().L1, p.scale, sampler)}
	}
	return bandit.Privacy{Private: true, Epsilon: p.cfg.Epsilon, Noise: p.cfg.Noise.String(), Accounting: fmt.Sprintf(
		"MT14 Alg. 1: %d arm trees of T = %d leaves, Lap(b = m·k/ε = %.4g) per node, m = %d levels; each tree ε/k-DP (Laplace mechanism, ℓ1 sensitivity m), basic composition over the k trees%s",
		p.cfg.Arms, p.cfg.Horizon, p.scale, counter.TreeLevels(p.cfg.Horizon), sampler)}
}

// Privacy reports the ε of private contextual UCB (MT14 Algorithm 2, δ = 0;
// neighbours differ in one round's contexts and reward, all in [0, 1]): the
// entry trees, (d² + 3d)/2 counters with Lap(m/ε₀) per node, ε₀ = 2ε/(d² + 3d),
// compose to ε; the single SS18-style tree has ℓ1 sensitivity m·P per round,
// P = (d+1)(d+2)/2, and Lap(m·P/ε) per entry. The non-private mechanism is not.
func (p *ContextualUCB) Privacy() bandit.Privacy {
	c := p.cfg
	m := counter.TreeLevels(c.Horizon)
	switch c.Mechanism {
	case ContextEntryTrees:
		return bandit.Privacy{Private: true, Epsilon: c.Epsilon, Noise: c.Noise.String(), Accounting: fmt.Sprintf(
			"MT14 Alg. 2: %d entry counters over T = %d leaves, Lap(m/ε₀ = %.4g) per node, m = %d, ε₀ = 2ε/(d² + 3d) = %.4g; basic composition over the counters",
			(p.d*p.d+3*p.d)/2, c.Horizon, p.scale, m, Epsilon0(c.Epsilon, p.d))}
	case ContextSS18Tree:
		return bandit.Privacy{Private: true, Epsilon: c.Epsilon, Noise: c.Noise.String(), Accounting: fmt.Sprintf(
			"one tree of the packed [z; y][z; y]ᵀ over T = %d leaves, ℓ1 sensitivity m·P per round (m = %d, P = %d), Lap(m·P/ε = %.4g) per entry",
			c.Horizon, m, (p.d+1)*(p.d+2)/2, p.scale)}
	}
	return bandit.NonPrivate("contextual UCB with exact sums (LinUCB)")
}

// Privacy reports the wrapped policy's guarantee: delaying the feedback is
// post-processing of the same releases, so it changes no (ε, δ).
func (d *DelayedPolicy) Privacy() bandit.Privacy {
	if p, ok := d.p.(interface{ Privacy() bandit.Privacy }); ok {
		pr := p.Privacy()
		pr.Accounting += fmt.Sprintf("; feedback delayed by τ = %d (post-processing)", d.tau)
		return pr
	}
	return bandit.NonPrivate(fmt.Sprintf("%T reports no privacy", d.p))
}
