package ss18_test

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// LinUCB (SS18 Algorithm 1) on the Appendix D decision sets: the
// non-private variant learns θ* and stops accumulating regret, the jointly
// private Gaussian variant pays for privacy with a larger regret.
func ExampleNewPolicy() {
	const d, k, n = 3, 9, 5000
	regret := map[ss18.Alg]float64{}
	for _, alg := range []ss18.Alg{ss18.NonPrivate, ss18.Gaussian} {
		env, _ := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: d, K: k, Gap: 0.1}, bandit.Stream(1, bandit.StreamID(0, 0)))
		pol, err := ss18.NewPolicy(ss18.PolicyConfig{
			Alg:     alg,
			Setting: ss18.Setting{D: d, N: n, Epsilon: 1, Delta: 0.1, Lt2: 2},
			Mode:    counter.Padded,
			Noise:   noise.Simulated,
		}, bandit.Stream(1, bandit.StreamID(0, 1)))
		if err != nil {
			fmt.Println(err)
			return
		}
		out := make([]float64, 1)
		bandit.RegretCurve(env, pol, n, []int{n}, out)
		regret[alg] = out[0]
	}
	fmt.Printf("non-private regret per round below 0.01: %v\n", regret[ss18.NonPrivate]/n < 0.01)
	fmt.Printf("private regret larger: %v\n", regret[ss18.Gaussian] > regret[ss18.NonPrivate])
	// Output:
	// non-private regret per round below 0.01: true
	// private regret larger: true
}
