package mt14fig_test

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/mt14fig"
)

// A miniature of MT14 Fig. 1: UCB1 and DP-UCB at ε = 1 and 10 on two
// Bernoulli arms (0.9 and 0.5); the smaller ε pays more regret.
func ExampleRunFig1() {
	c, err := mt14fig.RunFig1(mt14fig.Fig1Config{
		Arms: 2, Horizon: 5000, Reps: 4, Seed: 1,
		Epsilons:   []float64{1, 10},
		Points:     4,
		RunOptions: harness.RunOptions{Workers: 2},
	})
	if err != nil {
		panic(err)
	}
	last := len(c.X) - 1
	fmt.Println("series:", c.Names)
	fmt.Println("last record round:", c.X[last])
	fmt.Printf("ε = 1 above ε = 10 above UCB1 at T: %v\n", c.Mean[1][last] > c.Mean[2][last] && c.Mean[2][last] > c.Mean[0][last])
	// Output:
	// series: [UCB1 (non-private) DP-UCB ε=1 DP-UCB ε=10]
	// last record round: 5000
	// ε = 1 above ε = 10 above UCB1 at T: true
}
