package check

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// The reference law of a binary-mechanism counter's noise process, sampled
// by code independent of the objects under test (dpb/noise's samplers,
// dpb/counter's trees, dpb/mt14's scales): MT14 §2.1's plain tree over T
// leaves keeps one node per round t, the dyadic interval of length
// lowbit(t) ending at t, and releases at t the sum of the popcount(t) nodes
// of t's binary expansion. So the release noise is Z_0 = 0,
// Z_t = Z_{t − lowbit(t)} + N_t, with N_1 … N_T i.i.d. Lap(b) — one draw
// per round.

// refLaplace draws Lap(b) by inversion of a uniform in (0, 1) built from
// rng's bits (not rng.ExpFloat64, which dpb/noise's Laplace sampler uses):
// with v = u − ½, x = −b·sign(v)·ln(1 − 2|v|) (xmath.Log: the same bits on
// every build).
func refLaplace(rng *rand.Rand, b float64) float64 {
	u := (float64(rng.Uint64()>>11) + 0.5) / (1 << 53)
	v := u - 0.5
	e := -xmath.Log(1 - float64(2*math.Abs(v)))
	if v < 0 {
		e = -e
	}
	return float64(b * e)
}

// refTreeMaxNoise returns max over trees independent noise processes of
// T rounds each (see above) and over t ≤ T of |Z_t|, with Lap(b) nodes;
// z is scratch of length T + 1.
func refTreeMaxNoise(rng *rand.Rand, T int, b float64, trees int, z []float64) float64 {
	worst := 0.0
	z[0] = 0
	for range trees {
		for t := 1; t <= T; t++ {
			z[t] = z[t-(t&-t)] + refLaplace(rng, b)
			worst = math.Max(worst, math.Abs(z[t]))
		}
	}
	return worst
}

// treeLevelsRef is m = 1 + ⌈log₂ T⌉, the number of nodes a round enters in
// MT14 §2.1's binary mechanism, computed here (not by dpb/counter).
func treeLevelsRef(T int) int { return 1 + bits.Len(uint(T-1)) }

// ksTwoSampleCount returns n·D for two samples of equal size n (sorted in
// place), D their two-sample Kolmogorov–Smirnov distance (ksTwoSample): an
// integer.
func ksTwoSampleCount(x, y []float64) int {
	if len(x) != len(y) {
		panic("check: ksTwoSampleCount needs samples of equal size")
	}
	slices.Sort(x)
	slices.Sort(y)
	return int(math.Round(ksTwoSample(x, y) * float64(len(x))))
}

// ksTwoSampleReject returns the fewest k = n·D that the pass threshold
// rejects for two samples of size n from one continuous law: by Gnedenko
// and Korolyuk (1951), P[n·D⁺ ≥ k] = C(2n, n−k)/C(2n, n) exactly, so
// P[n·D ≥ k] ≤ 2·C(2n, n−k)/C(2n, n) (the two one-sided events), and the
// smallest k with that bound ≤ PassPValue makes a false failure at most
// 10⁻⁵.
func ksTwoSampleReject(n int) int {
	for k := 1; k <= n; k++ {
		if math.Ln2+lchoose(2*n, n-k)-lchoose(2*n, n) <= math.Log(PassPValue) {
			return k
		}
	}
	return n + 1
}

// unionTail returns Σ_{t=1}^{T} P[|Σ_{popcount(t)} Lap(b)| > x] (exact
// tails): over copies independent trees, copies times that — the union
// bound on P[max_{t ≤ T} |Z_t| > x] for the noise process above.
func unionTail(laws []laplaceSum, T, copies int, x float64) float64 {
	var s float64
	for t := 1; t <= T; t++ {
		s += float64(2 * laws[popcount(t)].Tail(x))
	}
	return float64(copies) * s
}

// unionQuantile returns the x with unionTail(x) = p (bisection, 1e-10
// relative): the union bound's (1 − p)-quantile of the maximum.
func unionQuantile(laws []laplaceSum, T, copies int, p float64) float64 {
	lo, hi := 0.0, laws[1].b
	for unionTail(laws, T, copies, hi) > p {
		hi *= 2
	}
	for hi-lo > 1e-10*hi {
		mid := (lo + hi) / 2
		if unionTail(laws, T, copies, mid) > p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}
