package dpb_test

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb"
)

// A private counter: 1024 increments released by the tree mechanism with
// Laplace node noise.
func ExampleTreeSum() {
	rng := dpb.Stream(1, 0)
	lap, _ := dpb.NewLaplaceNoise(1, 1.0, rng)
	ts, _ := dpb.NewTreeSum(1, 1024, lap, dpb.Plain)
	for range 1024 {
		ts.Add([]float64{1})
	}
	sum := ts.SumTo(nil)[0]
	// One node at t = 1024: Lap(1) noise, |noise| < 20 with probability 1 − e⁻²⁰.
	fmt.Printf("private count within ±20 of 1024: %v\n", math.Abs(sum-1024) < 20)
	// Output:
	// private count within ±20 of 1024: true
}

// LinUCB (SS18 Algorithm 1) on the Appendix D decision sets: the
// non-private variant learns θ* and stops accumulating regret, the jointly
// private Gaussian variant pays for privacy with a larger regret.
func ExampleNewSS18Policy() {
	const d, k, n = 3, 9, 5000
	regret := map[dpb.SS18Alg]float64{}
	for _, alg := range []dpb.SS18Alg{dpb.SS18NonPrivate, dpb.SS18Gaussian} {
		env, _ := dpb.NewLinearEnv(dpb.LinearEnvConfig{Dim: d, K: k, Gap: 0.1}, dpb.Stream(1, dpb.StreamID(0, 0)))
		pol, err := dpb.NewSS18Policy(dpb.SS18PolicyConfig{
			Alg:     alg,
			Setting: dpb.SS18Setting{D: d, N: n, Epsilon: 1, Delta: 0.1, Lt2: 2},
			Mode:    dpb.Padded,
		}, dpb.Stream(1, dpb.StreamID(0, 1)))
		if err != nil {
			fmt.Println(err)
			return
		}
		out := make([]float64, 1)
		dpb.RegretCurve(env, pol, n, []int{n}, out)
		regret[alg] = out[0]
	}
	fmt.Printf("non-private regret per round below 0.01: %v\n", regret[dpb.SS18NonPrivate]/n < 0.01)
	fmt.Printf("private regret larger: %v\n", regret[dpb.SS18Gaussian] > regret[dpb.SS18NonPrivate])
	// Output:
	// non-private regret per round below 0.01: true
	// private regret larger: true
}

// Several policies shown one decision set (SS18 Fig. 4's lockstep):
// ChooseLockstep returns what each policy's Choose would, scoring them
// together where the CPU allows.
func ExampleChooseLockstep() {
	const d, k, n = 5, 25, 1000
	s := dpb.SS18Setting{D: d, N: n, Epsilon: 1, Delta: 0.1, Lt2: 2}
	var pols []dpb.Policy
	for i, alg := range dpb.SS18Algs {
		p, err := dpb.NewSS18Policy(dpb.SS18PolicyConfig{Alg: alg, Setting: s, Mode: dpb.Padded}, dpb.Stream(1, dpb.StreamID(0, 1+i)))
		if err != nil {
			fmt.Println(err)
			return
		}
		pols = append(pols, p)
	}
	env, _ := dpb.NewLinearEnv(dpb.LinearEnvConfig{Dim: d, K: k, Gap: 0.1}, dpb.Stream(1, dpb.StreamID(0, 0)))
	r := dpb.NewRound(env)
	arms := make([]int, len(pols))
	same := true
	for t := 1; t <= n; t++ {
		env.Next(r, t)
		dpb.ChooseLockstep(pols, r, arms)
		for i, p := range pols {
			same = same && p.Choose(r) == arms[i] // what each would choose alone
			p.Update(r, arms[i], env.Reward(r, arms[i]))
		}
	}
	fmt.Println("the same actions as Choose:", same)
	// Output:
	// the same actions as Choose: true
}
