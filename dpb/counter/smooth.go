package counter

import (
	"fmt"
	"math/bits"

	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// SmoothBinary is the smooth binary mechanism of Andersson & Pagh (2023,
// "A smooth binary mechanism for efficient private continual
// observation", NeurIPS): the binary mechanism on a tree of height h whose
// rounds are mapped, in increasing order, to the leaves ℓ whose h-bit label
// has exactly k ones. The release at round t (leaf ℓ_t) is the sum of the
// leaf's node and of the left-sibling subtrees of ℓ_t's set bits,
//
//	[0, ℓ] = {ℓ} ∪ ⋃_{j: bit j of ℓ is 1} {labels with ℓ's bits above j, 0 at j},
//
// so every release carries exactly k + 1 node draws (the same noise every
// round: VarianceAt = k + 1), and a record at leaf ℓ enters its leaf and the
// ancestors that are left children — one per zero bit of ℓ, h − k of them —
// so its cost is h − k + 1 nodes (the ancestors that are right children are
// never used and never drawn). (h, k) minimise (k + 1)(h − k + 1) subject to
// C(h, k) ≥ n; with k ≈ h/2 ≈ (log₂ n)/2 this is ≈ log₂² n/4, a quarter of
// the plain tree's worst round (Andersson & Pagh 2023, Thm 1).
//
// Cost per round: at most k + 1 new draws, amortised O(1), and O(k·dim)
// additions; nothing allocates after construction.
type SmoothBinary struct {
	dim, horizon, h, k int
	noise              noise.Noise
	grid               float64 // > 0: secure noise, data rounded to this grid (counter_grid.go)

	t     int
	leaf  uint64
	exact []float64
	// node[j·dim:] is the draw of the left-sibling subtree at level j for
	// the current leaf, valid when id[j] == ℓ >> (j+1).
	node  []float64
	id    []uint64
	valid []bool
	sum   []float64 // the noise of the current release
}

// SmoothBinaryParams returns the (h, k) of [SmoothBinary] for horizon n:
// the pair minimising (k + 1)(h − k + 1) with C(h, k) ≥ n, ties to smaller h.
func SmoothBinaryParams(n int) (h, k int) {
	best := -1.0
	for hh := 1; hh <= 62; hh++ {
		// binom is C(hh, kk), updated in place: accurate to a few ulps,
		// far inside the half-unit margin of the test against n − ½.
		binom := 1.0
		for kk := 0; kk <= hh; kk++ {
			if binom >= float64(n)-0.5 {
				c := float64(kk+1) * float64(hh-kk+1)
				if best < 0 || c < best {
					best, h, k = c, hh, kk
				}
			}
			binom = binom * float64(hh-kk) / float64(kk+1)
		}
	}
	return h, k
}

// newSmoothBinary returns a smooth binary mechanism for horizon rounds
// ([New], Kind [Smooth]).
func newSmoothBinary(dim, horizon int, nz noise.Noise) (*SmoothBinary, error) {
	if err := checkCounterArgs(dim, horizon, nz); err != nil {
		return nil, err
	}
	h, k := SmoothBinaryParams(horizon)
	if h > 62 {
		return nil, fmt.Errorf("counter: horizon %d too large for the smooth binary mechanism", horizon)
	}
	return &SmoothBinary{
		dim: dim, horizon: horizon, h: h, k: k, noise: nz, grid: gridOf(nz),
		exact: make([]float64, dim),
		node:  make([]float64, (h+1)*dim), id: make([]uint64, h+1), valid: make([]bool, h+1),
		sum: make([]float64, dim),
	}, nil
}

// Dim returns the dimension.
func (s *SmoothBinary) Dim() int { return s.dim }

// Horizon returns n.
func (s *SmoothBinary) Horizon() int { return s.horizon }

// Rounds returns the number of values added.
func (s *SmoothBinary) Rounds() int { return s.t }

// Exact returns the exact prefix sum.
func (s *SmoothBinary) Exact() []float64 { return s.exact }

// Params returns the tree height h and the number of ones k per leaf label.
func (s *SmoothBinary) Params() (h, k int) { return s.h, s.k }

// Add appends z as the next round's value. On secure noise it panics when
// a rounded entry or the exact sum would reach 2⁵³ grid steps (grid.go).
func (s *SmoothBinary) Add(z []float64) {
	s.t = addRound(z, s.exact, s.t, s.horizon, s.grid)
	if s.t == 1 {
		s.leaf = 1<<s.k - 1
	} else { // next label with k ones (Gosper's hack)
		v := s.leaf
		c := v & -v
		r := v + c
		s.leaf = (((r ^ v) >> 2) / c) | r
	}
	d := s.dim
	s.noise.Sample(s.sum) // the leaf's own node
	checkNoiseSum(s.sum, s.grid)
	for u := s.leaf; u != 0; u &= u - 1 {
		j := bits.TrailingZeros64(u)
		id := s.leaf >> (j + 1)
		nd := s.node[j*d : (j+1)*d]
		if !s.valid[j] || s.id[j] != id {
			s.noise.Sample(nd)
			s.id[j], s.valid[j] = id, true
		}
		for i := range s.sum {
			s.sum[i] += nd[i]
		}
		checkNoiseSum(s.sum, s.grid)
	}
}

// NoiseTo writes the noise of the current release.
func (s *SmoothBinary) NoiseTo(dst []float64) []float64 {
	dst = param.DstOf(dst, s.dim)
	if s.t == 0 {
		clear(dst)
		return dst
	}
	copy(dst, s.sum)
	return dst
}

// SumTo writes the private prefix sum.
func (s *SmoothBinary) SumTo(dst []float64) []float64 {
	dst = param.DstOf(dst, s.dim)
	if s.t == 0 {
		copy(dst, s.exact)
		return dst
	}
	for j := range dst {
		dst[j] = s.sum[j] + s.exact[j]
	}
	return dst
}

// VarianceAt returns k + 1 at every round.
func (s *SmoothBinary) VarianceAt(int) float64 { return float64(s.k + 1) }

// MaxVariance returns k + 1.
func (s *SmoothBinary) MaxVariance() float64 { return float64(s.k + 1) }

// Cost returns h − k + 1 nodes for both norms.
func (s *SmoothBinary) Cost() Cost {
	c := float64(s.h - s.k + 1)
	return Cost{L2Sq: c, L1: c}
}

var _ Counter = (*SmoothBinary)(nil)
