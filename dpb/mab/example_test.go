package mab_test

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/mab"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// DP-SE (Sajed & Sheffet 2019) on two Bernoulli arms 0.2 apart, ε = 1:
// successive elimination with Laplace-noised epoch means drops the worse arm
// long before the horizon, so regret/T is small.
func ExampleNewDPSE() {
	const T = 100000
	p, err := mab.NewDPSE(mab.DPSEConfig{Arms: 2, Horizon: T, Epsilon: 1, Noise: noise.Simulated}, bandit.Stream(1, bandit.StreamID(0, 1)))
	if err != nil {
		panic(err)
	}
	env := dpenv.NewBernoulliArms([]float64{0.7, 0.5}, bandit.Stream(1, bandit.StreamID(0, 0)))
	rec := []int{T}
	out := make([]float64, 1)
	bandit.RegretCurve(env, p, T, rec, out)
	fmt.Println("privacy:", p.Privacy().Epsilon)
	fmt.Printf("regret/T < 0.05: %v\n", out[0]/T < 0.05)
	// Output:
	// privacy: 1
	// regret/T < 0.05: true
}
