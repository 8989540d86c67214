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
	// Noise names the sampler the guarantee rests on, as noise.Mode
	// prints it. "simulated" (or empty) is floating-point noise: (ε, δ) is
	// then the guarantee of the mechanism in exact arithmetic, which its
	// floating-point releases do not have (dpb/audit's float attack exceeds
	// it), so it is not a release-grade guarantee. "secure" (exact discrete
	// noise on a grid, bits from crypto/rand) is; "secure-seeded" has the
	// exact law but bits predictable from the seed.
	Noise string `json:"noise,omitempty"`
}

// ReleaseGrade reports whether the guarantee holds for the releases as
// computed: a private policy on secure noise from crypto/rand.
func (p Privacy) ReleaseGrade() bool { return p.Private && p.Noise == "secure" }

// NoiseNote says in words what the noise kind means for the guarantee.
func (p Privacy) NoiseNote() string {
	switch p.Noise {
	case "secure":
		return "secure noise (exact discrete sampler, crypto/rand)"
	case "secure-seeded":
		return "a secure sampler on seeded bits, not a release-grade guarantee (exact law, draws predictable from the seed)"
	}
	return "simulated noise, not a release-grade guarantee (floating-point samplers: it holds for the mechanism in exact arithmetic)"
}

// String prints the guarantee, the noise kind and the accounting.
func (p Privacy) String() string {
	if !p.Private {
		return "not private: " + p.Accounting
	}
	return fmt.Sprintf("(ε = %g, δ = %g)-DP on %s: %s", p.Epsilon, p.Delta, p.NoiseNote(), p.Accounting)
}

// NonPrivate is the report of a policy without privacy.
func NonPrivate(why string) Privacy {
	return Privacy{Epsilon: math.Inf(1), Delta: 1, Accounting: why}
}
