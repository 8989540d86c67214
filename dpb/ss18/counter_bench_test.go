package ss18

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// BenchmarkCounterStep measures one round (Add then SumTo) of each counter
// on packed symmetric 6×6 matrices (dim 21: SS18 at d = 5) with the
// symmetrised Gaussian node noise, as the SS18 regularizer runs it. The
// exact square root's round costs O(t·dim); it runs at horizon 2¹³ (mean t
// ≈ 4096), the others at 2²⁰.
func BenchmarkCounterStep(b *testing.B) {
	const n1 = 6
	dim := simd.PackedLen(n1)
	for _, kind := range counter.Kinds {
		b.Run(kind.String(), func(b *testing.B) {
			horizon := 1 << 20
			if kind == counter.Sqrt {
				horizon = 1 << 13
			}
			rng := rand.New(rand.NewPCG(1, 2))
			nz, _ := noise.New(noise.Config{Law: noise.SymGaussianLaw, Mode: noise.Simulated, N: n1, Sigma: 1}, rng)
			benchCounterStep(b, func() (counter.Counter, error) {
				return counter.New(counter.Config{Kind: kind, Dim: dim, Horizon: horizon, Noise: nz})
			})
		})
	}
}

// benchCounterStep times one round (Add then SumTo) of the counters newC
// builds, a fresh one whenever the horizon is reached (off the clock).
func benchCounterStep(b *testing.B, newC func() (counter.Counter, error)) {
	c, err := newC()
	if err != nil {
		b.Fatal(err)
	}
	z := make([]float64, c.Dim())
	dst := make([]float64, c.Dim())
	for i := range z {
		z[i] = 0.01 * float64(i)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if c.Rounds() == c.Horizon() {
			b.StopTimer()
			c, _ = newC()
			b.StartTimer()
		}
		c.Add(z)
		c.SumTo(dst)
	}
}

// BenchmarkLinUCBCounterStep times one step of private LinUCB with the
// exactly calibrated Gaussian regularizer on each counter, d = 5, K = 25
// (pre-drawn decision sets, as BenchmarkLinUCBPrivateStep). The exact
// square root is left out: its round costs O(t·dim) and its horizon is
// capped at MaxSqrtHorizon (the BLT stands in for it).
func BenchmarkLinUCBCounterStep(b *testing.B) {
	s := Setting{D: 5, N: 50_000_000, Epsilon: 1, Delta: 0.1, Lt2: 2}
	for _, kind := range counter.Kinds {
		if kind == counter.Sqrt {
			continue
		}
		b.Run(fmt.Sprintf("counter=%v/d=5/K=25", kind), func(b *testing.B) {
			reg, err := NewRegularizer(RegularizerConfig{Kind: RegGaussianCounter, Setting: s, Counter: kind, Noise: noise.Simulated}, bandit.Stream(1, 1))
			if err != nil {
				b.Fatal(err)
			}
			benchStep(b, reg, 5, 25)
		})
	}
}

// TestCounterRegularizerNoAllocs: streaming a round into the calibrated
// regularizer and reading the statistics allocate nothing, on every counter.
func TestCounterRegularizerNoAllocs(t *testing.T) {
	s := Setting{D: 5, N: 4096, Epsilon: 1, Delta: 0.1, Lt2: 2}
	x := []float64{0.1, 0.2, 0.3, 0.4, 0.5}
	v, u := make([]float64, 25), make([]float64, 5)
	for _, kind := range counter.Kinds {
		reg, err := NewRegularizer(RegularizerConfig{Kind: RegGaussianCounter, Setting: s, Counter: kind, Noise: noise.Simulated}, bandit.Stream(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		if a := testing.AllocsPerRun(500, func() {
			reg.Add(x, 0.5)
			reg.StatsTo(v, u)
		}); a != 0 {
			t.Errorf("%v: %v allocations per round", kind, a)
		}
	}
}
