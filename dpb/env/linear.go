package env

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// RewardNoise is the law of a reward around its mean μ.
type RewardNoise int

const (
	// Rademacher rewards are ±1 with mean μ ∈ [−1, 1]: +1 with probability
	// (1+μ)/2. Bounded by B̃ = 1 and 1-subgaussian (σ² ≤ 1); the reward law of
	// SS18 Appendix D.
	Rademacher RewardNoise = iota
	// GaussianReward rewards are μ + σ·N(0, 1) (σ-subgaussian, unbounded).
	GaussianReward
	// Bernoulli rewards are 1 with probability μ ∈ [0, 1], else 0 (MT14's
	// reward model; ½-subgaussian).
	Bernoulli
)

var rewardNoiseNames = [...]string{"rademacher", "gaussian", "bernoulli"}

// String returns "rademacher", "gaussian" or "bernoulli".
func (n RewardNoise) String() string {
	if n < 0 || int(n) >= len(rewardNoiseNames) {
		return fmt.Sprintf("RewardNoise(%d)", int(n))
	}
	return rewardNoiseNames[n]
}

// MarshalText writes the name, so configs read well in JSON.
func (n RewardNoise) MarshalText() ([]byte, error) {
	if n < 0 || int(n) >= len(rewardNoiseNames) {
		return nil, fmt.Errorf("env: unknown reward noise %d", int(n))
	}
	return []byte(n.String()), nil
}

// UnmarshalText parses a name written by MarshalText.
func (n *RewardNoise) UnmarshalText(b []byte) error {
	v, err := ParseRewardNoise(string(b))
	if err == nil {
		*n = v
	}
	return err
}

// ParseRewardNoise parses "rademacher", "gaussian" or "bernoulli".
func ParseRewardNoise(s string) (RewardNoise, error) {
	for i, name := range rewardNoiseNames {
		if s == name {
			return RewardNoise(i), nil
		}
	}
	return 0, fmt.Errorf("env: reward noise %q, must be one of %v", s, rewardNoiseNames)
}

// checkMean validates a mean reward for this noise law.
func (n RewardNoise) checkMean(name string, mu float64) error {
	if err := param.CheckFinite(name, mu); err != nil {
		return err
	}
	switch n {
	case Rademacher:
		if mu < -1 || mu > 1 {
			return fmt.Errorf("env: %s is %v, must be in [-1, 1] for rademacher rewards", name, mu)
		}
	case Bernoulli:
		if mu < 0 || mu > 1 {
			return fmt.Errorf("env: %s is %v, must be in [0, 1] for bernoulli rewards", name, mu)
		}
	case GaussianReward:
	default:
		return fmt.Errorf("env: unknown reward noise %d", int(n))
	}
	return nil
}

// sharedReward returns the reward of an arm with mean mu when the round's
// single noise draw is v: v is a uniform U on [0, 1) for Rademacher and
// Bernoulli rewards and a standard normal Z for Gaussian ones. Using one draw
// for every arm of a round couples the arms monotonically (common random
// numbers): a higher mean never gets a lower reward.
func (n RewardNoise) sharedReward(mu, sigma, v float64) float64 {
	switch n {
	case Rademacher:
		if v < (1+mu)/2 {
			return 1
		}
		return -1
	case Bernoulli:
		if v < mu {
			return 1
		}
		return 0
	}
	return mu + float64(sigma*v)
}

// draw returns the noise variable sharedReward expects.
func (n RewardNoise) draw(f *noise.FastRand) float64 {
	if n == GaussianReward {
		return f.Norm()
	}
	return f.Float64()
}

// LinearEnvConfig configures [NewLinearEnv], the synthetic contextual linear
// bandit of SS18 Appendix D.
type LinearEnvConfig struct {
	// Dim is d ≥ 2. Required.
	Dim int `json:"dim"`
	// K is the number of actions per round, ≥ 1. Required. Paper: K = d².
	K int `json:"k"`
	// Gap is Δ ∈ [0, 2·OptReward): sub-optimal actions have
	// ⟨x, θ*⟩ ∈ [−OptReward, OptReward − Gap]. 0 means "no gap". Paper: 0.1
	// (Experiments 1 and 2), 0 (Experiment 2, left panel).
	Gap float64 `json:"gap"`
	// OptReward is ⟨x_opt, θ*⟩ ∈ (0, 1]. Defaults to 0.75 (the paper's value).
	OptReward float64 `json:"opt_reward"`
	// Noise is the reward law: Rademacher (default) or GaussianReward.
	Noise RewardNoise `json:"noise"`
	// Sigma is the Gaussian reward noise's standard deviation. Defaults to 1.
	// Ignored for Rademacher rewards.
	Sigma float64 `json:"sigma,omitempty"`
}

// LinearEnv is the synthetic contextual linear bandit of SS18 Appendix D.
//
// θ* is uniform on the unit sphere of R^d (S = 1). Every round a fresh
// decision set of K unit vectors (L = 1) is drawn: one optimal action uniform
// on {‖x‖ = 1, ⟨x, θ*⟩ = OptReward}, at a uniformly random position, and K−1
// sub-optimal actions uniform on {‖x‖ = 1, ⟨x, θ*⟩ ∈ [−OptReward,
// OptReward − Gap]}, all independent. The reward of action x is ⟨x, θ*⟩ plus
// noise ([Rademacher]: ±1, so B̃ = 1 and σ = 1; or [GaussianReward]). One
// noise draw per round is shared by all actions (common random numbers).
//
// Next costs about K·d normal draws and allocates nothing.
type LinearEnv struct {
	cfg     LinearEnvConfig
	theta   []float64
	band    bandSampler
	rnd     noise.FastRand
	means   []float64
	optBuf  []float64 // the optimal action's first candidate, kept aside in nextReject
	opt     int
	noise   float64 // this round's shared noise draw
	started bool
}

var _ bandit.Environment = (*LinearEnv)(nil)

// NewLinearEnv returns the Appendix D environment. θ* is drawn from rng, and
// so is the seed of the environment's own generator; rng is not used after.
func NewLinearEnv(cfg LinearEnvConfig, rng *rand.Rand) (*LinearEnv, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	if cfg.OptReward == 0 {
		cfg.OptReward = 0.75
	}
	if cfg.Sigma == 0 {
		cfg.Sigma = 1
	}
	if cfg.Dim < 2 {
		return nil, fmt.Errorf("env: dimension is %d, must be >= 2", cfg.Dim)
	}
	if cfg.K < 1 {
		return nil, fmt.Errorf("env: number of actions K is %d, must be >= 1", cfg.K)
	}
	if math.IsNaN(cfg.OptReward) || cfg.OptReward <= 0 || cfg.OptReward > 1 {
		return nil, fmt.Errorf("env: optimal reward is %v, must be in (0, 1]", cfg.OptReward)
	}
	if math.IsNaN(cfg.Gap) || cfg.Gap < 0 || cfg.Gap >= 2*cfg.OptReward {
		return nil, fmt.Errorf("env: gap is %v, must be in [0, 2·optimal reward) = [0, %v)", cfg.Gap, 2*cfg.OptReward)
	}
	switch cfg.Noise {
	case Rademacher:
	case GaussianReward:
		if err := param.CheckPositive("reward noise sigma", cfg.Sigma); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("env: reward noise %v, must be rademacher or gaussian", cfg.Noise)
	}
	e := &LinearEnv{cfg: cfg, theta: make([]float64, cfg.Dim), means: make([]float64, cfg.K), optBuf: make([]float64, cfg.Dim)}
	for {
		var s float64
		for i := range e.theta {
			e.theta[i] = rng.NormFloat64()
			s += float64(e.theta[i] * e.theta[i])
		}
		if s > 0 {
			for i := range e.theta {
				e.theta[i] /= math.Sqrt(s)
			}
			break
		}
	}
	e.rnd = noise.NewFastRand(rng)
	e.band = newBandSampler(cfg.Dim, -cfg.OptReward, cfg.OptReward-cfg.Gap)
	return e, nil
}

// Config returns the configuration with defaults filled in.
func (e *LinearEnv) Config() LinearEnvConfig { return e.cfg }

// Arms returns K.
func (e *LinearEnv) Arms() int { return e.cfg.K }

// Dim returns d.
func (e *LinearEnv) Dim() int { return e.cfg.Dim }

// Theta returns a copy of θ*.
func (e *LinearEnv) Theta() []float64 { return append([]float64(nil), e.theta...) }

// Band returns the interval [lo, hi] of the sub-optimal actions' mean rewards.
func (e *LinearEnv) Band() (lo, hi float64) { return e.band.lo, e.band.hi }

// OptimalArm returns the position of the optimal action in the current round.
func (e *LinearEnv) OptimalArm() int { return e.opt }

// Next draws round t's decision set into r.Actions and the round's reward noise.
func (e *LinearEnv) Next(r *bandit.Round, t int) {
	d, k := e.cfg.Dim, e.cfg.K
	if r.K != k || r.Dim != d || len(r.Actions) != k*d {
		panic(param.BadDim)
	}
	r.T = t
	e.opt = e.rnd.Intn(k)
	if e.band.reject {
		e.nextReject(r.Actions)
	} else {
		for a := range k {
			x := r.Actions[a*d : (a+1)*d : (a+1)*d]
			if a == e.opt {
				sphereSlice(&e.rnd, e.theta, e.cfg.OptReward, x)
				e.means[a] = e.cfg.OptReward
				continue
			}
			e.means[a] = e.band.sample(&e.rnd, e.theta, x)
		}
	}
	e.noise = e.cfg.Noise.draw(&e.rnd)
	e.started = true
}

// nextReject draws a decision set into acts (K·d) when the band is sampled by
// rejection. It makes the same draws in the same order, and the same
// floating-point operations, as finishing every action in turn with
// [bandSampler.finish] after one batch of first candidates, but in two passes:
// first every sub-optimal action's first candidate is normalised, with no
// branch (K independent chains the processor overlaps; eight or 32 actions
// per pass on AVX-512, NormaliseBlocks); then, in increasing
// action order, the rejected ones (about one in eight at (d, Δ) = (5, 0.1))
// are redrawn and the optimal action is finished. A rejected candidate's
// normalised values are overwritten by its redraws, and those come from the
// stream after the batch and after the redraws of the actions before it, as
// in the one-action-at-a-time order, so the bits are the same.
func (e *LinearEnv) nextReject(acts []float64) {
	d, k := e.cfg.Dim, e.cfg.K
	f := &e.rnd
	f.NormalsTo(acts)
	means := e.means[:k]
	// Every action is normalised, the optimal one's candidate kept aside
	// and put back for sliceFinish (its means entry is set below).
	xo := acts[e.opt*d : (e.opt+1)*d]
	copy(e.optBuf, xo)
	simd.NormaliseBlocks(acts, e.theta, means, d)
	copy(xo, e.optBuf)
	lo, hi := e.band.lo, e.band.hi
	for a := range k {
		switch u := means[a]; {
		case a == e.opt:
			sliceFinish(f, e.theta, e.cfg.OptReward, acts[a*d:(a+1)*d:(a+1)*d])
			means[a] = e.cfg.OptReward
		case !(u >= lo && u <= hi):
			x := acts[a*d : (a+1)*d : (a+1)*d]
			f.NormalsTo(x)
			means[a] = e.band.finish(f, e.theta, x)
		}
	}
}

// Reward returns the realised reward of arm in the current round.
func (e *LinearEnv) Reward(r *bandit.Round, arm int) float64 {
	return e.cfg.Noise.sharedReward(e.Mean(r, arm), e.cfg.Sigma, e.noise)
}

// Mean returns ⟨x_arm, θ*⟩ for the current round (exactly OptReward for the
// optimal action).
func (e *LinearEnv) Mean(r *bandit.Round, arm int) float64 {
	if arm < 0 || arm >= e.cfg.K {
		panic(param.BadArm)
	}
	if !e.started {
		panic("env: LinearEnv used before Next")
	}
	return e.means[arm]
}

// BestMean returns OptReward.
func (e *LinearEnv) BestMean(r *bandit.Round) float64 { return e.cfg.OptReward }

// BandCDF returns the exact CDF at u ∈ [lo, hi] of ⟨x, θ*⟩ for a sub-optimal
// action of the Appendix D decision set: the sphere marginal, a
// Beta((d−1)/2, (d−1)/2) law of (1+u)/2, truncated to the band [lo, hi] =
// [−OptReward, OptReward − Gap]. The band check of package check compares the sampler with it.
func (e *LinearEnv) BandCDF(u float64) float64 {
	b := &e.band
	return (b.beta.CDF((1+u)/2) - b.flo) / (b.fhi - b.flo)
}
