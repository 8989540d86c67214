package counter

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// MinKaryArity and MaxKaryArity bound the arity of [KaryTree].
const (
	MinKaryArity = 2
	MaxKaryArity = 64
)

// KaryTree is the k-ary tree mechanism for continual counting: the binary
// mechanism (Dwork, Naor, Pitassi & Rothblum 2010; Chan, Shi & Song 2011)
// on a tree of arity k. Level i holds the aligned blocks of k^i rounds,
// (j·k^i, (j+1)·k^i], for the levels i = 0..h−1 with k^i ≤ n,
//
//	h = ⌊log_k n⌋ + 1   (the number of base-k digits of n),
//
// and a block gets one independent node draw when it closes. The release
// at round t writes t = Σ_i d_i k^i in base k (digits 0 ≤ d_i ≤ k − 1) and
// adds, per level i, the d_i blocks of level i between ⌊t/k^{i+1}⌋k^{i+1}
// and ⌊t/k^i⌋k^i: d_i closed nodes, all with coefficient +1, so
//
//	VarianceAt(t) = Σ_i d_i (the base-k digit sum of t),
//
// and a record enters one block per level: L1 = L2Sq = h. With Laplace
// node noise of scale b = h·Δ₁/ε the whole sequence of releases is ε-DP
// (the Laplace mechanism on the node sums, ℓ1 sensitivity h·Δ₁; the
// releases are post-processing; adaptively chosen data are covered as for
// every counter here, see [Counter]). The last child of every block is
// never released (its parent closes at the same round and replaces it); it
// is never drawn.
//
// At k = 2 this is the plain binary tree without its unused top level:
// h = bits.Len(n) ≤ TreeLevels(n), equal when n is a power of two. A
// larger k trades a larger digit sum (≤ (k − 1) per level) for fewer levels;
// with Laplace noise the per-round variance is ∝ VarianceAt(t)·h², and the
// mean over t is ≈ ((k − 1)/2)·(log_k n)³, (k − 1)/log₂³k of the binary
// tree's: 0.38 at k = 4, 0.26 at k = 8, ≈ 0.23 (the minimum) at k ≈ 13–16,
// before the rounding of h, which decides at a given n ([KaryArity]).
//
// Andersson, Pagh, Steiner & Torkamani ("Count on your elders: Laplace vs
// Gaussian noise", FORC 2025; arXiv:2408.07021, first version "Improved
// counting under continual observation with pure differential privacy")
// generalise the binary mechanism to this k-ary tree and improve it
// further with a k-ary number system with negative digits (subtracting
// nodes), which roughly halves the nodes per release. That variant is not
// implemented here: on these aligned blocks every causal release (nodes
// closed by t, all inside [1, t]) needs at least the digit sum of t nodes
// (each maximal block of the base-k decomposition of [1, t] must receive
// a nonzero coefficient from a node inside it), so subtraction needs the
// paper's own construction, which was not available to this
// implementation; the plain k-ary tree is what is here.
//
// Cost per round: one node draw and O(dim) additions, plus clearing the
// levels a carry closes (amortised O(dim/(k − 1))); nothing allocates after
// construction.
type KaryTree struct {
	dim, horizon, k, h int
	noise              noise.Noise
	grid               float64 // > 0: secure noise, data rounded to this grid (counter_grid.go)

	t     int
	digit []int     // base-k digits of t, digit[i] for level i
	exact []float64 // the exact prefix sum
	// cum[i·dim:] is the noise of the blocks of levels ≥ i in the release
	// at t, valid for i ≤ the lowest level with a nonzero digit.
	cum  []float64
	draw []float64
}

// KaryLevels returns h, the number of base-k digits of n (n ≥ 1).
func KaryLevels(n, k int) int {
	h := 0
	for m := n; m > 0; m /= k {
		h++
	}
	return h
}

// KaryMaxDigitSum returns the largest base-k digit sum of 1 ≤ t ≤ n: the
// maximum over n itself and, for every nonzero digit d_p of n, the number
// with n's digits above p, d_p − 1 at p and k − 1 below.
func KaryMaxDigitSum(n, k int) int {
	var d [64]int
	h := 0
	for m := n; m > 0; m /= k {
		d[h] = m % k
		h++
	}
	above := 0 // digit sum of n's digits above p
	for p := h - 1; p >= 0; p-- {
		above += d[p]
	}
	best := above // n itself
	above = 0
	for p := h - 1; p >= 0; p-- {
		if d[p] > 0 {
			best = max(best, above+d[p]-1+p*(k-1))
		}
		above += d[p]
	}
	return best
}

// KaryMeanDigitSum returns the mean base-k digit sum of t = 1..n, summed per
// position p (k^p ≤ n): over t = 0..n, digit p is constant on runs of k^p
// consecutive t, run b having digit b mod k; there are q = ⌊(n+1)/k^p⌋
// whole runs and a partial one of (n+1) mod k^p values.
func KaryMeanDigitSum(n, k int) float64 {
	var total float64
	for pw := 1; ; pw *= k {
		q, rem := (n+1)/pw, (n+1)%pw
		whole := float64(float64(q/k)*float64(k*(k-1)/2)) + float64((q%k)*(q%k-1)/2)
		total += float64(float64(pw)*whole) + float64(float64(rem)*float64(q%k))
		if pw > n/k {
			break
		}
	}
	return total / float64(n)
}

// KaryArity returns the default arity of the k-ary tree at horizon n: the
// k in [MinKaryArity, MaxKaryArity] minimising KaryMaxDigitSum(n, k)·h², the
// largest per-round noise variance at a fixed pure-DP ε (Laplace scale
// ∝ h = KaryLevels(n, k)), ties to the smaller k. Below n ≈ 40 this is a
// single level (k > n: every round its own node, the release at t the sum
// of t of them); at n = 10⁴ … 2²⁴ it is k = 16–22 with h = 3–6.
func KaryArity(n int) int {
	best, arg := -1, MinKaryArity
	for k := MinKaryArity; k <= MaxKaryArity; k++ {
		h := KaryLevels(n, k)
		if c := KaryMaxDigitSum(n, k) * h * h; best < 0 || c < best {
			best, arg = c, k
		}
	}
	return arg
}

// newKaryTree returns a k-ary tree counter over horizon rounds of
// dim-vectors, arity in [MinKaryArity, MaxKaryArity] ([New], Kind [Kary]).
func newKaryTree(dim, horizon, arity int, nz noise.Noise) (*KaryTree, error) {
	if err := checkCounterArgs(dim, horizon, nz); err != nil {
		return nil, err
	}
	if arity < MinKaryArity || arity > MaxKaryArity {
		return nil, fmt.Errorf("counter: k-ary tree arity is %d, must be in [%d, %d]", arity, MinKaryArity, MaxKaryArity)
	}
	h := KaryLevels(horizon, arity)
	return &KaryTree{
		dim: dim, horizon: horizon, k: arity, h: h, noise: nz, grid: gridOf(nz),
		digit: make([]int, h+1),
		exact: make([]float64, dim),
		cum:   make([]float64, (h+1)*dim), // cum[h·dim:] stays 0: no levels above
		draw:  make([]float64, dim),
	}, nil
}

// Dim returns the dimension.
func (c *KaryTree) Dim() int { return c.dim }

// Horizon returns n.
func (c *KaryTree) Horizon() int { return c.horizon }

// Rounds returns the number of values added.
func (c *KaryTree) Rounds() int { return c.t }

// Exact returns the exact prefix sum.
func (c *KaryTree) Exact() []float64 { return c.exact }

// Arity returns k.
func (c *KaryTree) Arity() int { return c.k }

// Levels returns h, the number of levels (nodes a record enters).
func (c *KaryTree) Levels() int { return c.h }

// low returns the lowest level with a nonzero digit (t ≥ 1).
func (c *KaryTree) low() int {
	i := 0
	for c.digit[i] == 0 {
		i++
	}
	return i
}

// Add appends z as the next round's value. On secure noise it panics when
// a rounded entry or the exact sum would reach 2⁵³ grid steps (grid.go).
func (c *KaryTree) Add(z []float64) {
	c.t = addRound(z, c.exact, c.t, c.horizon, c.grid)
	// Increment the digits: the carry closes the blocks of levels 0..i;
	// the block of level i joins the release, those below are last
	// children (replaced by it) and leave it.
	i := 0
	for c.digit[i] == c.k-1 {
		c.digit[i] = 0
		i++
	}
	c.digit[i]++
	d := c.dim
	c.noise.Sample(c.draw)
	cur := c.cum[i*d : (i+1)*d]
	if c.digit[i] == 1 {
		// A fresh level: the blocks above are those of the lowest
		// nonzero level above i (cum is valid there).
		j := i + 1
		for j < c.h && c.digit[j] == 0 {
			j++
		}
		above := c.cum[j*d : (j+1)*d]
		for k := range cur {
			cur[k] = above[k] + c.draw[k]
		}
	} else {
		for k := range cur {
			cur[k] += c.draw[k]
		}
	}
	checkNoiseSum(cur, c.grid)
}

// NoiseTo writes the noise of the current release.
func (c *KaryTree) NoiseTo(dst []float64) []float64 {
	dst = param.DstOf(dst, c.dim)
	if c.t == 0 {
		clear(dst)
		return dst
	}
	i := c.low()
	copy(dst, c.cum[i*c.dim:(i+1)*c.dim])
	return dst
}

// SumTo writes the private prefix sum.
func (c *KaryTree) SumTo(dst []float64) []float64 {
	dst = param.DstOf(dst, c.dim)
	if c.t == 0 {
		copy(dst, c.exact)
		return dst
	}
	i := c.low()
	cum := c.cum[i*c.dim : (i+1)*c.dim]
	for j := range dst {
		dst[j] = cum[j] + c.exact[j]
	}
	return dst
}

// VarianceAt returns the base-k digit sum of t.
func (c *KaryTree) VarianceAt(t int) float64 {
	s := 0
	for ; t > 0; t /= c.k {
		s += t % c.k
	}
	return float64(s)
}

// MaxVariance returns the largest digit sum of t ≤ n ([KaryMaxDigitSum]).
func (c *KaryTree) MaxVariance() float64 { return float64(KaryMaxDigitSum(c.horizon, c.k)) }

// Cost returns h for both norms (one block per level, coefficient 1).
func (c *KaryTree) Cost() Cost {
	return Cost{L2Sq: float64(c.h), L1: float64(c.h)}
}

var _ Counter = (*KaryTree)(nil)
