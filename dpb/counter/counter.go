package counter

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// Counter is a continual counter: it releases a private prefix sum
// S_t + noise_t of a stream of vectors z_1, z_2, … after every Add. Every
// counter here is a linear noise mechanism on draws of a [noise.Noise]: the
// release at t is S_t + Σ_s B_ts η_s, η_s independent node draws, with the
// data entering a set of noisy linear measurements C z (the factorisation
// A = BC of the prefix-sum matrix A; Li et al. 2015, Denisov, McMahan et al.
// 2022). Two numbers describe it, both in units of one node draw:
//
//   - VarianceAt(t) = Σ_s B_ts²: the release at round t has noise of
//     variance VarianceAt(t)·Var(η) in each coordinate;
//   - Cost(): how much one record is seen. A record z_s enters the
//     measurements with coefficients C_{·s}; L2Sq = max_s Σ_r C_rs² and
//     L1 = max_s Σ_r |C_rs|. A Gaussian node noise of scale σ on data of ℓ2
//     sensitivity Δ₂ makes the whole sequence of releases μ-GDP with
//     μ = Δ₂ √L2Sq / σ (composition over the measurements a record touches,
//     Dong, Roth & Su 2022, Cor. 3.3; adaptively chosen data are covered
//     because C is lower triangular: Denisov et al. 2022, Thm 2.1); a
//     Laplace node noise of scale b on data of ℓ1 sensitivity Δ₁ makes it
//     (Δ₁ L1/b)-DP.
//
// For the tree counters a measurement is a node and C is 0/1, so L2Sq = L1 =
// the number of nodes a record enters. Comparing counters at the same
// privacy means comparing VarianceAt(t)·L2Sq (σ² scales with L2Sq).
//
// Add and SumTo allocate nothing. Validating z is the caller's job.
type Counter interface {
	Dim() int
	Horizon() int
	Rounds() int
	Add(z []float64)
	// SumTo writes the private prefix sum into dst (len Dim(); nil allocates).
	SumTo(dst []float64) []float64
	// NoiseTo writes the noise of the current release into dst.
	NoiseTo(dst []float64) []float64
	// Exact returns the exact prefix sum (for checks, never for release).
	Exact() []float64
	// VarianceAt returns the noise variance of the release at round t
	// (1 ≤ t ≤ Horizon()) in units of one node draw's variance.
	VarianceAt(t int) float64
	// MaxVariance returns max over t ≤ Horizon() of VarianceAt(t).
	MaxVariance() float64
	// Cost returns the per-record privacy cost (see the type's comment).
	Cost() Cost
}

// Cost is the privacy cost of one record in a [Counter]: the squared
// ℓ2 norm and the ℓ1 norm of its column of the measurement matrix C,
// maximised over records.
type Cost struct {
	L2Sq float64 `json:"l2sq"`
	L1   float64 `json:"l1"`
}

// Kind names a continual counter.
type Kind int

const (
	// Tree is the binary mechanism, plain ([TreeSum], [Plain]).
	Tree Kind = iota
	// TreePadded is the binary mechanism padded to m node noises
	// per release ([TreeSum], [Padded]; AS17's TreeBasedAgg).
	TreePadded
	// Honaker is the binary tree with Honaker's (2015) variance-
	// optimal estimator ([HonakerTree]).
	Honaker
	// Smooth is the smooth binary mechanism of Andersson & Pagh
	// (2023) ([SmoothBinary]).
	Smooth
	// Sqrt is the exact square-root factorisation of the prefix-sum
	// matrix (Henzinger, Upadhyay & Upadhyay 2023; Fichtenberger, Henzinger
	// & Upadhyay 2023), O(n·dim) memory ([ToeplitzCounter]).
	Sqrt
	// BLT is a buffered-linear-Toeplitz approximation of the
	// square-root factorisation (Dvijotham et al. 2024), O(dim·log n) memory
	// ([ToeplitzCounter]).
	BLT
	// Kary is the k-ary tree ([KaryTree]) with the arity
	// [KaryArity] picks for the horizon.
	Kary
)

// Kinds lists every counter, in the order of the figures.
var Kinds = []Kind{Tree, TreePadded, Honaker, Smooth, Sqrt, BLT, Kary}

func (k Kind) String() string {
	switch k {
	case Tree:
		return "tree"
	case TreePadded:
		return "tree-padded"
	case Honaker:
		return "honaker"
	case Smooth:
		return "smooth"
	case Sqrt:
		return "sqrt"
	case BLT:
		return "blt"
	case Kary:
		return "kary"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// ParseKind returns the kind named s (as printed by String).
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds {
		if k.String() == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("counter: unknown counter %q (want one of tree, tree-padded, honaker, smooth, sqrt, blt, kary)", s)
}

// checkCounterArgs validates the arguments every counter constructor but
// TreeSum's takes. Every counter takes secure (gridded) noise: the node
// counters through the grid wrapper, the Toeplitz ones given a data bound.
func checkCounterArgs(dim, horizon int, nz noise.Noise) error {
	if err := param.CheckDim("dimension", dim); err != nil {
		return err
	}
	if horizon < 1 {
		return fmt.Errorf("counter: horizon is %d, must be >= 1", horizon)
	}
	if nz == nil {
		return fmt.Errorf("counter: nil node noise (use ZeroNoise for none)")
	}
	if nz.Dim() != dim {
		return fmt.Errorf("counter: node noise has dimension %d, counter has %d", nz.Dim(), dim)
	}
	return nil
}

// addRound is the common start of a counter's Add: it checks z against the
// dimension (len(exact)) and round t against the horizon (panics: programmer
// errors), adds z into the exact sum (rounded to the grid g of secure noise
// when g > 0: [gridAdd]) and returns t + 1.
func addRound(z, exact []float64, t, horizon int, g float64) int {
	if len(z) != len(exact) {
		panic(param.BadDim)
	}
	if t >= horizon {
		panic(param.PastHorizon)
	}
	gridAdd(exact, z, g)
	return t + 1
}

// MeasurementsPerRecord returns the largest number of noisy measurements
// one record enters (the nonzero entries of a column of C): the number of
// nodes for the node counters, whose C is 0/1 (Cost().L1), and the horizon
// for the square-root and BLT counters, whose record at round s enters every
// measurement from s on. Times the node noise's dimension, it is the number
// of noise coordinates a neighbouring pair can move, which the discrete
// Gaussian's accounting counts (accounting.DiscreteGaussianDelta).
func MeasurementsPerRecord(c Counter) int {
	if _, ok := c.(*ToeplitzCounter); ok {
		return c.Horizon()
	}
	return int(math.Round(c.Cost().L1))
}

// MeanVariance returns the mean of c.VarianceAt(t) over t = 1..Horizon().
func MeanVariance(c Counter) float64 {
	var s float64
	n := c.Horizon()
	for t := 1; t <= n; t++ {
		s += c.VarianceAt(t)
	}
	return s / float64(n)
}

// VarianceAt returns popcount(t) (Plain) or Levels() (Padded): the number
// of node draws in the release at round t.
func (ts *TreeSum) VarianceAt(t int) float64 {
	if ts.mode == Padded {
		return float64(ts.levels)
	}
	return float64(bits.OnesCount(uint(t)))
}

// MaxVariance returns the largest VarianceAt over the horizon: Levels()
// padded, the largest popcount of t ≤ n plain.
func (ts *TreeSum) MaxVariance() float64 {
	if ts.mode == Padded {
		return float64(ts.levels)
	}
	return float64(maxPopcount(ts.horizon))
}

// maxPopcount returns the largest popcount of 1 ≤ t ≤ n.
func maxPopcount(n int) int {
	b := bits.Len(uint(n))
	if bits.OnesCount(uint(n)) == b {
		return b
	}
	return b - 1 // 2^{b−1} − 1 < n has b − 1 ones
}

// Cost returns Levels() for both norms: a record enters at most m nodes.
func (ts *TreeSum) Cost() Cost {
	return Cost{L2Sq: float64(ts.levels), L1: float64(ts.levels)}
}

var _ Counter = (*TreeSum)(nil)
