package nb

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Coding exercises. A notebook's exercise asks the reader to write a small
// function (a counter's node count, a radius, a calibration) and a %test cell
// grades it with [Agree]: the reader's function against the library's on
// inputs drawn from a fixed seed. The committed notebooks hold worked
// solutions between "// BEGIN SOLUTION" and "// END SOLUTION"; dpb course
// writes the versions handed to students, where each region is a stub.

// Draw draws the random inputs of an exercise's test (see [Agree]).
type Draw struct{ r *rand.Rand }

// Uniform returns a number uniform on [lo, hi).
// (The product is rounded before the add, so no build fuses it into an FMA:
// the inputs are the same bits on every CPU, see .ci/fma-check.)
func (d Draw) Uniform(lo, hi float64) float64 { return lo + float64((hi-lo)*d.r.Float64()) }

// LogUniform returns a number whose logarithm is uniform on [ln lo, ln hi)
// (lo, hi > 0): every order of magnitude equally often.
func (d Draw) LogUniform(lo, hi float64) float64 {
	return math.Exp(d.Uniform(math.Log(lo), math.Log(hi)))
}

// Int returns an integer uniform on [lo, hi] (inclusive).
func (d Draw) Int(lo, hi int) int { return lo + d.r.IntN(hi-lo+1) }

// Floats returns n numbers uniform on [lo, hi).
func (d Draw) Floats(n int, lo, hi float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = d.Uniform(lo, hi)
	}
	return v
}

// Normal returns n independent standard normal numbers.
func (d Draw) Normal(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = d.r.NormFloat64()
	}
	return v
}

// AgreeSeed seeds the inputs of every [Agree] check: a reader's function
// meets the same inputs on every run.
const AgreeSeed = 53

// Agree checks an exercise: the reader's function got against the library's
// want on n inputs drawn by gen from a stream seeded with [AgreeSeed] (the
// same inputs on every run). It reports the first input on which same
// rejects the two results, or on which got panics (an exercise's stub panics
// with "exercise: write this"), as a test failure, so the %test cell prints
// "--- FAIL"; it logs one line when every input agrees. what names the
// exercise.
func Agree[In, Out any](t T, what string, n int, gen func(Draw) In, got, want func(In) Out, same func(got, want Out) bool) bool {
	t.Helper()
	d := Draw{rand.New(rand.NewPCG(AgreeSeed, uint64(len(what))))}
	for i := range n {
		in := gen(d)
		w := want(in)
		g, err := call(got, in)
		if err != nil {
			t.Errorf("not yet: %s — on input %v your function %v", what, in, err)
			return false
		}
		if !same(g, w) {
			t.Errorf("not yet: %s — on input %v (draw %d of %d) yours gives %v, the library %v", what, in, i+1, n, g, w)
			return false
		}
	}
	t.Logf("right: %s — agrees with the library on %d random inputs", what, n)
	return true
}

// call returns f(in), or the panic it raised as an error.
func call[In, Out any](f func(In) Out, in In) (out Out, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panicked: %v", p)
		}
	}()
	return f(in), nil
}

// Near returns a comparison of numbers that accepts a relative difference
// up to relTol (of the larger magnitude), and equal infinities; NaN never
// agrees.
func Near(relTol float64) func(got, want float64) bool {
	return func(got, want float64) bool {
		if math.IsNaN(got) || math.IsNaN(want) {
			return false
		}
		if got == want {
			return true
		}
		return math.Abs(got-want) <= relTol*math.Max(math.Abs(got), math.Abs(want))
	}
}

// NearAll is [Near] for slices: equal lengths, every entry within relTol
// (relative to the largest magnitude in want, so entries near 0 compare on
// the vector's scale).
func NearAll(relTol float64) func(got, want []float64) bool {
	return func(got, want []float64) bool {
		if len(got) != len(want) {
			return false
		}
		scale := 0.0
		for _, w := range want {
			scale = math.Max(scale, math.Abs(w))
		}
		for i := range got {
			if math.IsNaN(got[i]) || math.Abs(got[i]-want[i]) > relTol*scale {
				return false
			}
		}
		return true
	}
}

// Same is the comparison of comparable results: equality.
func Same[V comparable](got, want V) bool { return got == want }

// SameAll is the comparison of slices of comparable values: equal entries.
func SameAll[V comparable](got, want []V) bool { return slices.Equal(got, want) }
