package counter

import (
	"math"
	"math/bits"

	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// HonakerTree is the binary-tree counter with Honaker's (2015, "Efficient
// use of differentially private binary trees") variance-optimal estimator,
// in its online form: every node of the dyadic tree gets one independent
// node draw when it closes (round t closes the nodes of levels
// 0..tz(t), tz the number of trailing zeros of t), and a closed node's sum
// is estimated by inverse-variance weighting of its own noisy value and
// the sum of its two children's estimates,
//
//	ŝ_i = w_i y_i + (1 − w_i)(ŝ_left + ŝ_right),   w_i = 2v_{i−1}/(1 + 2v_{i−1}),
//	v_0 = 1,  v_i = w_i,
//
// v_i the variance of ŝ_i in units of one draw (v → 1/2 with the level).
// The release at t sums the estimates of the nodes of the set bits of t,
// variance Σ_{i: bit i of t set} v_i — about half the plain tree's. Given
// the nodes closed by round t (whole subtrees of the decomposition of
// [1, t]) this is the best linear unbiased estimate of S_t (Honaker 2015,
// §3: within a complete subtree the bottom-up recursion is optimal; the
// subtrees are independent). The privacy cost is the plain tree's: a
// record enters one node per level, at most m = TreeLevels(n) nodes.
//
// Cost per round: (tz(t) + 1) node draws and as many O(dim) combinations,
// 2 amortised; nothing allocates after construction.
//
// With secure (gridded) node noise the data are rounded to the grid and the
// recursion runs on the noisy node values y_i = (node's rounded sum) + draw
// themselves, each an exact grid multiple, so every estimate and release is
// a function of the node values alone: post-processing of the discrete
// mechanism (counter_grid.go). The simulated mode runs the same recursion on
// the draws and adds the exact sum, which is equal in exact arithmetic.
type HonakerTree struct {
	dim, horizon, levels int
	noise                noise.Noise
	grid                 float64 // > 0: secure noise (the recursion runs on node values)

	t     int
	exact []float64
	v, w  []float64 // v[i], w[i] per level
	est   []float64 // est[i·dim:]: noise of the estimate of the last closed node of level i (secure: the estimate)
	cum   []float64 // cum[i·dim:]: sum of est over the set bits >= i of t (as TreeSum.cum)
	node  []float64
	acc   []float64
	dat   []float64 // secure only: dat[i·dim:], the rounded data sum of est's node
	accD  []float64 // secure only: the rounded data sum of acc's node
}

// newHonakerTree returns a Honaker-estimator tree counter ([New], Kind
// [Honaker]).
func newHonakerTree(dim, horizon int, nz noise.Noise) (*HonakerTree, error) {
	if err := checkCounterArgs(dim, horizon, nz); err != nil {
		return nil, err
	}
	m := TreeLevels(horizon)
	h := &HonakerTree{
		dim: dim, horizon: horizon, levels: m, noise: nz,
		exact: make([]float64, dim),
		v:     make([]float64, m+1), w: make([]float64, m+1),
		est:  make([]float64, (m+1)*dim),
		cum:  make([]float64, (m+1)*dim),
		node: make([]float64, dim), acc: make([]float64, dim),
		grid: gridOf(nz),
	}
	if h.grid > 0 {
		h.dat, h.accD = make([]float64, (m+1)*dim), make([]float64, dim)
	}
	h.v[0], h.w[0] = 1, 1
	for i := 1; i <= m; i++ {
		h.w[i] = 2 * h.v[i-1] / (1 + 2*h.v[i-1])
		h.v[i] = h.w[i]
	}
	return h, nil
}

// Dim returns the dimension.
func (h *HonakerTree) Dim() int { return h.dim }

// Horizon returns n.
func (h *HonakerTree) Horizon() int { return h.horizon }

// Rounds returns the number of values added.
func (h *HonakerTree) Rounds() int { return h.t }

// Exact returns the exact prefix sum.
func (h *HonakerTree) Exact() []float64 { return h.exact }

// Add appends z as the next round's value. On secure noise it panics, before
// it changes anything, when a rounded entry, the exact sum or the data sum of
// a node that closes would reach 2⁵³ grid steps (grid.go).
func (h *HonakerTree) Add(z []float64) {
	if h.grid > 0 && len(z) == h.dim && h.t < h.horizon {
		h.checkNodeData(z)
	}
	h.t = addRound(z, h.exact, h.t, h.horizon, h.grid)
	d := h.dim
	top := bits.TrailingZeros(uint(h.t))
	acc, accD := h.acc, h.accD
	h.noise.Sample(acc) // the leaf: ŝ_0 = y_0
	if h.grid > 0 {
		checkNoiseSum(acc, h.grid) // one draw: exact
		clear(accD)
		gridAdd(accD, z, h.grid)
		for j := range acc {
			acc[j] += accD[j] // exact: both are grid multiples
		}
	}
	for i := 1; i <= top; i++ {
		// Level i closes: its left child (level i−1) closed at round
		// t − 2^{i−1} and est[i−1] has not been written since; its right
		// child's estimate is acc.
		h.noise.Sample(h.node)
		if h.grid > 0 {
			checkNoiseSum(h.node, h.grid) // one draw: exact
			// The node's value: its rounded data sum (left's plus acc's,
			// exact) plus its draw (exact).
			leftD := h.dat[(i-1)*d : i*d]
			for j := range accD {
				accD[j] += leftD[j]
				h.node[j] += accD[j]
			}
		}
		left := h.est[(i-1)*d : i*d]
		w := h.w[i]
		for j := range acc {
			acc[j] = float64(w*h.node[j]) + float64((1-w)*(left[j]+acc[j]))
		}
	}
	copy(h.est[top*d:(top+1)*d], acc)
	if h.grid > 0 {
		copy(h.dat[top*d:(top+1)*d], accD)
	}
	cur := h.cum[top*d : (top+1)*d]
	if rest := uint(h.t) &^ (1 << top); rest != 0 {
		j := bits.TrailingZeros(rest)
		above := h.cum[j*d : (j+1)*d]
		for k := range cur {
			cur[k] = above[k] + acc[k]
		}
		return
	}
	copy(cur, acc)
}

// checkNodeData panics with beyondExact when a data sum Add would form at
// round t + 1 on secure noise (the rounded record, then the data sums of the
// nodes of levels 1..top that close, as accD accumulates them) reaches 2⁵³
// grid steps: a sum of records anywhere in the stream can, though the prefix
// sums stay below it.
func (h *HonakerTree) checkNodeData(z []float64) {
	g, d := h.grid, h.dim
	lim := exactSteps * g
	top := bits.TrailingZeros(uint(h.t + 1))
	for j, v := range z {
		acc := float64(math.RoundToEven(v/g) * g)
		if !(math.Abs(acc) < lim) {
			panic(beyondExact)
		}
		for i := 1; i <= top; i++ {
			acc += h.dat[(i-1)*d+j]
			if !(math.Abs(acc) < lim) {
				panic(beyondExact)
			}
		}
	}
}

// NoiseTo writes the noise of the current release.
func (h *HonakerTree) NoiseTo(dst []float64) []float64 {
	dst = param.DstOf(dst, h.dim)
	if h.t == 0 {
		clear(dst)
		return dst
	}
	i := bits.TrailingZeros(uint(h.t))
	copy(dst, h.cum[i*h.dim:(i+1)*h.dim])
	if h.grid > 0 { // cum is the release: its noise is cum − S_t
		for j := range dst {
			dst[j] -= h.exact[j]
		}
	}
	return dst
}

// SumTo writes the private prefix sum.
func (h *HonakerTree) SumTo(dst []float64) []float64 {
	dst = param.DstOf(dst, h.dim)
	if h.t == 0 {
		copy(dst, h.exact)
		return dst
	}
	i := bits.TrailingZeros(uint(h.t))
	cum := h.cum[i*h.dim : (i+1)*h.dim]
	if h.grid > 0 { // secure: the estimate from the node values alone
		copy(dst, cum)
		return dst
	}
	for j := range dst {
		dst[j] = cum[j] + h.exact[j]
	}
	return dst
}

// VarianceAt returns Σ v_i over the set bits i of t.
func (h *HonakerTree) VarianceAt(t int) float64 {
	var s float64
	for u := uint(t); u != 0; u &= u - 1 {
		s += h.v[bits.TrailingZeros(u)]
	}
	return s
}

// MaxVariance returns the largest VarianceAt over t ≤ n: v_i decreases in
// i, so among the t with the largest popcount the best is the one with the
// lowest bits set; it is found by a scan of the O(log n) candidates
// 2^b − 1 and n with low bits filled.
func (h *HonakerTree) MaxVariance() float64 {
	best := 0.0
	for t := 1; t <= h.horizon && t > 0; t = 2*t + 1 {
		best = max(best, h.VarianceAt(t))
	}
	// t ≤ n that keep a prefix of n's bits and set every bit below.
	for b := bits.Len(uint(h.horizon)) - 1; b >= 0; b-- {
		if h.horizon&(1<<b) != 0 {
			t := (h.horizon &^ (1<<(b+1) - 1)) | (1<<b - 1)
			if t >= 1 {
				best = max(best, h.VarianceAt(t))
			}
		}
	}
	return max(best, h.VarianceAt(h.horizon))
}

// Cost returns m = TreeLevels(n) for both norms (one node per level).
func (h *HonakerTree) Cost() Cost {
	return Cost{L2Sq: float64(h.levels), L1: float64(h.levels)}
}

var _ Counter = (*HonakerTree)(nil)
