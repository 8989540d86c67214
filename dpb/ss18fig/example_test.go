package ss18fig_test

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/ss18"
	"github.com/dpbandits/dpbandits/dpb/ss18fig"
)

// A miniature of SS18 Appendix D.2 (Figure 4): regret over time of
// non-private LinUCB and the Gaussian-tree variant at (ε, δ) = (1, 0.1), on
// d = 5 with K = 25 actions and gap Δ = 0.1.
func ExampleExperiment2() {
	res, err := ss18fig.Experiment2(ss18fig.Exp2Config{
		Gaps:       []float64{0.1},
		Algs:       []ss18.Alg{ss18.NonPrivate, ss18.Gaussian},
		Horizon:    2000,
		Reps:       2,
		Points:     3,
		Seed:       1,
		RunOptions: harness.RunOptions{Workers: 2},
	})
	if err != nil {
		panic(err)
	}
	c := res.Curves[0]
	last := len(c.X) - 1
	fmt.Println("series:", c.Names)
	fmt.Println("last record round:", c.X[last])
	fmt.Printf("privacy costs regret at n: %v\n", c.Mean[1][last] > c.Mean[0][last])
	// Output:
	// series: [NonPrivate Gaussian]
	// last record round: 2000
	// privacy costs regret at n: true
}
