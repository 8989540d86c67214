package mabfig_test

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/mabfig"
)

// A miniature of the private-MAB figure: two algorithms at one ε against
// UCB1, on MT14 Fig. 1's arms (0.9 and 0.5); Table gives each algorithm's
// regret at T beside DP-UCB's and the lower bounds.
func ExampleRun() {
	res, err := mabfig.Run(mabfig.Config{
		Arms: 2, Horizon: 5000, Reps: 4, Seed: 1,
		Epsilons:   []float64{1},
		Algorithms: []string{mabfig.Algorithms[0], mabfig.Algorithms[1]},
		Points:     5,
		RunOptions: harness.RunOptions{Workers: 2},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("series:", res.Curves.Names)
	fmt.Println("record rounds:", res.Curves.X)
	for _, row := range res.Table() {
		fmt.Printf("%s ε=%v: regret at T below DP-UCB's: %v\n", row.Algorithm, row.Epsilon, row.VsDPUCB < 1)
	}
	// Output:
	// series: [UCB1 (non-private) DP-UCB ε=1 DP-SE ε=1]
	// record rounds: [5 30 166 910 5000]
	// DP-UCB ε=1: regret at T below DP-UCB's: false
	// DP-SE ε=1: regret at T below DP-UCB's: true
}
