package bandit_test

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
)

// greedy is the smallest Policy: it plays the arm of best empirical mean,
// after one pull of each.
type greedy struct {
	sum []float64
	n   []int
}

func (g *greedy) Choose(r *bandit.Round) int {
	best := 0
	for a := range r.K {
		if g.n[a] == 0 {
			return a
		}
		if g.sum[a]/float64(g.n[a]) > g.sum[best]/float64(g.n[best]) {
			best = a
		}
	}
	return best
}

func (g *greedy) Update(r *bandit.Round, arm int, reward float64) {
	g.sum[arm] += reward
	g.n[arm]++
}

// RegretCurve runs a policy against an environment and records the
// cumulative pseudo-regret at the requested rounds; Stream gives the
// environment its own reproducible random stream (StreamID(rep, role)).
func ExampleRegretCurve() {
	env := dpenv.NewBernoulliArms([]float64{0.3, 0.7}, bandit.Stream(1, bandit.StreamID(0, 0)))
	pol := &greedy{sum: make([]float64, 2), n: make([]int, 2)}
	rec := []int{10, 100, 1000}
	out := make([]float64, len(rec))
	bandit.RegretCurve(env, pol, 1000, rec, out)
	for i, n := range rec {
		// Each round's regret is 0 or the gap 0.4, so R̂_n/0.4 is a count.
		fmt.Printf("rounds %4d: pulls of the worse arm = %.0f\n", n, out[i]/0.4)
	}
	// Output:
	// rounds   10: pulls of the worse arm = 1
	// rounds  100: pulls of the worse arm = 1
	// rounds 1000: pulls of the worse arm = 1
}
