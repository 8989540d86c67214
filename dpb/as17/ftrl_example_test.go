package as17_test

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// DP-FTRL for prediction with expert advice (AS17 Corollary 3.2): the
// private learner's regret exceeds the non-private one's by an amount that
// does not grow like √T.
func ExampleNewFTRL() {
	const n, T = 4, 1 << 14
	regret := func(eps float64) float64 {
		f, err := as17.NewFTRL(as17.FTRLConfig{Set: as17.Simplex, Dim: n, Horizon: T, Epsilon: eps, Noise: noise.Simulated}, bandit.Stream(1, 1))
		if err != nil {
			panic(err)
		}
		losses, _ := as17.NewLosses(as17.LossConfig{Set: as17.Simplex, Dim: n}, bandit.Stream(1, 0))
		out := make([]float64, 1)
		if err := as17.OLORegretCurve(f, as17.Simplex, losses, T, []int{T}, out); err != nil {
			panic(err)
		}
		return out[0]
	}
	np, p := regret(math.Inf(1)), regret(1)
	fmt.Println("non-private regret below √(T log N) + 1:", np < math.Sqrt(T*math.Log(n))+1)
	fmt.Println("private regret below T/10:", p < T/10)
	// Output:
	// non-private regret below √(T log N) + 1: true
	// private regret below T/10: true
}

// Private EXP2 (AS17 Theorem 4.1) on a 4-armed bandit: Algorithm 4 adds
// Lap(1/ε) noise to each observed loss before EXP2 sees it.
func ExampleNewPrivateExp2() {
	const n, T = 4, 1 << 15
	b, err := as17.NewPrivateExp2(as17.Exp2Config{Arms: n, Horizon: T, Epsilon: 1, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if err != nil {
		panic(err)
	}
	losses, _ := as17.NewLosses(as17.LossConfig{Set: as17.Simplex, Dim: n}, bandit.Stream(1, 0))
	out := make([]float64, 1)
	if err := as17.BanditRegretCurve(b, as17.Simplex, losses, T, []int{T}, out); err != nil {
		panic(err)
	}
	fmt.Println("regret below a quarter of uniform play's:", out[0] < 0.75*T/4)
	// Output:
	// regret below a quarter of uniform play's: true
}
