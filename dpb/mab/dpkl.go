package mab

import (
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/noise"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// DPKLConfig configures [DPKL] (DP-KLUCB and DP-IMED).
type DPKLConfig struct {
	// Arms is k. Required (>= 1).
	Arms int
	// Epsilon is the privacy parameter ε of the whole algorithm. Required (> 0).
	Epsilon float64
	// IMED selects DP-IMED instead of DP-KLUCB.
	IMED bool
	// Alpha scales DP-KLUCB's exploration level α·ln t. Defaults to 1 (the
	// level of KL-UCB as usually run; the analysis adds lower-order terms).
	Alpha float64
	// NoNoise is the ε → ∞ limit: no Laplace noise and d_ε = kl, so the
	// indices are KL-UCB's and IMED's on the phase statistics; not private.
	NoNoise bool
	// Clip clips rewards into [0, 1] instead of panicking on them.
	Clip bool
	// Noise selects the sampler of the batch releases: noise.Secure (exact
	// discrete Laplace on a grid from crypto/rand, rewards rounded to the
	// grid), also when unset (noise.Default); noise.SecureSeeded (the
	// same with the rng's bits); or noise.Simulated (seeded floating-point
	// Laplace, reproducible, not a release-grade guarantee), which must be
	// named. NoNoise takes no sampler: with it, Noise stays unset or is
	// noise.Simulated.
	Noise noise.Mode
}

// DPKL is DP-KLUCB, or DP-IMED with IMED set, of Azize, Wu, Honda, Orabona,
// Ito & Basu, "Optimal Regret of Bernoulli Bandits under Global Differential
// Privacy" (arXiv:2505.05613v1, 2025; NeurIPS 2025 as "Optimal Regret of
// Bandits under Differential Privacy"). Followed: the paper's blueprint as
// published in v1's abstract and introduction — (a) arm-dependent phases,
// (b) Laplace noise, (c) no forgetting — with its divergence d_ε ([dEps]);
// the listings themselves (and their lower-order exploration terms) could not
// be retrieved here, so the phase length (doubling), the exploration level
// α·ln t and the IMED index below are this package's reading:
//
//  1. Play each arm once (a phase of length 1 each).
//  2. At a phase start, choose the arm by the index and play it until its
//     pull count N_a has doubled.
//  3. At the phase's end, add the phase's reward sum plus Lap(1/ε) to arm
//     a's private total; μ̃_a = clip₀¹(private total / N_a) — all of arm a's
//     rewards, none forgotten.
//
// The indices (μ̃* = max_b μ̃_b):
//
//	DP-KLUCB: choose argmax_a max{λ ∈ [μ̃_a, 1] : N_a·d_ε(μ̃_a, λ) ≤ α ln t}
//	DP-IMED:  choose argmin_a N_a·d_ε(μ̃_a, μ̃*) + ln N_a
//
// With ε → ∞ they are KL-UCB (Garivier & Cappé 2011) and IMED (Honda &
// Takemura 2015). Privacy: each reward enters one phase, each phase's sum is
// released once with Lap(1/ε) ([privArms]), so the algorithm is ε-DP. The
// paper's regret: asymptotically Σ_a Δ_a ln T / d_ε(μ_a, μ*) up to a factor
// arbitrarily close to 1, its lower bound ([AzizeLowerBound]). Choose is O(k)
// at phase starts (O(50 k) bisection for DP-KLUCB), O(1) inside a phase;
// nothing allocates after construction.
//
// A DPKL is not safe for concurrent use: share it between goroutines
// through [bandit.NewLocked].
type DPKL struct {
	cfg  DPKLConfig
	s    *privArms
	eps  float64 // ε, or +Inf with NoNoise
	best float64 // μ̃* = max_b clip₀¹(μ̃_b), refreshed at every release
}

var _ bandit.Policy = (*DPKL)(nil)

// NewDPKL returns a DP-KLUCB (or, with cfg.IMED, DP-IMED) policy drawing its
// noise from rng.
func NewDPKL(cfg DPKLConfig, rng *rand.Rand) (*DPKL, error) {
	if cfg.Alpha == 0 {
		cfg.Alpha = 1
	}
	if err := param.CheckPositive("alpha", cfg.Alpha); err != nil {
		return nil, err
	}
	s, err := newPrivArms(cfg.Arms, cfg.Epsilon, cfg.NoNoise, false, cfg.Clip, cfg.Noise, rng)
	if err != nil {
		return nil, err
	}
	p := &DPKL{cfg: cfg, s: s, eps: cfg.Epsilon}
	if cfg.NoNoise {
		p.eps = math.Inf(1)
	}
	return p, nil
}

// Config returns the configuration with defaults filled in.
func (p *DPKL) Config() DPKLConfig { return p.cfg }

// Pulls returns N_a (a view; do not modify).
func (p *DPKL) Pulls() []int { return p.s.n }

// PrivateMean returns μ̃_a before clipping (NaN before the first release).
func (p *DPKL) PrivateMean(a int) float64 { return p.s.mean(a) }

// Index returns DP-KLUCB's upper index of arm a at round t, or DP-IMED's
// index against the best private mean (smaller is better); +Inf (−Inf for
// IMED) for an arm with no release yet.
func (p *DPKL) Index(a, t int) float64 {
	v := p.score(a, t, p.bestMean())
	if p.cfg.IMED {
		return -v
	}
	return v
}

// bestMean returns μ̃* = max_b clip₀¹(μ̃_b) over the released arms.
func (p *DPKL) bestMean() float64 {
	best := math.Inf(-1)
	for b, n := range p.s.rn {
		if n > 0 {
			best = math.Max(best, clip01(p.s.mean(b)))
		}
	}
	return best
}

// score is the value Choose maximises: the DP-KLUCB index, or minus the
// DP-IMED index given μ̃*.
func (p *DPKL) score(a, t int, best float64) float64 {
	n := p.s.rn[a]
	if n == 0 {
		return math.Inf(1)
	}
	x := clip01(p.s.mean(a))
	if p.cfg.IMED {
		return -(float64(float64(n)*dEps(x, best, p.eps)) + xmath.Log(float64(n)))
	}
	return upperInverse(x, n, p.cfg.Alpha*xmath.Log(float64(t)), p.eps)
}

// Choose returns the arm of the open phase, or starts a new phase with the
// arm the index picks (a tie broken at random, from the policy's stream).
func (p *DPKL) Choose(r *bandit.Round) int {
	if a, ok := p.s.resume(r); ok {
		return a // inside an episode: no index, no closure
	}
	return p.s.pick(r, func(a int) float64 { return p.score(a, r.T, p.best) })
}

// Update adds the reward to the open phase and releases the phase sum when
// the phase is complete. Rewards outside [0, 1] panic unless Clip is set; NaN
// always panics.
func (p *DPKL) Update(r *bandit.Round, arm int, reward float64) {
	p.s.update(arm, reward)
	if p.s.bn[arm] == 0 { // the phase closed: μ̃_arm changed
		p.best = p.bestMean()
	}
}

// String names the variant ("DP-KLUCB" or "DP-IMED").
func (p *DPKL) String() string {
	if p.cfg.IMED {
		return "DP-IMED"
	}
	return "DP-KLUCB"
}

// Privacy reports DP-KLUCB's or DP-IMED's ε (δ = 0).
func (p *DPKL) Privacy() bandit.Privacy {
	return p.s.privacy(p.String(), p.cfg.Epsilon, "doubling phases per arm, the noisy phase sums accumulated")
}
