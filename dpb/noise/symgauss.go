package noise

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/internal/noisescale"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
)

// SymGaussianNoise draws the symmetrised Gaussian node noise of SS18
// Section 4.2:
//
//	Z = (Z′ + Z′ᵀ)/√2,   Z′ ∈ R^{n×n} with i.i.d. entries N(0, σ²),
//
// whose entries on and above the diagonal are independent, off-diagonal
// Z_ij ~ N(0, σ²) and diagonal Z_ii ~ N(0, 2σ²) (SS18 footnote 4: the
// diagonal variance is doubled). It draws the n(n+1)/2 independent entries
// directly, in packed form (see [simd.PackedLen]); Dim() = PackedLen(n). With
// n = d+1 and σ = [Setting.GaussianSigma] it is the node noise of the
// Gaussian variant of SS18's LinUCB. Sample allocates nothing.
//
// The normals come from a PCG stream seeded from rng at construction, with a
// ziggurat sampler (the environments' generator, band.go): a deterministic
// function of rng, and about twice as fast as rng.NormFloat64 on a ChaCha8
// stream, which matters because the Gaussian tree draws n(n+1)/2 normals
// every round.
type SymGaussianNoise struct {
	n      int
	sigma  float64
	sigmaU float64   // σ of the last row and column when split (NewSymGaussianSplit), else 0
	scale  []float64 // per packed entry: √2σ on the diagonal, σ off it
	f      FastRand
}

var _ Noise = (*SymGaussianNoise)(nil)

// NewSymGaussianNoise returns the simulated symmetrised Gaussian noise of
// n×n matrices with entry scale sigma (> 0 and finite).
//
// Deprecated: use New(Config{Law: SymGaussianLaw, Mode: Simulated, N: n,
// Sigma: sigma}, rng) (kept for the notebook ss18_privacy).
func NewSymGaussianNoise(n int, sigma float64, rng *rand.Rand) (*SymGaussianNoise, error) {
	return newSymGaussian(n, sigma, rng)
}

// newSymGaussian returns the symmetrised Gaussian noise of n×n matrices
// with entry scale sigma (> 0 and finite) ([New], SymGaussianLaw, Simulated).
func newSymGaussian(n int, sigma float64, rng *rand.Rand) (*SymGaussianNoise, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	if err := param.CheckDim("matrix size", n); err != nil {
		return nil, err
	}
	if err := param.CheckPositive("symmetric gaussian sigma", sigma); err != nil {
		return nil, err
	}
	g := &SymGaussianNoise{n: n, sigma: sigma, scale: make([]float64, simd.PackedLen(n)), f: NewFastRand(rng)}
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			g.scale[simd.PackedIndex(n, i, j)] = sigma
		}
		g.scale[simd.PackedIndex(n, i, i)] = math.Sqrt2 * sigma
	}
	return g, nil
}

// NewSymGaussianSplit returns the symmetrised Gaussian of n×n matrices
// split into two blocks ([Config].SigmaU): entries of the leading
// (n−1)×(n−1) block have scale sigmaV (√2σ_V on its diagonal), entries of
// the last row and column scale sigmaU (√2σ_u at the corner). For SS18's
// statistic [x; y][x; y]ᵀ (n = d+1) the block is the Gram matrix V and the
// last column the reward vector u: a Gaussian mechanism whose privacy loss
// for a change Δ is μ² = ‖ΔV‖_F²/(2σ_V²) + ‖Δu‖²/σ_u² (+ Δ_corner²/(4σ_u²)),
// the split of dpb/ss18's levers.go. The draws are the standard normals
// [newSymGaussian] draws from the same rng, scaled per entry: a split and an
// unsplit noise seeded alike are paired draw by draw. Sample allocates
// nothing.
func NewSymGaussianSplit(n int, sigmaV, sigmaU float64, rng *rand.Rand) (*SymGaussianNoise, error) {
	g, err := newSymGaussian(n, sigmaV, rng)
	if err != nil {
		return nil, err
	}
	if err := splitScales(g.scale, n, sigmaU); err != nil {
		return nil, err
	}
	g.sigmaU = sigmaU
	return g, nil
}

// splitScales validates σ_u = sigmaU of a split n×n symmetrised Gaussian
// and writes it into the packed scales s of the last row and column
// (√2σ_u at the corner): the simulated split and the secure one
// (newSecureSymGaussian) both take their split from here.
func splitScales(s []float64, n int, sigmaU float64) error {
	if err := param.CheckPositive("symmetric gaussian sigma_u", sigmaU); err != nil {
		return err
	}
	if n < 2 {
		return fmt.Errorf("noise: a split symmetrised Gaussian needs n >= 2 (a block and a last row), not %d", n)
	}
	for i := 0; i < n-1; i++ {
		s[simd.PackedIndex(n, i, n-1)] = sigmaU
	}
	s[simd.PackedIndex(n, n-1, n-1)] = math.Sqrt2 * sigmaU
	return nil
}

// SigmaU returns σ_u of a split noise ([NewSymGaussianSplit]), σ otherwise.
func (g *SymGaussianNoise) SigmaU() float64 {
	if g.sigmaU == 0 {
		return g.sigma
	}
	return g.sigmaU
}

// Dim returns PackedLen(n).
func (g *SymGaussianNoise) Dim() int { return simd.PackedLen(g.n) }

// N returns the matrix size n.
func (g *SymGaussianNoise) N() int { return g.n }

// Sigma returns σ, the standard deviation of the off-diagonal entries.
func (g *SymGaussianNoise) Sigma() float64 { return g.sigma }

// Sample overwrites dst (len PackedLen(n)) with a fresh draw of Z in packed
// form: the first entry of each packed row is a diagonal entry.
func (g *SymGaussianNoise) Sample(dst []float64) {
	n := g.n
	if len(dst) != simd.PackedLen(n) {
		panic(param.BadDim)
	}
	g.f.scaledNormalsTo(dst, g.scale)
	noisescale.Apply(dst)
}
