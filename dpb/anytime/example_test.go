package anytime_test

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/anytime"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// DP-UCB on a stream of unknown length: the initial horizon guess is 1000 and
// the doubling trick opens epochs of 1000, 2000, 4000, … rounds, each a fresh
// DP-UCB with ε = 10 on its own rounds, so the whole run stays 10-DP however
// long it goes.
func ExampleNewDPUCB() {
	p, err := anytime.NewDPUCB(mt14.DPUCBConfig{Arms: 2, Horizon: 1000, Epsilon: 10, Noise: noise.Simulated}, bandit.Stream(1, bandit.StreamID(0, 1)))
	if err != nil {
		panic(err)
	}
	env := dpenv.NewBernoulliArms([]float64{0.9, 0.4}, bandit.Stream(1, bandit.StreamID(0, 0)))
	out := make([]float64, 1)
	bandit.RegretCurve(env, p, 100000, []int{100000}, out)
	e, h := p.Epoch()
	fmt.Println("rounds:", p.Rounds())
	fmt.Printf("epoch %d of horizon %d\n", e, h)
	fmt.Println("ε of the whole run:", p.Privacy().Epsilon)
	fmt.Printf("regret/T < 0.05: %v\n", out[0]/100000 < 0.05)
	// Output:
	// rounds: 100000
	// epoch 6 of horizon 64000
	// ε of the whole run: 10
	// regret/T < 0.05: true
}
