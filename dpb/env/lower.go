package env

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// SwapEnv is the two-arm instance of SS18 Claim 13: in each round a fair
// coin c ∈ {0, 1} is the context, arm 0 has features e_c and arm 1 has
// e_{1−c}, and θ* = (Gap/2, −Gap/2): the best arm is the one whose features
// are e_0, so the optimal action is revealed by (and only by) the round's
// own context. Rewards are Rademacher with mean ⟨θ*, x⟩.
type SwapEnv struct {
	gap   float64
	f     noise.FastRand
	c     int
	noise float64
}

var _ bandit.Environment = (*SwapEnv)(nil)

// NewSwapEnv returns the Claim 13 instance with mean gap Gap ∈ (0, 2].
func NewSwapEnv(gap float64, rng *rand.Rand) (*SwapEnv, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	if math.IsNaN(gap) || gap <= 0 || gap > 2 {
		return nil, fmt.Errorf("env: swap-instance gap is %v, must be in (0, 2]", gap)
	}
	return &SwapEnv{gap: gap, f: noise.NewFastRand(rng)}, nil
}

// Arms returns 2.
func (e *SwapEnv) Arms() int { return 2 }

// Dim returns 2.
func (e *SwapEnv) Dim() int { return 2 }

// Theta returns θ* = (Gap/2, −Gap/2).
func (e *SwapEnv) Theta() []float64 { return []float64{e.gap / 2, -e.gap / 2} }

// Context returns the current round's context c.
func (e *SwapEnv) Context() int { return e.c }

// Next draws the context and the round's reward noise.
func (e *SwapEnv) Next(r *bandit.Round, t int) {
	if r.K != 2 || r.Dim != 2 || len(r.Actions) != 4 {
		panic(param.BadDim)
	}
	r.T = t
	e.c = e.f.Intn(2)
	clear(r.Actions)
	r.Actions[0*2+e.c] = 1
	r.Actions[1*2+(1-e.c)] = 1
	e.noise = e.f.Float64()
}

// Mean returns ⟨θ*, x_arm⟩ = ±Gap/2.
func (e *SwapEnv) Mean(_ *bandit.Round, arm int) float64 {
	if (arm == 0) == (e.c == 0) {
		return e.gap / 2
	}
	return -e.gap / 2
}

// BestMean returns Gap/2.
func (e *SwapEnv) BestMean(*bandit.Round) float64 { return e.gap / 2 }

// Reward returns a Rademacher reward with the arm's mean.
func (e *SwapEnv) Reward(r *bandit.Round, arm int) float64 {
	return Rademacher.sharedReward(e.Mean(r, arm), 1, e.noise)
}

// RandomizedResponse is a contextual policy that is ε-differentially private
// in the standard sense (its action in round t, an output, is ε-DP in round
// t's own context): it plays the arm that the context says is best with
// probability e^ε/(1 + e^ε) and the other one otherwise. On [SwapEnv] it is
// the best a standard-DP algorithm can do: its expected pseudo-regret is
// n·Gap/(1 + e^ε), above SS18 Claim 13's n·Gap/4 for ε < ln 3 (the claim
// states n/4 for Gap = 1, ε < ln 2, δ < 1/4).
type RandomizedResponse struct {
	p float64
	f noise.FastRand
}

// NewRandomizedResponse returns the ε-DP randomized-response policy.
func NewRandomizedResponse(eps float64, rng *rand.Rand) (*RandomizedResponse, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	if err := param.CheckEpsilon(eps); err != nil {
		return nil, err
	}
	return &RandomizedResponse{p: xmath.Exp(eps) / (1 + xmath.Exp(eps)), f: noise.NewFastRand(rng)}, nil
}

// Choose reads the context from the features (the arm with features e_0 is
// the context's best) and answers truthfully with probability e^ε/(1+e^ε).
func (p *RandomizedResponse) Choose(r *bandit.Round) int {
	best := 0
	if r.Actions[0] != 1 {
		best = 1
	}
	if p.f.Float64() < p.p {
		return best
	}
	return 1 - best
}

// Update does nothing: randomized response does not learn.
func (p *RandomizedResponse) Update(*bandit.Round, int, float64) {}
