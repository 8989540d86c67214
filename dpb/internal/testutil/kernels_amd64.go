//go:build amd64 && !purego

package testutil

import (
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// Prep5x4Case is one lane's input to CholInv5x4AVX2 and PrepareFactors5.
type Prep5x4Case struct {
	V  [25]float64
	U  [5]float64
	Mt [37]float64
}

// DrawPrep5x4Case draws a lane's V_t as TestPrepareFactors5SameBits does
// (DrawGram5), a standard normal ũ, and an AwkwardFloat (−0, NaN, a huge or
// tiny normal) in one entry of V or ũ one time in four; mt's entries are
// random (the kernel must leave all but M's lower triangle as they are).
func DrawPrep5x4Case(rng *rand.Rand, trial int) Prep5x4Case {
	c := Prep5x4Case{V: DrawGram5(rng, trial)}
	for i := range c.U {
		c.U[i] = rng.NormFloat64()
	}
	switch rng.IntN(8) {
	case 0:
		c.V[rng.IntN(25)] = testkit.AwkwardFloat(rng)
	case 1:
		c.U[rng.IntN(5)] = testkit.AwkwardFloat(rng)
	}
	for i := range c.Mt {
		c.Mt[i] = rng.NormFloat64()
	}
	return c
}

// ZigKernel is one setting of ZigFast's switch, with the kernel it selects.
type ZigKernel struct {
	Name   string
	Ok     bool // the CPU has it
	scalar bool
	Fn     func([]float64, uint64) (int, uint64, uint64)
}

func ZigKernels() []ZigKernel {
	return []ZigKernel{
		{"go", true, false, simd.ZigFastGo},
		{"scalar", simd.HasAVX2FMA() && simd.HasBMI12(), true, simd.ZigFastScalar},
	}
}

// Use sets ZigFast's switch to k's and returns a function that restores it.
func (k ZigKernel) Use() (restore func()) {
	s := simd.ZigScalar
	simd.ZigScalar = k.scalar
	return func() { simd.ZigScalar = s }
}

// ZigFill fills dst from the wyrand state s with the kernel fn, finishing
// each draw it hands back with NormSlow, as NormalsTo does. It returns how
// many draws NormSlow finished (with the Go loop: every draw whose first
// word is off the fast path) and the final state.
func ZigFill(fn func([]float64, uint64) (int, uint64, uint64), dst []float64, s uint64) (slow int, next uint64) {
	f := noise.FastRand{S: s}
	for {
		n, st, u := fn(dst, f.S)
		f.S = st
		if n == len(dst) {
			return slow, f.S
		}
		dst[n] = f.NormSlow(u)
		slow++
		dst = dst[n+1:]
	}
}
