package counter

import (
	"math"

	dpnoise "github.com/dpbandits/dpbandits/dpb/noise"
)

// The grid wrapper: how the node counters run on secure noise.
//
// A counter whose node noise is [dpnoise.Gridded] (the exact discrete
// Laplace or Gaussian of [dpnoise.SecureNoise] on the grid g·Z, g a power of
// two) rounds every entry of every added value to the nearest multiple of g
// (ties to even) before it enters any sum, in the one function
// [gridAdd] that [TreeSum], [KaryTree], [SmoothBinary] and [HonakerTree]
// share. Then:
//
//  1. Measurements. Each node's noisy value y_v = Σ_{s∈v} ⌊z_s⌉_g + g·k_v
//     (k_v the node's integer draw) is an exact multiple of g, computed
//     without rounding error while every partial sum stays below 2⁵³·g in
//     magnitude (2³² at noise scale 1: g = 2^(⌊log₂ scale⌋−20)). The vector
//     of node values (y_v) is the discrete Laplace or Gaussian mechanism on
//     the integer statistic (Σ_{s∈v} ⌊z_s⌉_g / g)_v, whose law is exactly the
//     discrete law (no floating-point step touches the draw).
//  2. Sensitivity. Two neighbouring streams differ in one record; their
//     rounded records differ by at most Δ + g per entry beyond the exact
//     difference Δ, so the rounded record's ℓ1 change is at most Δ₁ + dim·g
//     and its ℓ2 change at most Δ₂ + g√dim, in each of the nodes the record
//     enters (the counter's Cost is unchanged: rounding does not change
//     which nodes a record enters). The secure constructors
//     ([dpnoise.NewSecureLaplaceNoise], [dpnoise.NewSecureGaussianNoise])
//     inflate the discrete scale by exactly that much, so each node is at
//     least as private as the continuous node it replaces, and the
//     composition over the nodes a record enters (the Counter comment) gives
//     the same ε (the discrete Laplace of scale τ is (Δ₁/τ)-DP for integer
//     ℓ1 sensitivity Δ₁, by the continuous one's ratio bound) or the same
//     zCDP ρ (the discrete Gaussian, Canonne, Kamath & Steinke 2020, Thms 4
//     and 14) as the simulated calibration claims.
//  3. Post-processing. Every release is a deterministic function of the
//     node values drawn so far: the tree, the k-ary tree and the smooth
//     binary mechanism release an integer-coefficient sum of node values,
//     and since all terms are exact multiples of g the floating-point sum
//     of exact sum and node noises they compute equals that sum of node
//     values exactly (g·(integer sum + integer noise)); Honaker's estimator
//     has non-integer weights, so in secure mode it is computed from the
//     noisy node values themselves (see [HonakerTree]), never from the
//     exact sum. A function of the private node values is as private as
//     they are (Dwork & Roth 2014, Prop. 2.1), including the float rounding
//     of that function.
//
// The Toeplitz counters ([NewSqrtCounter], [NewBLTCounter]) do not fit this
// shape: their measurements (Cz)_t have non-integer coefficients, so
// rounding them needs a bound on the floating-point error of computing Cz
// from the data, which depends on the data's magnitude that a counter does
// not know. They refuse gridded noise ([dpnoise.RejectGridded]).

// gridOf returns the grid spacing of gridded (secure) node noise, 0 for any
// other noise.
func gridOf(noise dpnoise.Noise) float64 {
	if g, ok := noise.(dpnoise.Gridded); ok {
		return g.Grid()
	}
	return 0
}

// gridAdd adds z into sum, each entry rounded to the nearest multiple of g
// (ties to even) when g > 0, as is when g == 0. It allocates nothing.
func gridAdd(sum, z []float64, g float64) {
	if g > 0 {
		for j, v := range z {
			sum[j] += float64(math.RoundToEven(v/g) * g) // exact: g is a power of two
		}
		return
	}
	for j, v := range z {
		sum[j] += v
	}
}
