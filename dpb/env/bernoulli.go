package env

import (
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/bandit"
)

// BernoulliArms is MT14 Section 5.1's environment: k Bernoulli arms with
// the given means (MT14's Fig. 1: arm 0 best, the others best − gap; any
// arm may be the best). It draws every arm's reward each round (common
// random numbers): one uniform per arm from rng, arm by arm.
type BernoulliArms struct {
	means []float64
	best  float64 // the largest mean, for the pseudo-regret
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
func (e *BernoulliArms) BestMean(r *bandit.Round) float64      { return e.best }

// NewBernoulliArms returns the environment with the given arm means,
// drawing from rng. The best arm is the one of largest mean, wherever it is.
func NewBernoulliArms(means []float64, rng *rand.Rand) *BernoulliArms {
	best := math.Inf(-1)
	for _, m := range means {
		best = math.Max(best, m)
	}
	return &BernoulliArms{means: means, best: best, rew: make([]float64, len(means)), rng: rng}
}
