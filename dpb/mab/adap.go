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
	// AllPulls selects the other reading of the index's count and log
	// argument (see [AdaP]): N_a, all of arm a's pulls, in place of n_a,
	// the rewards behind μ̃_a (the last episode, ½N_a), and ln(t_ℓ − 1), the
	// rounds played before the episode, in place of ln t_ℓ. Off by default:
	// the default is the reading this package has always run.
	AllPulls bool
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
// Where each constant comes from (the paper is not at hand, so these are
// the reasons a reader can check, not citations): the width √(α ln t/(2n))
// is Hoeffding's for a mean of n rewards in [0, 1] at confidence t^{−2α};
// the privacy term α ln t/(εn) is the Laplace tail of the episode's noise,
// P[Lap(1/(εn)) > x] = ½e^{−εnx}, at the same confidence t^{−α}; α = 3.1 is
// the default because the analysis as published needs α > 3 (summing the
// failure probabilities t^{1−α} over episodes); the KL index moves the mean
// up by the privacy term before inverting kl, so ε → ∞ gives KL-UCB.
//
// Two readings of the count and of the log argument exist: n_a as the
// rewards behind μ̃_a (½N_a: the episode just closed) or as N_a (all pulls,
// as in UCB1), and t_ℓ (the episode's first round) or t_ℓ − 1 (the rounds
// played, the argument of the published notation I_a(t_ℓ − 1)). The default
// is n_a and t_ℓ; [AdaPConfig.AllPulls] runs N_a and t_ℓ − 1, and the
// private-MAB figure (dpb/mabfig) shows both. An independent implementation
// differed from the default by z = 3.7–5.3 in regret (issue 51).
//
// Ties between indices (saturated at 1 in the KL index at small ε) are
// broken uniformly at random from the policy's stream, which is drawn only
// when a tie occurs.
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
	if p.cfg.AllPulls {
		n, t = p.s.n[a], t-1
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
// the arm of largest index (a tie broken at random, from the policy's stream).
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

// String names the variant ("AdaP-UCB" or "AdaP-KLUCB", with " (N_a, t−1)"
// under AllPulls).
func (p *AdaP) String() string {
	name := "AdaP-UCB"
	if p.cfg.KL {
		name = "AdaP-KLUCB"
	}
	if p.cfg.AllPulls {
		name += " (N_a, t−1)"
	}
	return name
}

// Privacy reports AdaP's ε (δ = 0).
func (p *AdaP) Privacy() bandit.Privacy {
	return p.s.privacy(p.String(), p.cfg.Epsilon, "doubling episodes per arm, the last episode's mean only")
}
