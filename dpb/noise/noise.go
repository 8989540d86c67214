package noise

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/internal/noisescale"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// Noise is the noise added at one node of a [counter.TreeSum]. Sample overwrites dst
// (len(dst) == Dim()) with a fresh draw, independent of every earlier draw.
//
// Vector mechanisms (MT14, AS17) use [LaplaceNoise] and [GaussianNoise]; the
// matrix mechanisms of SS18 use [SymGaussianNoise] and [WishartNoise], which
// write a symmetric matrix in packed form (see [simd.PackedLen]).
type Noise interface {
	Dim() int
	Sample(dst []float64)
}

// ZeroNoise is the absence of noise: a TreeSum with ZeroNoise returns exact
// prefix sums. It is what the non-private baselines and exactness tests use.
type ZeroNoise struct{ N int }

// Dim returns the dimension.
func (z ZeroNoise) Dim() int { return z.N }

// Sample sets dst to zero.
func (z ZeroNoise) Sample(dst []float64) {
	if len(dst) != z.N {
		panic(param.BadDim)
	}
	clear(dst)
}

// LaplaceNoise draws i.i.d. Lap(b) entries, density exp(−|z|/b)/(2b): the
// Laplace mechanism's noise. For a node of a tree whose values have ℓ1
// sensitivity Δ₁ and which must be ε₀-DP, b = Δ₁/ε₀ (Dwork et al. 2006).
type LaplaceNoise struct {
	n   int
	b   float64
	rng *rand.Rand
}

// NewLaplaceNoise returns simulated Lap(scale) noise of dimension dim.
//
// Deprecated: use New(Config{Law: LaplaceLaw, Mode: Simulated, Dim: dim,
// Scale: scale}, rng) (kept for the notebook 00_start_here).
func NewLaplaceNoise(dim int, scale float64, rng *rand.Rand) (*LaplaceNoise, error) {
	return newLaplace(dim, scale, rng)
}

// newLaplace returns Lap(scale) noise of dimension dim ([New], LaplaceLaw,
// Simulated).
func newLaplace(dim int, scale float64, rng *rand.Rand) (*LaplaceNoise, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	if err := param.CheckDim("dimension", dim); err != nil {
		return nil, err
	}
	if err := param.CheckPositive("laplace scale", scale); err != nil {
		return nil, err
	}
	return &LaplaceNoise{n: dim, b: scale, rng: rng}, nil
}

// Dim returns the dimension.
func (l *LaplaceNoise) Dim() int { return l.n }

// Scale returns b.
func (l *LaplaceNoise) Scale() float64 { return l.b }

// Sample overwrites dst with i.i.d. Lap(b) draws.
func (l *LaplaceNoise) Sample(dst []float64) {
	if len(dst) != l.n {
		panic(param.BadDim)
	}
	for i := range dst {
		dst[i] = Laplace(l.rng, l.b)
	}
	noisescale.Apply(dst)
}

// Laplace returns one Lap(b) draw: a random sign times an Exp(1/b) variable.
// It panics unless b is finite and >= 0 (b = 0 returns ±0): a negative, NaN
// or infinite scale is a programmer error that would otherwise release
// unprivate or meaningless values.
func Laplace(rng *rand.Rand, b float64) float64 {
	if !(b >= 0 && b <= math.MaxFloat64) {
		panic(badLaplaceScale(b))
	}
	u := rng.Uint64()
	// The top bit chooses the sign; ExpFloat64 draws from its own bits.
	e := b * rng.ExpFloat64()
	if u>>63 == 1 {
		return -e
	}
	return e
}

// GaussianNoise draws i.i.d. N(0, σ²) entries.
type GaussianNoise struct {
	n     int
	sigma float64
	rng   *rand.Rand
}

// newGaussian returns N(0, sigma²) noise of dimension dim ([New],
// GaussianLaw, Simulated).
func newGaussian(dim int, sigma float64, rng *rand.Rand) (*GaussianNoise, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	if err := param.CheckDim("dimension", dim); err != nil {
		return nil, err
	}
	if err := param.CheckPositive("gaussian sigma", sigma); err != nil {
		return nil, err
	}
	return &GaussianNoise{n: dim, sigma: sigma, rng: rng}, nil
}

// Dim returns the dimension.
func (g *GaussianNoise) Dim() int { return g.n }

// Sigma returns σ.
func (g *GaussianNoise) Sigma() float64 { return g.sigma }

// Sample overwrites dst with i.i.d. N(0, σ²) draws.
func (g *GaussianNoise) Sample(dst []float64) {
	if len(dst) != g.n {
		panic(param.BadDim)
	}
	for i := range dst {
		dst[i] = g.sigma * g.rng.NormFloat64()
	}
	noisescale.Apply(dst)
}

// laplaceVar is the variance 2b² of Lap(b).
func laplaceVar(b float64) float64 { return 2 * b * b }

// badLaplaceScale is Laplace's panic message (formatted only on the panic
// path, so the draw itself allocates nothing).
func badLaplaceScale(b float64) string {
	return fmt.Sprintf("noise: Laplace scale b is %v, must be finite and >= 0", b)
}
