package lockstep_test

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/internal/lockstep"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// Several policies shown one decision set (SS18 Fig. 4's lockstep):
// Choose returns what each policy's Choose would, scoring them
// together where the CPU allows.
func ExampleChoose() {
	const d, k, n = 5, 25, 1000
	s := ss18.Setting{D: d, N: n, Epsilon: 1, Delta: 0.1, Lt2: 2}
	var pols []bandit.Policy
	for i, alg := range ss18.Algs {
		p, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: alg, Setting: s, Mode: counter.Padded, Noise: noise.Simulated}, bandit.Stream(1, bandit.StreamID(0, 1+i)))
		if err != nil {
			fmt.Println(err)
			return
		}
		pols = append(pols, p)
	}
	env, _ := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: d, K: k, Gap: 0.1}, bandit.Stream(1, bandit.StreamID(0, 0)))
	r := bandit.NewRound(env)
	arms := make([]int, len(pols))
	same := true
	for t := 1; t <= n; t++ {
		env.Next(r, t)
		lockstep.Choose(pols, r, arms)
		for i, p := range pols {
			same = same && p.Choose(r) == arms[i] // what each would choose alone
			p.Update(r, arms[i], env.Reward(r, arms[i]))
		}
	}
	fmt.Println("the same actions as Choose:", same)
	// Output:
	// the same actions as Choose: true
}
