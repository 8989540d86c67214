package as17fig_test

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/as17fig"
	"github.com/dpbandits/dpbandits/dpb/harness"
)

// A miniature of AS17 Table 1 (full information): every row's regret
// against T at one ε beside the non-private learner and the row's bound
// (Bound[e][h], explicit or an O(·) drawn with constant 1).
func ExampleTable() {
	res, err := as17fig.Table(as17fig.TableConfig{
		Table:      1,
		Horizons:   []int{64, 256},
		Epsilons:   []float64{1},
		Reps:       2,
		Seed:       1,
		RunOptions: harness.RunOptions{Workers: 2},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("series:", res.T[0].EpsNames)
	for _, r := range res.T {
		// Series 1 is ε = 1; the last horizon is T = 256.
		within := r.Regret.Mean[1][1] <= r.Bound[1][1]
		if r.Explicit {
			fmt.Printf("%s: regret at T = 256 within the bound: %v\n", r.Row, within)
		} else {
			fmt.Printf("%s: an O(·) bound, drawn with constant 1\n", r.Row)
		}
	}
	// Output:
	// series: [non-private ε=1]
	// experts: regret at T = 256 within the bound: true
	// sphere: regret at T = 256 within the bound: true
	// cube: regret at T = 256 within the bound: true
	// ftpl-ball: an O(·) bound, drawn with constant 1
}
