package env

import (
	"fmt"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// KArmedConfig configures [NewKArmedEnv].
type KArmedConfig struct {
	// Means are the arms' expected rewards μ_1..μ_K (K ≥ 1). Required.
	// Bernoulli: each in [0, 1]; Rademacher: in [−1, 1]; Gaussian: finite.
	Means []float64 `json:"means"`
	// Noise is the reward law. Defaults to Rademacher (the zero value); MT14
	// experiments use Bernoulli.
	Noise RewardNoise `json:"noise"`
	// Sigma is the Gaussian rewards' standard deviation. Defaults to 1.
	Sigma float64 `json:"sigma,omitempty"`
}

// KArmedEnv is a stochastic K-armed bandit (Dim() = 0, no features): arm a's
// rewards are i.i.d. with mean μ_a, independent across arms. Next draws every
// arm's reward for the round (K draws), so the rewards do not depend on the
// arm chosen and every policy of a repetition sees the same table (common
// random numbers).
type KArmedEnv struct {
	cfg     KArmedConfig
	best    float64
	rewards []float64
	rnd     noise.FastRand
	started bool
}

var _ bandit.Environment = (*KArmedEnv)(nil)

// NewKArmedEnv returns a K-armed bandit whose generator is seeded from rng.
func NewKArmedEnv(cfg KArmedConfig, rng *rand.Rand) (*KArmedEnv, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	if len(cfg.Means) == 0 {
		return nil, fmt.Errorf("env: K-armed bandit needs at least one arm mean")
	}
	if cfg.Sigma == 0 {
		cfg.Sigma = 1
	}
	if cfg.Noise == GaussianReward {
		if err := param.CheckPositive("reward noise sigma", cfg.Sigma); err != nil {
			return nil, err
		}
	}
	e := &KArmedEnv{rewards: make([]float64, len(cfg.Means)), rnd: noise.NewFastRand(rng)}
	for a, mu := range cfg.Means {
		if err := cfg.Noise.checkMean(fmt.Sprintf("mean of arm %d", a), mu); err != nil {
			return nil, err
		}
		if a == 0 || mu > e.best {
			e.best = mu
		}
	}
	cfg.Means = append([]float64(nil), cfg.Means...)
	e.cfg = cfg
	return e, nil
}

// Config returns the configuration with defaults filled in.
func (e *KArmedEnv) Config() KArmedConfig { return e.cfg }

// Arms returns K.
func (e *KArmedEnv) Arms() int { return len(e.cfg.Means) }

// Dim returns 0: a K-armed bandit has no features.
func (e *KArmedEnv) Dim() int { return 0 }

// Next draws every arm's reward for round t.
func (e *KArmedEnv) Next(r *bandit.Round, t int) {
	if r.K != len(e.cfg.Means) {
		panic(param.BadDim)
	}
	r.T = t
	for a, mu := range e.cfg.Means {
		e.rewards[a] = e.cfg.Noise.sharedReward(mu, e.cfg.Sigma, e.cfg.Noise.draw(&e.rnd))
	}
	e.started = true
}

// Reward returns arm's reward in the current round.
func (e *KArmedEnv) Reward(r *bandit.Round, arm int) float64 {
	if arm < 0 || arm >= len(e.rewards) {
		panic(param.BadArm)
	}
	if !e.started {
		panic("env: KArmedEnv used before Next")
	}
	return e.rewards[arm]
}

// Mean returns μ_arm.
func (e *KArmedEnv) Mean(r *bandit.Round, arm int) float64 {
	if arm < 0 || arm >= len(e.cfg.Means) {
		panic(param.BadArm)
	}
	return e.cfg.Means[arm]
}

// BestMean returns max_a μ_a.
func (e *KArmedEnv) BestMean(r *bandit.Round) float64 { return e.best }

// FixedActionsConfig configures [NewFixedActionsEnv].
type FixedActionsConfig struct {
	// Actions are the K ≥ 1 action vectors, all of the same length d ≥ 1.
	// Required.
	Actions [][]float64 `json:"actions"`
	// Theta is θ* (length d). Required.
	Theta []float64 `json:"theta"`
	// Noise is the reward law; every mean ⟨x_a, θ*⟩ must lie in its range
	// (Rademacher: [−1, 1], Bernoulli: [0, 1]). Defaults to Rademacher.
	Noise RewardNoise `json:"noise"`
	// Sigma is the Gaussian rewards' standard deviation. Defaults to 1.
	Sigma float64 `json:"sigma,omitempty"`
}

// FixedActionsEnv is a linear bandit whose decision set is the same K actions
// every round: mean reward ⟨x_a, θ*⟩, noise as in [LinearEnv] (one draw a
// round shared by all actions, common random numbers).
type FixedActionsEnv struct {
	cfg     FixedActionsConfig
	flat    []float64
	means   []float64
	best    float64
	rnd     noise.FastRand
	noise   float64
	started bool
}

var _ bandit.Environment = (*FixedActionsEnv)(nil)

// NewFixedActionsEnv returns the environment; its generator is seeded from rng.
func NewFixedActionsEnv(cfg FixedActionsConfig, rng *rand.Rand) (*FixedActionsEnv, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	if len(cfg.Actions) == 0 {
		return nil, fmt.Errorf("env: fixed-actions bandit needs at least one action")
	}
	d := len(cfg.Theta)
	if err := param.CheckDim("length of theta", d); err != nil {
		return nil, err
	}
	if err := param.CheckVectorFinite("theta", cfg.Theta); err != nil {
		return nil, err
	}
	if cfg.Sigma == 0 {
		cfg.Sigma = 1
	}
	if cfg.Noise == GaussianReward {
		if err := param.CheckPositive("reward noise sigma", cfg.Sigma); err != nil {
			return nil, err
		}
	}
	e := &FixedActionsEnv{flat: make([]float64, 0, d*len(cfg.Actions)), means: make([]float64, len(cfg.Actions))}
	for a, x := range cfg.Actions {
		if len(x) != d {
			return nil, fmt.Errorf("env: action %d has length %d, theta has %d", a, len(x), d)
		}
		if err := param.CheckVectorFinite(fmt.Sprintf("action %d", a), x); err != nil {
			return nil, err
		}
		var mu float64
		for i, v := range x {
			mu += v * cfg.Theta[i]
		}
		if err := cfg.Noise.checkMean(fmt.Sprintf("mean reward <x_%d, theta>", a), mu); err != nil {
			return nil, err
		}
		e.means[a] = mu
		if a == 0 || mu > e.best {
			e.best = mu
		}
		e.flat = append(e.flat, x...)
	}
	// Keep private copies so the caller cannot change the problem later.
	actions := make([][]float64, len(cfg.Actions))
	for a := range actions {
		actions[a] = e.flat[a*d : (a+1)*d : (a+1)*d]
	}
	cfg.Actions = actions
	cfg.Theta = append([]float64(nil), cfg.Theta...)
	e.cfg = cfg
	e.rnd = noise.NewFastRand(rng)
	return e, nil
}

// Config returns the configuration with defaults filled in.
func (e *FixedActionsEnv) Config() FixedActionsConfig { return e.cfg }

// Arms returns K.
func (e *FixedActionsEnv) Arms() int { return len(e.means) }

// Dim returns d.
func (e *FixedActionsEnv) Dim() int { return len(e.cfg.Theta) }

// Theta returns a copy of θ*.
func (e *FixedActionsEnv) Theta() []float64 { return append([]float64(nil), e.cfg.Theta...) }

// Next copies the actions into r (every round, so a policy that scribbled on
// them cannot change the problem) and draws the round's reward noise.
func (e *FixedActionsEnv) Next(r *bandit.Round, t int) {
	if r.K != len(e.means) || r.Dim != len(e.cfg.Theta) || len(r.Actions) != len(e.flat) {
		panic(param.BadDim)
	}
	r.T = t
	copy(r.Actions, e.flat)
	e.noise = e.cfg.Noise.draw(&e.rnd)
	e.started = true
}

// Reward returns the realised reward of arm in the current round.
func (e *FixedActionsEnv) Reward(r *bandit.Round, arm int) float64 {
	if !e.started {
		panic("env: FixedActionsEnv used before Next")
	}
	return e.cfg.Noise.sharedReward(e.Mean(r, arm), e.cfg.Sigma, e.noise)
}

// Mean returns ⟨x_arm, θ*⟩.
func (e *FixedActionsEnv) Mean(r *bandit.Round, arm int) float64 {
	if arm < 0 || arm >= len(e.means) {
		panic(param.BadArm)
	}
	return e.means[arm]
}

// BestMean returns max_a ⟨x_a, θ*⟩.
func (e *FixedActionsEnv) BestMean(r *bandit.Round) float64 { return e.best }
