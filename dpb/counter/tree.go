package counter

import (
	"fmt"
	"math/bits"

	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// ReleaseMode says how many node noises a [TreeSum] release carries.
type ReleaseMode int

const (
	// ModeDefault is the zero ReleaseMode: a policy's config that leaves its
	// mode unset gets the mode its bounds need (Padded for SS18's tree
	// regularizers, whose Propositions 9 and 11 assume it; Plain for MT14,
	// whose Theorem 4 is for the binary mechanism). In a counter [Config]
	// it means the Kind's own mode (Tree plain, TreePadded padded); the
	// deprecated NewTreeSum refuses it.
	ModeDefault ReleaseMode = iota
	// Plain is the binary mechanism of Chan, Shi & Song (2011) and Dwork et al.
	// (2010): the release at round t sums the noise of popcount(t) tree nodes,
	// so early rounds carry less noise than later ones (one node at t = 1).
	Plain
	// Padded is TreeBasedAgg (AS17 Algorithm 2): every release is topped up with
	// independent, data-independent draws so that it carries exactly Levels()
	// node noises, making the releases identically distributed (AS17 Lemma 3.3).
	// SS18's Propositions 9 and 11 assume this: the noise of every round is a sum
	// of exactly m node noises. The padding draws are made once and reused across
	// rounds (padding is post-processing, so privacy is unchanged; each release's
	// marginal distribution is exactly that of m independent node noises).
	Padded
)

func (m ReleaseMode) String() string {
	switch m {
	case ModeDefault:
		return "default"
	case Plain:
		return "plain"
	case Padded:
		return "padded"
	}
	return fmt.Sprintf("ReleaseMode(%d)", int(m))
}

// TreeLevels returns m = 1 + ⌈log₂ n⌉, the number of tree levels a prefix sum
// over n rounds can touch (SS18 Section 4; AS17 uses ⌈log T⌉ in Algorithm 2).
// It is also the largest number of nodes one round's value enters.
func TreeLevels(n int) int {
	if n < 1 {
		panic("counter: horizon must be >= 1")
	}
	return 1 + bits.Len(uint(n-1)) // ⌈log₂ n⌉ = bits.Len(n−1) for n >= 1
}

// TreeSum releases private prefix sums S_t = Σ_{s<=t} z_s of a stream of
// vectors by the tree-based (binary) mechanism: round t's value enters the
// dyadic nodes that contain t, each node carries one independent draw of the
// node noise, and the release at t is S_t plus the noise of the nodes whose
// union is [1, t] (one node per set bit of t).
//
// If each node's noise makes that node's sum (ε₀, δ₀)-DP for streams differing
// in one round, the whole sequence of releases is (ε, δ)-DP by composition over
// the m levels a round touches; the noise calibration is the caller's (see
// the SS18 and MT14 constructors).
//
// Cost: Add is O(dim) plus one node-noise draw per round; Sum is O(dim).
// Nothing allocates after construction.
type TreeSum struct {
	dim, horizon, levels int
	mode                 ReleaseMode
	noise                noise.Noise
	grid                 float64 // > 0: values are rounded to this grid (secure noise)

	t     int       // rounds added so far
	exact []float64 // S_t
	// cum[l] is the sum of the noises of the nodes of the set bits >= l of t:
	// with i the lowest set bit, cum[i] is the whole noise of the release.
	cum  []float64
	pad  []float64 // pad[k·dim:(k+1)·dim] = sum of k padding draws, k = 0..levels
	node []float64 // scratch for one draw
}

// NewTreeSum returns a tree over horizon rounds of dim-vectors with the given
// node noise and release mode (ModeDefault is refused).
//
// Deprecated: use New(Config{Kind: Tree, Mode: mode, ...}) (kept for the
// notebook 00_start_here).
func NewTreeSum(dim, horizon int, nz noise.Noise, mode ReleaseMode) (*TreeSum, error) {
	return newTreeSum(dim, horizon, nz, mode)
}

// newTreeSum returns a tree over horizon rounds of dim-vectors with the given
// node noise and release mode. The noise's dimension must equal dim.
func newTreeSum(dim, horizon int, nz noise.Noise, mode ReleaseMode) (*TreeSum, error) {
	if err := param.CheckDim("dimension", dim); err != nil {
		return nil, err
	}
	if horizon < 1 {
		return nil, fmt.Errorf("counter: horizon is %d, must be >= 1", horizon)
	}
	if nz == nil {
		return nil, fmt.Errorf("counter: nil node noise (use ZeroNoise for none)")
	}
	if nz.Dim() != dim {
		return nil, fmt.Errorf("counter: node noise has dimension %d, tree has %d", nz.Dim(), dim)
	}
	if mode == ModeDefault {
		return nil, fmt.Errorf("counter: the tree's release mode is unset: name Plain or Padded")
	}
	if mode != Plain && mode != Padded {
		return nil, fmt.Errorf("counter: unknown release mode %d", int(mode))
	}
	m := TreeLevels(horizon)
	ts := &TreeSum{
		dim: dim, horizon: horizon, levels: m, mode: mode, noise: nz,
		exact: make([]float64, dim),
		cum:   make([]float64, (m+1)*dim),
		node:  make([]float64, dim),
	}
	ts.grid = gridOf(nz)
	if mode == Padded {
		ts.pad = make([]float64, (m+1)*dim)
		for k := 1; k <= m; k++ {
			nz.Sample(ts.node)
			prev, cur := ts.pad[(k-1)*dim:k*dim], ts.pad[k*dim:(k+1)*dim]
			for j := range cur {
				cur[j] = prev[j] + ts.node[j]
			}
			checkNoiseSum(cur, ts.grid)
		}
	}
	return ts, nil
}

// Dim returns the dimension of the stream.
func (ts *TreeSum) Dim() int { return ts.dim }

// Horizon returns the number of rounds the tree was built for.
func (ts *TreeSum) Horizon() int { return ts.horizon }

// Levels returns m = TreeLevels(Horizon()).
func (ts *TreeSum) Levels() int { return ts.levels }

// Mode returns the release mode.
func (ts *TreeSum) Mode() ReleaseMode { return ts.mode }

// Rounds returns the number of values added so far.
func (ts *TreeSum) Rounds() int { return ts.t }

// NodesInRelease returns the number of independent node noises in the current
// release: popcount(t) in Plain mode, Levels() in Padded mode (0 before any Add).
func (ts *TreeSum) NodesInRelease() int {
	if ts.t == 0 {
		return 0
	}
	if ts.mode == Padded {
		return ts.levels
	}
	return bits.OnesCount(uint(ts.t))
}

// Add appends z (len dim) as the next round's value. It panics past the
// horizon or on a dimension mismatch; validating z is the caller's job.
//
// With [noise.Gridded] node noise (the secure mode) every entry of z is first
// rounded to the nearest multiple of the grid g (ties to even), so the exact
// sums, the node noises and hence every release are multiples of g, computed
// without rounding error: Add panics, before it changes anything, when a
// rounded entry or the exact sum would reach 2⁵³·g in magnitude (g =
// 2^(⌊log₂ b⌋−20) for noise scale b, so 2³³ at b = 1), and a sum of node
// draws 2⁵²·g (grid.go). A release is then the correctly rounded
// g·(integer sum + integer noise).
func (ts *TreeSum) Add(z []float64) {
	if len(z) != ts.dim {
		panic(param.BadDim)
	}
	if ts.t >= ts.horizon {
		panic(param.PastHorizon)
	}
	if g := ts.grid; g > 0 {
		gridAdd(ts.exact, z, g) // panics before any change beyond 2⁵³ grid steps
	} else {
		simd.VecAdd(ts.exact, ts.exact, z)
	}
	ts.t++
	i := bits.TrailingZeros(uint(ts.t))
	// Round t closes the node at level i; it gets one fresh draw. The nodes of
	// the set bits above i are unchanged, so cum[i] = cum[j] + draw, j the next set bit.
	d := ts.dim
	ts.noise.Sample(ts.node)
	cur := ts.cum[i*d : (i+1)*d]
	if rest := uint(ts.t) &^ (1 << i); rest != 0 {
		// j, the lowest set bit above i, was the lowest set bit at round
		// t − 2^i, when cum[j] was written; no round since wrote level j.
		j := bits.TrailingZeros(rest)
		simd.VecAdd(cur, ts.cum[j*d:(j+1)*d], ts.node)
	} else {
		copy(cur, ts.node)
	}
	checkNoiseSum(cur, ts.grid)
}

// NoiseTo writes the noise of the current release into dst (len dim) and
// returns it: the release is Exact() + noise. Before the first Add it is zero.
func (ts *TreeSum) NoiseTo(dst []float64) []float64 {
	dst = param.DstOf(dst, ts.dim)
	if ts.t == 0 {
		clear(dst)
		return dst
	}
	cum, pad, _, _ := ts.SumParts()
	copy(dst, cum)
	if pad != nil {
		simd.VecAdd(dst, dst, pad)
	}
	return dst
}

// SumParts returns the vectors SumTo adds for the current release: (cum +
// pad) + exact in padded mode, cum + exact (pad nil) in plain mode (NoiseTo
// is cum + pad); ok is false before the first round, when SumTo copies
// exact.
func (ts *TreeSum) SumParts() (cum, pad, exact []float64, ok bool) {
	if ts.t == 0 {
		return nil, nil, nil, false
	}
	d := ts.dim
	i := bits.TrailingZeros(uint(ts.t))
	cum, exact = ts.cum[i*d:(i+1)*d], ts.exact[:d]
	if ts.mode == Padded {
		k := ts.levels - bits.OnesCount(uint(ts.t))
		pad = ts.pad[k*d : (k+1)*d]
	}
	return cum, pad, exact, true
}

// SumTo writes the private prefix sum (exact sum plus the release's noise)
// into dst (len dim) and returns it; nil dst allocates. It is NoiseTo plus
// Exact in one pass, with the same additions in the same order.
func (ts *TreeSum) SumTo(dst []float64) []float64 {
	dst = param.DstOf(dst, ts.dim)
	cum, pad, ex, ok := ts.SumParts()
	switch {
	case !ok:
		copy(dst, ts.exact)
	case pad != nil:
		simd.VecAdd3(dst, cum, pad, ex)
	default:
		simd.VecAdd(dst, cum, ex)
	}
	return dst
}

// Exact returns the exact prefix sum S_t. The slice is owned by the tree and
// valid until the next Add; it is for checks and baselines, never for release.
func (ts *TreeSum) Exact() []float64 { return ts.exact }
