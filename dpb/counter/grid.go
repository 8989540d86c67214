package counter

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// The grid wrapper: how the node counters run on secure noise.
//
// A counter whose node noise is [noise.Gridded] (the exact discrete
// Laplace or Gaussian of [noise.SecureNoise] on the grid g·Z, g a power of
// two) rounds every entry of every added value to the nearest multiple of g
// (ties to even) before it enters any sum, in the one function
// [gridAdd] that [TreeSum], [KaryTree], [SmoothBinary] and [HonakerTree]
// share. Then:
//
//  1. Measurements. Each node's noisy value y_v = Σ_{s∈v} ⌊z_s⌉_g + g·k_v
//     (k_v the node's integer draw) is an exact multiple of g. Its data part
//     is computed without rounding error because every sum of rounded
//     records the counter forms (the prefix sum S_t, Honaker's node data
//     sums) is checked to stay below 2⁵³·g in magnitude, and every sum of
//     node draws (a release's noise, the padding) below 2⁵²·g: a sum of two
//     grid multiples whose computed value is below 2⁵³·g in magnitude is
//     exact (rounding is monotone and 2⁵³·g is a float, so an exact value at
//     or above it would round to at least 2⁵³·g; below it, every multiple of
//     g is a float). A record, or a sum, at or beyond the limit is refused
//     before the counter changes: Add panics with [beyondExact] (the data
//     bound is the caller's to validate; 2⁵³·g is 2³³ at noise scale 1: g =
//     2^(⌊log₂ scale⌋−20)). Past the limit the sums would round, and
//     neighbouring records 2g apart could give sums 4g apart, outside the
//     sensitivity bound of step 2. The noise checks are data-independent (a
//     draw of 2³¹ noise scales, probability below 2^(−2³⁰)). Only the last
//     addition of a release, data part plus noise part, may round: IEEE
//     addition is correctly rounded, so its result is a function of the
//     exact sum g·(integer sum + integer noise), that is post-processing.
//     The vector of node values (y_v) is the discrete Laplace or Gaussian
//     mechanism on the integer statistic (Σ_{s∈v} ⌊z_s⌉_g / g)_v, whose law
//     is exactly the discrete law (no floating-point step touches the draw).
//  2. Sensitivity. Two neighbouring streams differ in one record; their
//     rounded records differ by at most Δ + g per entry beyond the exact
//     difference Δ, so the rounded record's ℓ1 change is at most Δ₁ + dim·g
//     and its ℓ2 change at most Δ₂ + g√dim, in each of the nodes the record
//     enters (the counter's Cost is unchanged: rounding does not change
//     which nodes a record enters). The secure constructors
//     ([noise.NewSecureLaplaceNoise], [noise.NewSecureGaussianNoise])
//     inflate the discrete scale by exactly that much, so each node is at
//     least as private as the continuous node it replaces, and the
//     composition over the nodes a record enters (the Counter comment) gives
//     the same ε (the discrete Laplace of scale τ is (Δ₁/τ)-DP for integer
//     ℓ1 sensitivity Δ₁, by the continuous one's ratio bound) or the same
//     zCDP ρ (the discrete Gaussian, Canonne, Kamath & Steinke 2020, Thms 4
//     and 14) as the simulated calibration claims. The (ε, δ) a Gaussian
//     calibration states is the continuous Gaussian's exact curve, which
//     zCDP does not imply; for the discrete noise it is replaced by
//     accounting.DiscreteGaussianDelta: the continuous curve plus (1 + e^ε)
//     times the total variation between the discrete Gaussians a record
//     moves and rounded continuous ones ([DiscreteEpsilon], which the
//     mechanisms' Privacy() report: 3.9·10⁻¹¹ more δ at ε = 1 for SS18's
//     tree at Fig. 4's setting, 7.2·10⁻⁶ for the BLT counter at n = 5·10⁶).
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
// The Toeplitz measurements: how the square-root and BLT counters
// ([ToeplitzCounter]) run on secure noise.
//
// Their measurements y = Cw (c_0 = 1, A = BC) have non-integer
// coefficients, so a measurement cannot be a sum of grid multiples; it is
// computed in floating point, with an a-priori error bound, and rounded. On
// gridded node noise (the discrete Gaussian of [noise.SecureNoise]; the
// discrete Laplace is refused: n rounded measurements cost n·dim·g in ℓ1)
// and a data bound B ([DataBound]; without one the constructors refuse
// gridded noise), round t does:
//
//  1. Record. w_t = ⌊clip_B(z_t)⌉_g entry by entry (or Add panics outside
//     [−B, B] without Clip), so |w_t,j| ≤ B + g/2 < B′ = B + g. Clipping
//     is 1-Lipschitz, so a neighbouring record moves w by at most the
//     record's own change plus g per entry: ℓ2 at most Δ₂ + g√dim.
//  2. Measurement. ŷ_t ≈ (Cw)_t is computed in floating point from
//     w_1..w_t only, with |ŷ_t − (Cw)_t| ≤ e for every stream within the
//     bound ([ToeplitzCounter.ErrorBound]; u = 2⁻⁵³, Y = B′·Σ_j|c_j| ≥
//     |(Cw)_t|; every bound is computed from nonnegative terms and doubled,
//     which covers the rounding of its own computation):
//     - square root: ŷ_t = Σ_{j<t} c_j w_{t−j} by recursive summation, so
//       |ŷ_t − (Cw)_t| ≤ γ_n Σ_j |c_j||w_{t−j}| ≤ γ_n·Y (Higham, Accuracy
//       and Stability of Numerical Algorithms, 2002, Eq. 3.5; γ_n =
//       nu/(1 − nu)), plus 2⁻¹⁰⁷³ per product that underflows:
//       e = 2(nuY + n·2⁻¹⁰⁷³).
//     - BLT: y = B⁻¹S with S_t = Σ_{s≤t} w_s (exact: grid multiples below
//       2⁵¹g), y_t = S_t − Σ_i ω_i U_i,t, U_i,t = λ_i(U_i,t−1 + y_{t−1}),
//       in double-word arithmetic (Joldes, Muller & Popescu, ACM TOMS
//       2017: each addition and each product by a float has relative error
//       ≤ κ = 4u², Algs. 6 and 9). With Ḡ_i = min(n, 1/(1−λ_i)) ≥ Σ_{j<n}λ_i^j,
//       |U_i,t| ≤ YḠ_i. Write the computed values as the exact recursion
//       plus local errors: α_i,t in the update of U_i (two operations,
//       |α| ≤ 3κλ_i(|Û_i| + |ŷ|)) and β_t in the sum (K products and K
//       additions, |β_t| ≤ 2(K+1)κ(|S_t| + Σ_i|ω_i||Û_i,t|)). The errors
//       ε_t = ŷ_t − y_t then satisfy Bε = r, r_t = β_t − Σ_i ω_i Σ_{s≤t}
//       λ_i^{t−s} α_i,s, so ε = B⁻¹r and |ε_t| ≤ D·max|r|, D = Σ_{j<n}
//       |c_j − c_{j−1}| the ℓ1 norm of B⁻¹ = CA⁻¹'s kernel. By induction on
//       t, while ē ≤ Y/2 and 6κ(Ḡ_i + 1) ≤ 1/2 (checked at construction),
//       |Û_i| ≤ 2YḠ_i and |ŷ| ≤ 2Y, so
//       r̄ = 6κY Σ_i|ω_i|Ḡ_i(Ḡ_i+1) + 2(K+1)κ(nB′ + 2YΣ_i|ω_i|Ḡ_i)
//       + (4Σ_i|ω_i|Ḡ_i + 4(K+1))·2⁻¹⁰⁷³ (underflows), ē = 2D·r̄, and
//       rounding the double-word ŷ_t to its high part adds u(Y + ē):
//       e = ē + 2u(Y + ē).
//  3. Noisy measurement. m_t = ⌊ŷ_t⌉_g + g·k_t, k_t the node's integer
//     draw: an exact multiple of g while |ŷ_t|, |g k_t| stay below 2⁵¹g
//     (the bound is checked at construction: (Y + e)/g ≤ 2⁵¹). So m is the
//     discrete Gaussian mechanism on the integer statistic q_t = ⌊ŷ_t⌉_g/g.
//  4. Sensitivity. Streams differing in the record of round s have the
//     same q_t for t < s (ŷ_t depends on w_1..w_t only) and, for t ≥ s,
//     |Δq_t,j|·g ≤ |c_{t−s}||Δw_s,j| + 2e + g per entry: each ŷ is within
//     e of its exact value and each rounding moves it by at most g/2. The
//     bounds hold whatever the earlier outputs were (adaptive data: C is
//     lower triangular, the Counter comment). Over all measurements, with
//     σ_j the entries' continuous σ, Minkowski's inequality gives the
//     weighted ℓ2 change (Σ_t Σ_j Δ_t,j²/σ_j²)^{1/2} at most
//     ‖c‖₂·(M + g√dim/min σ) + √(dim·n)·(2e + g)/min σ, M the continuous
//     per-record weighted sensitivity (≥ sens/max σ, sens attained). So
//     the noise built by [noise.NewSecureGaussianNoiseSlack] with slack
//     √(dim·n)(2e + g)/‖c‖₂ ([ToeplitzSlack]; the constructors refuse
//     noise that pays less) scales every σ by f = 1 + (g√dim + slack)·
//     (max σ/min σ)/sens, and the whole measurement sequence has at most
//     the zCDP ρ (CKS20 Thms 4 and 14) of the continuous calibration
//     μ = ‖c‖₂M, as for the node counters above. The cost over the
//     horizon is the √n·(g + 2e) of the slack, e ≪ g at the grids used.
//  5. Post-processing. The release is (Bm)_t = Σ_{j<t} b_j m_{t−j}
//     (square root) or m_t + Σ_i ω_i R_i,t with R_i,t = λ_i(R_i,t−1 +
//     m_{t−1}) (BLT), computed from the noisy measurements alone, never
//     from the exact sum; its floating-point rounding is part of the
//     function. It estimates A w: B(Cw + ρ + gk) = Aw + B(ρ + gk), ρ the
//     rounding, |ρ_t| ≤ e + g/2.

// gridOf returns the grid spacing of gridded (secure) node noise, 0 for any
// other noise.
func gridOf(nz noise.Noise) float64 {
	if g, ok := nz.(noise.Gridded); ok {
		return g.Grid()
	}
	return 0
}

// exactSteps is 2⁵³: every multiple kg of a power of two g with |k| ≤ 2⁵³
// is a float64, so a sum of grid multiples whose value is below 2⁵³·g in
// magnitude is computed exactly.
const exactSteps = 0x1p53

// beyondExact is the panic of a secure node counter's Add on a record, or a
// sum of records, of 2⁵³ grid steps or more (or NaN); beyondExactNoise on
// a sum of node draws of 2⁵² grid steps or more.
const (
	beyondExact      = "counter: a record or a sum of records of the secure counter reaches 2⁵³ grid steps (or is NaN or infinite): beyond exact float64 arithmetic, which the grid proof needs; the data are too large for the secure grid of this noise scale"
	beyondExactNoise = "counter: a sum of the secure counter's node draws reaches 2⁵² grid steps (a data-independent event of probability below 2^(−2³⁰)): beyond exact float64 arithmetic"
)

// gridAdd adds z into sum, each entry rounded to the nearest multiple of g
// (ties to even) when g > 0, as is when g == 0. With g > 0 it first checks
// every rounded entry and every new sum against 2⁵³·g ([exactSteps]) and
// panics with [beyondExact], leaving sum unchanged, when one reaches it. It
// allocates nothing.
func gridAdd(sum, z []float64, g float64) {
	if g > 0 {
		lim := exactSteps * g
		for j, v := range z {
			r := float64(math.RoundToEven(v/g) * g) // exact: g is a power of two
			if !(math.Abs(r) < lim && math.Abs(sum[j]+r) < lim) {
				panic(beyondExact)
			}
		}
		for j, v := range z {
			sum[j] += float64(math.RoundToEven(v/g) * g) // exact: checked above
		}
		return
	}
	for j, v := range z {
		sum[j] += v
	}
}

// checkNoiseSum panics with [beyondExactNoise] when an entry of v, a sum of
// node draws on grid g > 0, is not below 2⁵²·g in magnitude (so that it was
// computed exactly, and so is a sum of two such). It does nothing when
// g == 0 (simulated noise).
func checkNoiseSum(v []float64, g float64) {
	if g == 0 {
		return
	}
	l := exactSteps / 2 * g
	for _, x := range v {
		if !(math.Abs(x) < l) {
			panic(beyondExactNoise)
		}
	}
}

// onGrid returns an error naming what when an entry of v is not a multiple
// of the grid g > 0 below lim·g in magnitude: a restored secure state must
// meet the grid proof's invariants (every sum of records a multiple of g
// below 2⁵³g, every sum of draws below 2⁵²g), or the next Add would refuse
// it or, off the grid, compute it inexactly.
func onGrid(what string, v []float64, g, lim float64) error {
	for _, x := range v {
		if k := x / g; !(math.Abs(k) < lim) || k != math.Trunc(k) {
			return fmt.Errorf("counter: snapshot %s entry %v is not a multiple of the secure grid %v below %v grid steps", what, x, g, lim)
		}
	}
	return nil
}

// gridState checks a restored secure node counter's sums (no-op on
// simulated noise): exact is the sum of records; noise lists the sums of
// node draws. Honaker's node data sums are passed as exact sums too.
func gridState(g float64, exact []float64, noise ...[]float64) error {
	if g == 0 {
		return nil
	}
	if err := onGrid("sum of records", exact, g, exactSteps); err != nil {
		return err
	}
	for _, v := range noise {
		if err := onGrid("sum of node draws", v, g, exactSteps/2); err != nil {
			return err
		}
	}
	return nil
}

// DiscreteEpsilon returns the ε at δ of the counter c on secure discrete
// Gaussian node noise, whose continuous calibration makes a record's
// measurements μ-GDP: accounting.DiscreteGaussianEpsilon with the noise
// coordinates a neighbouring pair can move (the node noise's dimension
// times [MeasurementsPerRecord]) and the smallest discrete σ in grid steps.
// The grid wrapper (and the Toeplitz counters' slack) keep the rounded
// shifts' weighted norm at or below μ, which that bound needs. ok is false
// when c's node noise is not secure discrete Gaussian noise.
func DiscreteEpsilon(c Counter, mu, delta float64) (eps float64, ok bool, err error) {
	st, isState := c.(State)
	if !isState {
		return 0, false, nil
	}
	sn, isSecure := st.NodeNoise().(*noise.SecureNoise)
	if !isSecure || !sn.Gaussian() {
		return 0, false, nil
	}
	smin := uint64(math.MaxUint64)
	for _, s := range sn.Sigmas() {
		smin = min(smin, s)
	}
	eps, err = accounting.DiscreteGaussianEpsilon(mu, delta, sn.Dim()*MeasurementsPerRecord(c), float64(smin))
	return eps, true, err
}
