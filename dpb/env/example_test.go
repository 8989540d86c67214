package env_test

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
)

// A round of SS18 Appendix D's environment: K unit actions, one of them
// optimal with mean reward 0.75, the others at least Δ = 0.1 worse.
func ExampleNewLinearEnv() {
	env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 5, K: 25, Gap: 0.1}, bandit.Stream(1, bandit.StreamID(0, 0)))
	if err != nil {
		panic(err)
	}
	r := bandit.NewRound(env)
	env.Next(r, 1)
	worst := math.Inf(-1)
	for a := range r.K {
		if a != env.OptimalArm() {
			worst = math.Max(worst, env.Mean(r, a))
		}
	}
	fmt.Println("best mean:", env.BestMean(r))
	fmt.Println("every other action at least 0.1 worse:", worst <= env.BestMean(r)-0.1)
	// Output:
	// best mean: 0.75
	// every other action at least 0.1 worse: true
}

// A Bernoulli K-armed bandit: Next draws every arm's reward for the round.
func ExampleNewKArmedEnv() {
	env, err := dpenv.NewKArmedEnv(dpenv.KArmedConfig{Means: []float64{0.2, 0.5, 0.9}, Noise: dpenv.Bernoulli}, bandit.Stream(1, 0))
	if err != nil {
		panic(err)
	}
	r := bandit.NewRound(env)
	var sum float64
	for t := 1; t <= 10000; t++ {
		env.Next(r, t)
		sum += env.Reward(r, 2)
	}
	fmt.Printf("arm 2's mean reward within 0.02 of 0.9: %v\n", math.Abs(sum/10000-0.9) < 0.02)
	// Output:
	// arm 2's mean reward within 0.02 of 0.9: true
}
