package bandit

import (
	"fmt"
	"math"
)

// Privacy is the differential-privacy guarantee a policy reports, and the
// accounting behind it. Neighbouring streams differ in one round's data
// (one (x_t, y_t) for SS18, one reward vector for MT14); the guarantee holds
// for every adaptively chosen stream.
type Privacy struct {
	// Private is false for a non-private policy (then Epsilon = +Inf, Delta = 1).
	Private bool
	// Epsilon and Delta: the policy is (ε, δ)-differentially private — jointly
	// (SS18 Definition 2: the actions shown to every other round) for LinUCB,
	// in the usual sense for DP-UCB.
	Epsilon, Delta float64
	// Accounting says how (ε, δ) follows from the mechanism: noise per node,
	// levels, composition, epochs.
	Accounting string
}

func (p Privacy) String() string {
	if !p.Private {
		return "not private: " + p.Accounting
	}
	return fmt.Sprintf("(ε = %g, δ = %g)-DP: %s", p.Epsilon, p.Delta, p.Accounting)
}

// NonPrivate is the report of a policy without privacy.
func NonPrivate(why string) Privacy {
	return Privacy{Epsilon: math.Inf(1), Delta: 1, Accounting: why}
}
