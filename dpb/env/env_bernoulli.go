package env

import (
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/bandit"
)

// mt14Arms is MT14 Section 5.1's environment: k Bernoulli arms, arm 0 with
// mean best and the others best − gap. It draws every arm's reward each
// round (common random numbers).
//
// Each round draws one uniform per arm from rng, arm by arm.
type BernoulliArms struct {
	means []float64
	rew   []float64
	rng   *rand.Rand
}

func (e *BernoulliArms) Arms() int { return len(e.means) }
func (e *BernoulliArms) Dim() int  { return 0 }
func (e *BernoulliArms) Next(r *bandit.Round, t int) {
	r.T = t
	for a, m := range e.means {
		e.rew[a] = 0
		if e.rng.Float64() < m {
			e.rew[a] = 1
		}
	}
}
func (e *BernoulliArms) Reward(r *bandit.Round, a int) float64 { return e.rew[a] }
func (e *BernoulliArms) Mean(r *bandit.Round, a int) float64   { return e.means[a] }
func (e *BernoulliArms) BestMean(r *bandit.Round) float64      { return e.means[0] }

// newMT14Arms returns the environment with the given arm means, drawing from rng.
func NewBernoulliArms(means []float64, rng *rand.Rand) *BernoulliArms {
	return &BernoulliArms{means: means, rew: make([]float64, len(means)), rng: rng}
}
