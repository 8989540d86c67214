package mab

import (
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/noise"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// AdaPConfig configures [AdaP] (AdaP-UCB and AdaP-KLUCB).
type AdaPConfig struct {
	// Arms is k. Required (>= 1).
	Arms int
	// Epsilon is the privacy parameter ε of the whole algorithm. Required (> 0).
	Epsilon float64
	// Alpha is the exploration parameter α of the index. Defaults to 3.1 (the
	// analysis needs α > 3).
	Alpha float64
	// KL selects AdaP-KLUCB's index instead of AdaP-UCB's.
	KL bool
	// NoNoise is the ε → ∞ limit: no Laplace noise and no privacy term in the
	// index (exactness tests, ablations); the result is not private.
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

// AdaP is AdaP-UCB, or AdaP-KLUCB with KL set, of Azize & Basu, "When Privacy
// Meets Partial Information: A Refined Analysis of Differentially Private
// Bandits", NeurIPS 2022 (arXiv:2209.02570). Followed: the AdaP-UCB
// pseudo-code as published (the paper's Algorithm 1, the generic "AdaP-UCB"
// listing; the paper itself is not in this repository and its text could not
// be retrieved here, so the listing was reconstructed from the published
// description — arm-dependent doubling episodes, forgetting, Laplace on the
// last episode — and the index below):
//
//  1. Play each arm once (an episode of length 1 each).
//  2. At the start t_ℓ of episode ℓ, choose a_ℓ = argmax_a I_a and play it
//     until its pull count N_a has doubled.
//  3. At the episode's end, replace μ̃_a by the mean of that episode's rewards
//     only (forgetting) plus Lap(1/(ε·n_a)), n_a = ½N_a the episode's length.
//
// The indices, with n_a the number of rewards behind μ̃_a:
//
//	AdaP-UCB:   I_a = μ̃_a + √(α ln t_ℓ / (2 n_a)) + α ln t_ℓ / (ε n_a)
//	AdaP-KLUCB: I_a = max{q ∈ [0, 1] : kl(clip₀¹(μ̃_a + α ln t_ℓ/(ε n_a)), q) ≤ α ln t_ℓ / n_a}
//
// Privacy: each reward enters one episode, each episode's sum is released once
// with Lap(1/ε) ([privArms]); the algorithm is ε-DP for every horizon
// (anytime). Regret (Azize & Basu 2022, upper bound of AdaP-UCB):
// O(Σ_a ln T/Δ_a + k ln T/ε), which matches SS18's Corollary 15 lower bound in order.
// Choose is O(k) at episode starts and O(1) inside an episode (O(50 k) with
// the KL index); nothing allocates after construction.
//
// An AdaP is not safe for concurrent use: share it between goroutines
// through [bandit.NewLocked].
type AdaP struct {
	cfg AdaPConfig
	s   *privArms
	eps float64 // ε, or +Inf with NoNoise
}

var _ bandit.Policy = (*AdaP)(nil)

// NewAdaP returns an AdaP-UCB (or, with cfg.KL, AdaP-KLUCB) policy drawing its
// noise from rng.
func NewAdaP(cfg AdaPConfig, rng *rand.Rand) (*AdaP, error) {
	if cfg.Alpha == 0 {
		cfg.Alpha = 3.1
	}
	if err := param.CheckPositive("alpha", cfg.Alpha); err != nil {
		return nil, err
	}
	s, err := newPrivArms(cfg.Arms, cfg.Epsilon, cfg.NoNoise, true, cfg.Clip, cfg.Noise, rng)
	if err != nil {
		return nil, err
	}
	p := &AdaP{cfg: cfg, s: s, eps: cfg.Epsilon}
	if cfg.NoNoise {
		p.eps = math.Inf(1)
	}
	return p, nil
}

// Config returns the configuration with defaults filled in.
func (p *AdaP) Config() AdaPConfig { return p.cfg }

// Pulls returns N_a (a view; do not modify).
func (p *AdaP) Pulls() []int { return p.s.n }

// PrivateMean returns μ̃_a, the released mean of arm a's last episode (NaN
// before its first release).
func (p *AdaP) PrivateMean(a int) float64 { return p.s.mean(a) }

// Index returns I_a at round t (+Inf for an arm with no release yet).
func (p *AdaP) Index(a, t int) float64 {
	n := p.s.rn[a]
	if n == 0 {
		return math.Inf(1)
	}
	fn := float64(n)
	lt := p.cfg.Alpha * xmath.Log(float64(t))
	priv := lt / (p.eps * fn) // 0 when eps = +Inf
	if p.cfg.KL {
		return upperInverse(clip01(p.s.mean(a)+priv), n, lt, math.Inf(1))
	}
	return p.s.mean(a) + math.Sqrt(lt/(2*fn)) + priv
}

// Choose returns the arm of the open episode, or starts a new episode with
// the arm of largest index (ties to the lowest index).
func (p *AdaP) Choose(r *bandit.Round) int {
	if a, ok := p.s.resume(r); ok {
		return a // inside an episode: no index, no closure
	}
	return p.s.pick(r, func(a int) float64 { return p.Index(a, r.T) })
}

// Update adds the reward to the open episode and releases the episode's
// private mean when it is complete. Rewards outside [0, 1] panic unless Clip
// is set; NaN always panics.
func (p *AdaP) Update(r *bandit.Round, arm int, reward float64) {
	p.s.update(arm, reward)
}

// String names the variant ("AdaP-UCB" or "AdaP-KLUCB").
func (p *AdaP) String() string {
	if p.cfg.KL {
		return "AdaP-KLUCB"
	}
	return "AdaP-UCB"
}

// Privacy reports AdaP's ε (δ = 0).
func (p *AdaP) Privacy() bandit.Privacy {
	return p.s.privacy(p.String(), p.cfg.Epsilon, "doubling episodes per arm, the last episode's mean only")
}
