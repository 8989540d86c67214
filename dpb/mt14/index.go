package mt14

import (
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// Index returns DP-UCB's index of an arm at round t (MT14 Algorithm 1,
// line 10): its private total reward over its pulls, UCB1's exploration
// bonus and the relaxation Γ spread over the pulls,
//
//	r̃_a/n_a + √(2 ln t / n_a) + Γ/n_a.
//
// After each arm's first pull, [DPUCB.Choose] plays the first arm of largest
// index (with gamma = 0 it is UCB1's). pulls must be at least 1.
func Index(total float64, pulls, t int, gamma float64) float64 {
	fc := float64(pulls)
	return total/fc + math.Sqrt(2*xmath.Log(float64(t))/fc) + gamma/fc
}
