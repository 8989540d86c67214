package dpb_test

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb"
)

// DP-FTRL for prediction with expert advice (AS17 Corollary 3.2): the
// private learner's regret exceeds the non-private one's by an amount that
// does not grow like √T.
func ExampleNewFTRL() {
	const n, T = 4, 1 << 14
	regret := func(eps float64) float64 {
		f, err := dpb.NewFTRL(dpb.FTRLConfig{Set: dpb.Simplex, Dim: n, Horizon: T, Epsilon: eps}, dpb.Stream(1, 1))
		if err != nil {
			panic(err)
		}
		losses, _ := dpb.NewLosses(dpb.LossConfig{Set: dpb.Simplex, Dim: n}, dpb.Stream(1, 0))
		out := make([]float64, 1)
		if err := dpb.OLORegretCurve(f, dpb.Simplex, losses, T, []int{T}, out); err != nil {
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
	b, err := dpb.NewPrivateExp2(dpb.Exp2Config{Arms: n, Horizon: T, Epsilon: 1}, dpb.Stream(1, 1))
	if err != nil {
		panic(err)
	}
	losses, _ := dpb.NewLosses(dpb.LossConfig{Set: dpb.Simplex, Dim: n}, dpb.Stream(1, 0))
	out := make([]float64, 1)
	if err := dpb.BanditRegretCurve(b, dpb.Simplex, losses, T, []int{T}, out); err != nil {
		panic(err)
	}
	fmt.Println("regret below a quarter of uniform play's:", out[0] < 0.75*T/4)
	// Output:
	// regret below a quarter of uniform play's: true
}
