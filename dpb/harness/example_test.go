package harness_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// An experiment comparing UCB1 with DP-UCB (MT14 Alg. 1, ε = 1) on the same
// Bernoulli arms: every repetition builds a fresh environment and fresh
// policies from their own streams (common random numbers), and Run returns
// the mean cumulative pseudo-regret and its standard error at the recorded
// rounds. Results do not depend on Workers.
func ExampleBanditExperiment() {
	const T = 2000
	e := harness.BanditExperiment{
		Horizon: T,
		Reps:    8,
		Seed:    1,
		NewEnv: func(rng *rand.Rand) (bandit.Environment, error) {
			return dpenv.NewBernoulliArms([]float64{0.8, 0.5}, rng), nil
		},
		Policies: []harness.PolicyFactory{
			{Name: "UCB1", New: func(*rand.Rand) (bandit.Policy, error) {
				return mt14.NewUCB1(mt14.UCB1Config{Arms: 2})
			}},
			{Name: "DP-UCB ε=1", New: func(rng *rand.Rand) (bandit.Policy, error) {
				return mt14.NewDPUCB(mt14.DPUCBConfig{Arms: 2, Horizon: T, Epsilon: 1, Noise: noise.Simulated}, rng)
			}},
		},
		Record:     []int{T / 10, T},
		RunOptions: harness.RunOptions{Workers: 2},
	}
	c, err := e.Run()
	if err != nil {
		panic(err)
	}
	fmt.Println("series:", c.Names)
	fmt.Println("recorded at:", c.X)
	fmt.Println("repetitions:", c.Reps)
	fmt.Printf("privacy costs regret at T: %v\n", c.Mean[1][1] > c.Mean[0][1])
	// Output:
	// series: [UCB1 DP-UCB ε=1]
	// recorded at: [200 2000]
	// repetitions: 8
	// privacy costs regret at T: true
}
