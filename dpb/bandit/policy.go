package bandit

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// Round is what a learner sees before it acts in round T (1-based).
//
// For contextual and linear problems Actions holds the decision set D_t: K
// feature vectors of length Dim, row-major (action a is Actions[a*Dim:(a+1)*Dim]).
// For K-armed problems Dim is 0 and Actions is nil. An Environment reuses the
// same Round and its buffers from round to round, so a policy must not keep
// references to Actions past Update.
type Round struct {
	T       int
	K       int
	Dim     int
	Actions []float64
}

// Action returns the feature vector of action a (a view into Actions).
func (r *Round) Action(a int) []float64 {
	if a < 0 || a >= r.K {
		panic(param.BadArm)
	}
	return r.Actions[a*r.Dim : (a+1)*r.Dim : (a+1)*r.Dim]
}

// Policy is a learner with bandit feedback: it chooses one of r.K actions
// and then sees only that action's reward. Implementations: [ss18.LinUCB] (SS18),
// the MT14 and AS17 bandit algorithms.
type Policy interface {
	Choose(r *Round) int
	Update(r *Round, arm int, reward float64)
}

// Environment produces decision sets and rewards. Mean and BestMean give the
// expected rewards used for pseudo-regret, R̂_n = Σ_t max_a μ_t(a) − μ_t(a_t).
//
// An environment's random draws must not depend on the actions chosen, so
// that all policies run from the same environment stream face the same
// decision sets and reward noise (common random numbers).
type Environment interface {
	// Arms returns K and Dim returns the feature dimension (0 for K-armed).
	Arms() int
	Dim() int
	// Next fills r with round t's decision set and draws that round's rewards.
	Next(r *Round, t int)
	// Reward returns the realised reward of arm in the current round.
	Reward(r *Round, arm int) float64
	// Mean returns the expected reward of arm in the current round.
	Mean(r *Round, arm int) float64
	// BestMean returns max_a Mean(r, a).
	BestMean(r *Round) float64
}

// NewRound returns a Round with buffers sized for env.
func NewRound(env Environment) *Round {
	r := &Round{K: env.Arms(), Dim: env.Dim()}
	if r.Dim > 0 {
		r.Actions = make([]float64, r.K*r.Dim)
	}
	return r
}

// ShortActions is the panic message for a Round whose Actions hold fewer
// than K·Dim numbers (formatted only on the panic path).
func ShortActions(r *Round) string {
	return fmt.Sprintf("bandit: Round.Actions has %d numbers, want K·Dim = %d·%d = %d", len(r.Actions), r.K, r.Dim, r.K*r.Dim)
}
