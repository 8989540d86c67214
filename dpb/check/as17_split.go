package check

import (
	"cmp"
	"math"
	"slices"

	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// splitGrid is the number of splits a ∈ (0, max s_t] counterSplitNoise
// tries besides a = 0 (any a gives a bound; the grid only picks a good one).
const splitGrid = 200

// counterSplitNoise returns a sharper privacy term for DP-FTRL's (ε, δ)
// variant on a continual counter than [as17.FTRLCounterBound]'s
// w·min(U, cηΣ_t s_t), and the split a it is attained at. It is
// [as17.FTRLCounterBound]'s two bounds combined (AS17 Theorem 3.4's proof,
// eq. (1), for a part of the noise; the stability bound (b) for the rest):
//
// E Σ⟨l_t, x_t⟩ depends on the noise only through the law of each
// Z_{t−1} ~ s_t G (s_t = σ√V_{t−1}, s_1 = 0), so any coupling may be used.
// For a constant a ≥ 0 write Z_{t−1} = aG + D_t with G ~ N(0, I_N) one
// draw for every t and D_t ~ d_t G', d_t = √(s_t² − a²) (D_t independent
// of G) when s_t ≥ a, D_t = −(a − s_t)G, d_t = a − s_t, when s_t < a.
// x̃_t = argmin η⟨x, L_{t−1} + aG⟩ + R(x) is FTRL with the fixed
// regulariser R/η + a⟨G, ·⟩ (Theorem 3.4 with one draw of D' = N(0, a²I)):
// regret ≤ D_R/η + ηTG² + w·a, w = E[W(G)] ([as17.GaussianWidth]). x_t is
// x̃_t with L moved by D_t, and |⟨l_t, x(L + z) − x(L)⟩| ≤ η·S(z) for every
// l ∈ 𝒴 with
//
//   - simplex (Hedge): S(z) = W(z)/2 ([as17.FTRLNoiseLipschitz]);
//   - ball: x = Π_ball(−ηL/2) is (η/2)-Lipschitz in ℓ2 and ‖l‖₂ ≤ 1:
//     S(z) = ‖z‖₂/2 = W(z)/4;
//   - cube: x = clip(−ηL/2) moves each coordinate by ≤ η|z_i|/2 and
//     ‖l‖₁ ≤ 1: S(z) = ‖z‖_∞/2, where [as17.FTRLNoiseLipschitz] uses
//     ‖z‖_∞ ≤ ‖z‖₁ = W(z)/2.
//
// So E[regret] ≤ D_R/η + ηTG² + w·a + η·E[S(G)]·Σ_{t=1}^T d_t for every a:
// a = 0 is bound (b); for the padded tree (s_t constant) a = s is bound
// (a). The plain tree's and Honaker's s_t rise and fall with the bits of t;
// there (a) pays for every rise and (b) for the whole noise at first order,
// the split only for the part of each s_t above (or below) a. The result is
// the smaller of this minimum over a and FTRLCounterBound's term.
func counterSplitNoise(set as17.DecisionSet, n, horizon int, eta, sigma float64, kind counter.Kind, q as17.FTRLCounterBound) (noiseTerm, split float64, err error) {
	if q.Which != "stability" {
		// (a) is the smaller: s_t nondecreasing or constant (the padded tree,
		// smooth, square root, BLT), U = s_T, and no split is tried.
		return q.Noise, 0, nil
	}
	vs, err := varianceCounts(kind, horizon)
	if err != nil {
		return 0, 0, err
	}
	w := as17.GaussianWidth(set, n)
	var es float64 // E[S(G)]
	switch set {
	case as17.Cube:
		es = gaussianMaxAbs(n) / 2
	default:
		es = as17.FTRLNoiseLipschitz(set) * w
	}
	noiseTerm = q.Noise
	for k := 0; k <= splitGrid; k++ {
		a := q.MaxSD * float64(k) / splitGrid
		var sum float64
		for _, vc := range vs {
			st := float64(sigma * math.Sqrt(vc.v))
			d := a - st
			if st >= a {
				d = math.Sqrt(float64(st*st) - float64(a*a))
			}
			sum += float64(float64(vc.n) * d)
		}
		if v := float64(w*a) + float64(eta*es*sum); v < noiseTerm {
			noiseTerm, split = v, a
		}
	}
	return noiseTerm, split, nil
}

// varianceCount is one distinct release variance V and how many of the
// rounds t = 1..T read a release of it (s_t = σ√V_{t−1}; V_0 = 0 for s_1).
type varianceCount struct {
	v float64
	n int
}

// varianceCounts returns the distinct V_{t−1}, t = 1..T, of the counter
// kind over horizon T with their counts, sorted by V (the plain tree's and
// Honaker's take at most 1 + ⌈log₂T⌉ values).
func varianceCounts(kind counter.Kind, horizon int) ([]varianceCount, error) {
	c, err := counter.New(counter.Config{Kind: kind, Dim: 1, Horizon: horizon, Noise: noise.ZeroNoise{N: 1}})
	if err != nil {
		return nil, err
	}
	count := map[float64]int{0: 1}
	for t := 1; t < horizon; t++ {
		count[c.VarianceAt(t)]++
	}
	vs := make([]varianceCount, 0, len(count))
	for v, n := range count {
		vs = append(vs, varianceCount{v, n})
	}
	slices.SortFunc(vs, func(x, y varianceCount) int { return cmp.Compare(x.v, y.v) })
	return vs, nil
}

// gaussianMaxAbs returns E[max_{i≤n} |G_i|] for G ~ N(0, I_n):
// ∫_0^∞ 1 − erf(x/√2)^n dx by Simpson's rule on [0, 12] (the integrand is
// below n·1e-32 beyond; 2400 panels).
func gaussianMaxAbs(n int) float64 {
	const b, k = 12.0, 2400
	h := b / k
	f := func(x float64) float64 { return 1 - xmath.Pow(math.Erf(x/math.Sqrt2), float64(n)) }
	sum := f(0) + f(b)
	for i := 1; i < k; i++ {
		wt := 2.0
		if i%2 == 1 {
			wt = 4
		}
		sum += float64(wt * f(float64(float64(i)*h)))
	}
	return sum * h / 3
}
