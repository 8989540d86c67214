package mab

import (
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/noise"

	"github.com/dpbandits/dpbandits/dpb/bandit"
)

// LazyDPTSConfig configures [LazyDPTS].
type LazyDPTSConfig struct {
	// Arms is k. Required (>= 1).
	Arms int
	// Epsilon is the privacy parameter ε of the whole algorithm. Required (> 0).
	Epsilon float64
	// NoNoise is the ε → ∞ limit: no Laplace noise and no privacy variance —
	// Gaussian Thompson sampling (Agrawal & Goyal 2013) on the same episodes;
	// not private.
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

// LazyDPTS is Lazy-DP-TS, the Thompson-sampling counterpart of the anytime
// lazy private UCB, of Hu & Hegde, "Near-Optimal Thompson Sampling-based
// Algorithms for Differentially Private Stochastic Bandits", UAI 2022.
// Followed: the published description (arm-dependent doubling episodes,
// forgetting, one Laplace release per episode, Gaussian posterior sampling
// only at episode ends); the paper's listing could not be retrieved here, so
// the posterior variance below — the sampling variance plus the Laplace
// noise's — is this package's reading:
//
//  1. Play each arm once (an episode of length 1 each).
//  2. At an episode start draw θ_a ~ N(clip₀¹(μ̃_a), 1/n_a + 2/(εn_a)²) for
//     every arm a, n_a the number of rewards behind μ̃_a; play argmax_a θ_a
//     until its pull count N_a has doubled (lazy: no draw inside an episode).
//     The clipping matters: unclipped, a best arm whose one-reward release
//     drew Lap(1/ε) ≈ −20 at ε = 0.1 is rarely sampled again while the
//     doubling episodes of a worse arm reach T (linear regret in a few runs
//     out of ten, measured); clipping is post-processing and costs no privacy.
//  3. At the episode's end μ̃_a = (that episode's reward sum + Lap(1/ε))/n_a.
//
// Privacy: each reward enters one episode sum, released once with Lap(1/ε)
// ([privArms]); the posterior draws use the policy's own randomness, so
// Lazy-DP-TS is ε-DP (post-processing). Hu & Hegde's regret is
// O(Σ_a ln T/Δ_a + k ln T/ε). Choose is O(k) at episode starts (k normal
// draws), O(1) inside an episode; nothing allocates after construction.
//
// A LazyDPTS is not safe for concurrent use: share it between goroutines
// through [bandit.NewLocked].
type LazyDPTS struct {
	cfg LazyDPTSConfig
	s   *privArms
	rng *rand.Rand
}

var _ bandit.Policy = (*LazyDPTS)(nil)

// NewLazyDPTS returns a Lazy-DP-TS policy drawing its noise and posterior
// samples from rng.
func NewLazyDPTS(cfg LazyDPTSConfig, rng *rand.Rand) (*LazyDPTS, error) {
	s, err := newPrivArms(cfg.Arms, cfg.Epsilon, cfg.NoNoise, true, cfg.Clip, cfg.Noise, rng)
	if err != nil {
		return nil, err
	}
	return &LazyDPTS{cfg: cfg, s: s, rng: rng}, nil
}

// Config returns the configuration.
func (p *LazyDPTS) Config() LazyDPTSConfig { return p.cfg }

// Pulls returns N_a (a view; do not modify).
func (p *LazyDPTS) Pulls() []int { return p.s.n }

// PrivateMean returns μ̃_a (NaN before the first release).
func (p *LazyDPTS) PrivateMean(a int) float64 { return p.s.mean(a) }

// PosteriorSD returns the standard deviation of arm a's posterior draw
// (+Inf before the first release).
func (p *LazyDPTS) PosteriorSD(a int) float64 {
	n := float64(p.s.rn[a])
	if n == 0 {
		return math.Inf(1)
	}
	v := 1 / n
	if !p.cfg.NoNoise {
		en := p.cfg.Epsilon * n
		v += 2 / (en * en)
	}
	return math.Sqrt(v)
}

// Choose returns the arm of the open episode, or starts a new episode with
// the arm of largest posterior draw.
func (p *LazyDPTS) Choose(r *bandit.Round) int {
	if a, ok := p.s.resume(r); ok {
		return a // inside an episode: no index, no closure
	}
	return p.s.pick(r, func(a int) float64 {
		return clip01(p.s.mean(a)) + float64(p.PosteriorSD(a)*p.rng.NormFloat64())
	})
}

// Update adds the reward to the open episode and releases the episode's
// private mean when it is complete. Rewards outside [0, 1] panic unless Clip
// is set; NaN always panics.
func (p *LazyDPTS) Update(r *bandit.Round, arm int, reward float64) {
	p.s.update(arm, reward)
}

// Privacy reports Lazy-DP-TS's ε (δ = 0); the posterior draws use the
// policy's own randomness.
func (p *LazyDPTS) Privacy() bandit.Privacy {
	return p.s.privacy("Lazy-DP-TS", p.cfg.Epsilon, "doubling episodes per arm, the last episode's mean only")
}
