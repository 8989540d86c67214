// Package lockstep runs several SS18 LinUCB policies on one decision set at
// once, each leaving the state and choosing the arm its own Choose would,
// bit for bit: the fast path of dpb/ss18 (linucb_fast.go) that the figure
// drivers (dpb/ss18fig) and the benchmarks use, kept out of the paper's
// API. dpb/ss18 installs the two functions when it is linked in; policies
// other than *ss18.LinUCB simply Choose.
package lockstep

import "github.com/dpbandits/dpbandits/dpb/bandit"

var (
	choose  func(pols []bandit.Policy, r *bandit.Round, arms []int)
	prepare func(pols []bandit.Policy)
)

// Register installs dpb/ss18's lockstep driver (its init calls it). A second
// registration panics: there is one driver.
func Register(c func(pols []bandit.Policy, r *bandit.Round, arms []int), p func(pols []bandit.Policy)) {
	if choose != nil || prepare != nil {
		panic("lockstep: registered twice")
	}
	if c == nil || p == nil {
		panic("lockstep: nil driver")
	}
	choose, prepare = c, p
}

// Choose sets arms[i] = pols[i].Choose(r) for every policy, with the same
// bits: SS18 LinUCB policies of equal dimension d ≤ 8 are scored four at
// once (one pass over the decision set), after Prepare. It panics if
// len(arms) != len(pols), and if dpb/ss18 is not linked in.
func Choose(pols []bandit.Policy, r *bandit.Round, arms []int) {
	if choose == nil {
		panic("lockstep: dpb/ss18 is not linked in")
	}
	choose(pols, r, arms)
}

// Prepare readies every SS18 LinUCB among pols for its next Choose (V_t's
// factor, M = L⁻¹, z, β_t), four policies of equal dimension d ≤ 16 at
// once, with the same bits as Choose preparing each one. It panics if
// dpb/ss18 is not linked in.
func Prepare(pols []bandit.Policy) {
	if prepare == nil {
		panic("lockstep: dpb/ss18 is not linked in")
	}
	prepare(pols)
}
