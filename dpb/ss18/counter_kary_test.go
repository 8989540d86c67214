package ss18

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// BenchmarkKaryStep: one round (Add then SumTo) at the default arity for
// n = 2²⁰ and at k = 2, 4, 16, dim 1 (DP-UCB) and 21 (SS18 at d = 5), with
// Laplace node noise.
func BenchmarkKaryStep(b *testing.B) {
	const n = 1 << 20
	for _, dim := range []int{1, 21} {
		for _, k := range []int{counter.KaryArity(n), 2, 4, 16} {
			b.Run(fmt.Sprintf("dim=%d/k=%d", dim, k), func(b *testing.B) {
				nz, _ := noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: noise.Simulated, Dim: dim, Scale: 1}, rand.New(rand.NewPCG(1, 2)))
				benchCounterStep(b, func() (counter.Counter, error) {
					return counter.New(counter.Config{Kind: counter.Kary, Dim: dim, Horizon: n, Noise: nz, Arity: k})
				})
			})
		}
	}
}
