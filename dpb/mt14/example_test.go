package mt14_test

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/data"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ope"
)

// DP-UCB (MT14 Algorithm 1) on two Bernoulli-like arms with rewards 0.9 and
// 0.4 every round: with ε = 100 the exploration forced by Γ ends within the
// horizon and the better arm gets most pulls.
func ExampleDPUCB() {
	p, err := mt14.NewDPUCB(mt14.DPUCBConfig{Arms: 2, Horizon: 20000, Epsilon: 100, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if err != nil {
		panic(err)
	}
	r := &bandit.Round{K: 2}
	reward := []float64{0.9, 0.4}
	for t := 1; t <= 20000; t++ {
		r.T = t
		a := p.Choose(r)
		p.Update(r, a, reward[a])
	}
	fmt.Printf("node scale m·k/ε = %.2f\n", p.NodeScale())
	fmt.Printf("better arm pulled most: %v\n", p.Pulls()[0] > p.Pulls()[1])
	// Output:
	// node scale m·k/ε = 0.32
	// better arm pulled most: true
}

// The feedback delay of MT14 Section 5.2: with τ = 3 the decision at round t
// uses the observations of rounds 1..s(t).
func ExampleDelayedRounds() {
	for t := 1; t <= 9; t++ {
		fmt.Print(mt14.DelayedRounds(t, 3), " ")
	}
	fmt.Println()
	// Output:
	// 0 0 0 3 3 3 3 7 7
}

// Replay (Li et al. 2011) of LinUCB on a tiny uniformly logged data set made
// from a classification problem by the supervised-to-bandit conversion.
func ExampleReplay() {
	ds := &data.Supervised{Name: "toy", Features: []string{"x"}, Classes: []string{"a", "b"}}
	for i := 0; i < 2000; i++ {
		x := float64(i % 2)
		ds.X = append(ds.X, x)
		ds.Y = append(ds.Y, i%2) // the class is the feature
	}
	lg, err := data.NewSupervisedLog(ds, data.SupervisedLogConfig{Dim: 2}, bandit.Stream(1, 0))
	if err != nil {
		panic(err)
	}
	p, err := mt14.NewContextualUCB(mt14.ContextualUCBConfig{Dim: 2, Arms: 2, Horizon: lg.Len(), Disjoint: true, Alpha: 0.1, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if err != nil {
		panic(err)
	}
	res, err := ope.Replay(p, lg, ope.ReplayConfig{})
	if err != nil {
		panic(err)
	}
	u := ope.UniformValue(lg, 0)
	fmt.Printf("about half the events matched: %v\n", res.Matched > 900 && res.Matched < 1100)
	fmt.Printf("uniform CTR ≈ 0.5: %v; replayed CTR > 0.9: %v\n", u.CTR > 0.45 && u.CTR < 0.55, res.CTR > 0.9)
	// Output:
	// about half the events matched: true
	// uniform CTR ≈ 0.5: true; replayed CTR > 0.9: true
}
