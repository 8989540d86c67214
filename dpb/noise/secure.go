package noise

import (
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
)

// Mode selects how a mechanism samples its noise.
//
// The zero value, Default, is secure noise: every constructor that
// takes a Mode (the own-stream policies of dpb/ss18, dpb/mt14,
// dpb/as17, dpb/mab and dpb/anytime, and the root dpb package) resolves an
// unset mode to Secure ([Mode.Resolve]), and what a policy reports
// (Privacy, Config, its snapshots) is the resolved mode, never Default.
// A mechanism with no secure sampler (the Wishart noise; Laplace noise on
// the square-root and BLT counters of dpb/counter, whose secure
// measurements take discrete Gaussian noise only) refuses an unset mode
// with an error ([ExplainDefault]) that says to set Simulated explicitly,
// whose releases are not release-grade: an unset mode never falls back to
// floating-point noise.
//
// Simulated is the fast seeded simulation every experiment, check,
// audit and benchmark asks for by name: floating-point Laplace and Gaussian
// draws from the *rand.Rand passed in, reproducible bit for bit from one
// seed. Its outputs are fine for measuring regret but must not be released
// to an adversary: a floating-point Laplace draw sign·b·ExpFloat64() lies on
// a sparse grid (Go's ziggurat returns Float64(j)·we[i]), so the low bits of
// a release reveal whether it is "noise" or "noise + 1" (Mironov, "On
// significance of the least significant bits for differential privacy", CCS
// 2012); dpb/audit's fp-attack rows measure an empirical ε far above the
// claim.
//
// Secure draws exact discrete noise on an integer grid with randomness
// from crypto/rand ([New] with Mode Secure):
// the data are rounded to the grid, so every release is exactly
// grid·(integer sum + integer noise) and its law is exactly the discrete
// mechanism's, whose privacy is proven on its own (no bit pattern carries
// more than the integer does). Reproducibility is off by design: a secure
// mechanism ignores the *rand.Rand for its noise and has no seed. A policy
// on it can be saved and restored (its sums and drawn node noises; a
// restored sampler draws fresh bits); restore a snapshot once, since two
// restored copies fed different data would measure the rounds of their
// open tree nodes twice. Wishart noise has no secure sampler.
//
// SecureSeeded is Secure's sampler, the same exact discrete law on
// the same grid, fed with bits from the *rand.Rand passed in instead of
// crypto/rand ([SecureNoise.SetEntropy]): what an audit, a test or a
// notebook whose outputs are committed runs, reproducible from its seed. Its
// releases are as predictable as the seed: a service releasing data uses
// Secure.
type Mode int

const (
	// Default is the zero Mode: unset, resolved to Secure
	// by the constructors (an error on a mechanism without a secure
	// sampler).
	Default Mode = iota
	// Simulated is seeded floating-point noise, reproducible and not
	// release-grade; it must be named.
	Simulated
	// Secure is exact discrete noise from crypto/rand on a grid.
	Secure
	// SecureSeeded is Secure's exact discrete noise with bits
	// from the seeded *rand.Rand passed in (reproducible; not for releases).
	SecureSeeded
)

// Resolve returns the mode a constructor runs for m: Secure for the
// unset Default, m itself otherwise.
func (m Mode) Resolve() Mode {
	if m == Default {
		return Secure
	}
	return m
}

// Secure reports whether m samples exact discrete noise on a grid
// (Secure or SecureSeeded). It is false for the unresolved
// Default: resolve first.
func (m Mode) Secure() bool { return m == Secure || m == SecureSeeded }

func (m Mode) String() string {
	switch m {
	case Default:
		return "default"
	case Simulated:
		return "simulated"
	case Secure:
		return "secure"
	case SecureSeeded:
		return "secure-seeded"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// SnapshotCode returns the number a policy snapshot records for m: the
// resolved mode ([Mode.Resolve]) numbered as snapshot formats 3 and 4
// number it (simulated 0, secure 1, secure-seeded 2), so that a
// snapshot of a simulated policy restores into one configured with
// Simulated, and one of a secure policy into one with Secure or
// the mode unset.
func (m Mode) SnapshotCode() int {
	switch m.Resolve() {
	case Simulated:
		return 0
	case Secure:
		return 1
	case SecureSeeded:
		return 2
	}
	return int(m) + 100 // an unknown mode, refused by the constructors
}

// CheckMode returns an error for a Mode that is none of the
// named ones.
func CheckMode(m Mode) error {
	if m != Default && m != Simulated && !m.Secure() {
		return fmt.Errorf("noise: unknown noise mode %d (noise.Default = 0, resolved to noise.Secure; noise.Simulated = 1, noise.Secure = 2, noise.SecureSeeded = 3)", int(m))
	}
	return nil
}

// ErrNoSecure is wrapped by the error of a mechanism asked for secure noise
// that has no secure sampler (the Wishart noise; Laplace noise on the
// square-root and BLT counters).
var ErrNoSecure = errors.New("noise: the mechanism has no secure sampler")

// noSecureError is an error wrapping ErrNoSecure with its own message.
type noSecureError struct{ msg string }

func (e noSecureError) Error() string { return e.msg }
func (e noSecureError) Unwrap() error { return ErrNoSecure }

// NoSecure returns an error with the given message that wraps [ErrNoSecure]:
// the refusal of a mechanism that has no secure sampler.
func NoSecure(msg string) error { return noSecureError{msg} }

// ExplainDefault returns err, or, when the caller left the mode unset
// (requested is Default) and err is a mechanism's refusal of secure
// noise ([ErrNoSecure]), an error that says so and what to do: name
// Simulated, knowing that it is not a release-grade guarantee. The
// constructors call it on their errors, so that an unset Noise is never
// silently simulated.
func ExplainDefault(requested Mode, err error) error {
	if err == nil || requested != Default || !errors.Is(err, ErrNoSecure) {
		return err
	}
	return fmt.Errorf("noise: Noise is unset, which means secure noise, and this mechanism has none: set Noise to noise.Simulated to run it on seeded floating-point noise, not a release-grade guarantee (its low bits can reveal the data). %w", err)
}

// SecureGridBits is the resolution of the secure grid: the grid is the power
// of two g with scale/g ∈ [2²⁰, 2²¹), fine enough that rounding the data to
// it changes nothing the noise does not swamp.
const SecureGridBits = 20

// SecureGrid returns the grid g = 2^(⌊log₂ scale⌋ − 20) of the secure
// noise whose smallest scale (Laplace scale, or smallest Gaussian σ) is
// scale: what a caller needs to size a slack before building the noise
// ([Config].Slack).
func SecureGrid(scale float64) float64 {
	_, e := math.Frexp(scale) // scale = f·2^e, f ∈ [0.5, 1)
	return math.Ldexp(1, e-1-SecureGridBits)
}

// SecureSymGrid returns the grid of the secure symmetrised Gaussian of
// n×n matrices with scale sigma (and sigmaU on the last row and column
// when > 0, as [Config].SigmaU): [SecureGrid] of its smallest entry scale,
// σ off the diagonal (√2σ on it when n−1 < 2 leaves the block no
// off-diagonal entry), σ_u on the last column. What a caller sizes a slack
// with before building the noise.
func SecureSymGrid(n int, sigma, sigmaU float64) float64 {
	if sigmaU <= 0 {
		if n < 2 {
			return SecureGrid(math.Sqrt2 * sigma) // a 1×1 matrix: its diagonal only
		}
		return SecureGrid(sigma)
	}
	block := sigma // the block's smallest scale: off its diagonal, or on it when it is 1×1
	if n-1 < 2 {
		block = math.Sqrt2 * sigma
	}
	return SecureGrid(math.Min(block, sigmaU))
}

// Gridded is implemented by noise that lives on a grid: the node counters of
// dpb/counter round every value they add to the grid when their noise is
// Gridded, so that node values are exact grid multiples (the counters' grid
// wrapper, grid.go).
type Gridded interface {
	// Grid returns the grid spacing g (a power of two).
	Grid() float64
}

// SecureNoise is exact discrete noise on the grid g·Z with randomness from
// crypto/rand: i.i.d. discrete Laplace entries (P(k) ∝ exp(−|k|/τ)) or
// independent discrete Gaussian entries (P(k) ∝ exp(−k²/(2σ_i²))), sampled
// by the exact algorithms of Canonne, Kamath & Steinke, "The Discrete
// Gaussian for Differential Privacy", NeurIPS 2020 (Algorithms 1–3), which
// use only uniform integers and exact rational arithmetic, so the returned
// integers follow the discrete law exactly. Sample writes g·k, exact in
// Float64 (|k| < 2⁵³).
//
// Privacy: a grid-rounded neighbour changes each entry by an integer
// number of grid steps, and the discrete Laplace with scale τ is
// (Δ₁/τ)-DP for integer ℓ1 sensitivity Δ₁ (the same ratio bound as the
// continuous one), the discrete Gaussian ‖Δ‖²/(2σ²)-zCDP for integer shifts
// Δ (CKS20 Theorems 4 and 14, the same ρ as the continuous one). Rounding
// the data to the grid can grow a sensitivity by one grid step per entry;
// the constructors inflate the scale to pay for it (see each). zCDP does
// not give the continuous Gaussian's exact (ε, δ) curve; the discrete
// Gaussian's own (ε, δ) is accounting.DiscreteGaussianDelta's, which the
// mechanisms' Privacy() report on secure noise.
//
// SecureNoise ignores every seed: two runs differ. It is not safe for
// concurrent use (one per goroutine, like *rand.Rand).
type SecureNoise struct {
	gauss bool
	grid  float64
	tau   uint64   // discrete Laplace scale in grid steps
	slack float64  // extra ℓ2 sensitivity paid for ([Config].Slack)
	sigma []uint64 // discrete Gaussian σ_i in grid steps, per entry
	src   *cryptoSource
	// scratch for the exact Gaussian test
	num, den, tmp big.Int
}

var _ Noise = (*SecureNoise)(nil)

// newSecureLaplace returns secure discrete Laplace noise of dimension
// dim standing in for Lap(scale) noise calibrated to ℓ1 sensitivity sens
// (scale = sens/ε₀ for an ε₀-DP node, or the tree's m·sens/ε). The grid is
// g = SecureGrid(scale) and the discrete scale is
//
//	τ = ⌈scale·(1 + dim·g/sens)/g⌉ grid steps,
//
// which pays for rounding (each of dim entries can move one more step): the
// rounded ℓ1 sensitivity (sens + dim·g)/g over τ is at most sens/scale, the ε₀
// of the continuous mechanism.
func newSecureLaplace(dim int, scale, sens float64) (*SecureNoise, error) {
	if err := param.CheckDim("dimension", dim); err != nil {
		return nil, err
	}
	if err := param.CheckPositive("laplace scale", scale); err != nil {
		return nil, err
	}
	if err := param.CheckPositive("sensitivity", sens); err != nil {
		return nil, err
	}
	g := SecureGrid(scale)
	tau := math.Ceil(scale * (1 + float64(dim)*g/sens) / g)
	return &SecureNoise{grid: g, tau: uint64(tau), sigma: make([]uint64, dim), src: newCryptoSource()}, nil
}

// newSecureGaussian returns secure discrete Gaussian noise with one
// entry per element of sigmas, standing in for independent N(0, sigmas[i]²)
// entries calibrated to an ℓ2 sensitivity sens that some neighbouring pair
// attains. With g = SecureGrid(min σ) each discrete σ is
//
//	σ′_i = ⌈sigmas[i]·f/g⌉ grid steps,   f = 1 + g·√dim·(max σ/min σ)/sens:
//
// rounding adds at most g√dim to ‖Δ‖₂, so the weighted sensitivity
// ‖Δ‖_{σ} = (Σ Δ_i²/σ_i²)^{1/2} grows by at most g√dim/min σ while its
// maximum is at least sens/max σ; scaling every σ by f keeps the maximum,
// hence the zCDP ρ = max‖Δ‖_σ²/2, at or below the continuous mechanism's.
//
// It pays, beyond
// the rounding of the data, for an extra change of at most slack (ℓ2, in
// the units of sens) in the rounded statistic of a neighbouring pair:
//
//	σ′_i = ⌈sigmas[i]·f/g⌉ grid steps,   f = 1 + (g·√dim + slack)·(max σ/min σ)/sens,
//
// by the argument above with g√dim + slack in place
// of g√dim. The Toeplitz counters of dpb/counter need it: their rounded
// measurements move by up to 2e + g more than the exact ones (e the
// floating-point error bound of computing them), which they express as a
// slack per unit of their cost (counter.ToeplitzSlack). slack must be
// finite and ≥ 0; [SecureNoise.Slack] returns it.
func newSecureGaussian(sigmas []float64, sens, slack float64) (*SecureNoise, error) {
	if err := param.CheckDim("dimension", len(sigmas)); err != nil {
		return nil, err
	}
	if err := param.CheckPositive("sensitivity", sens); err != nil {
		return nil, err
	}
	if err := param.CheckFinite("sensitivity slack", slack); err != nil {
		return nil, err
	}
	if slack < 0 {
		return nil, fmt.Errorf("noise: sensitivity slack is %v, must be >= 0", slack)
	}
	lo, hi := math.Inf(1), 0.0
	for _, s := range sigmas {
		if err := param.CheckPositive("gaussian sigma", s); err != nil {
			return nil, err
		}
		lo, hi = math.Min(lo, s), math.Max(hi, s)
	}
	g := SecureGrid(lo)
	f := 1 + (float64(g*math.Sqrt(float64(len(sigmas))))+slack)*(hi/lo)/sens
	n := &SecureNoise{gauss: true, grid: g, slack: slack, sigma: make([]uint64, len(sigmas)), src: newCryptoSource()}
	for i, s := range sigmas {
		n.sigma[i] = uint64(math.Ceil(s * f / g))
	}
	return n, nil
}

// newSecureSymGaussian is the secure counterpart of
// [SymGaussianNoise]: packed n×n symmetric noise with σ off the diagonal
// and √2σ on it, discrete Gaussian on the grid, for a mechanism some of
// whose neighbouring packed data differ by sens in ℓ2 (see
// [newSecureGaussian]: any attained pair will do, the largest inflates
// least). For the SS18 tree, sens = √2·L̃²: (x, y) = L̃e₁ against L̃e₂
// changes two diagonal entries by L̃² each, and ‖vvᵀ − v′v′ᵀ‖_F² = 2L̃⁴ −
// 2(v·v′)² ≤ 2L̃⁴ bounds every pair.
//
// With sigmaU > 0 it is the secure counterpart of [NewSymGaussianSplit]:
// the last row and column take σ_u = sigmaU (√2σ_u at the corner), the
// leading block keeps σ. The weighted-sensitivity argument of
// [newSecureGaussian] is per entry, so it covers the split as it is: the
// discrete σ′_i = ⌈σ_i·f/g⌉ with g = SecureGrid(min σ_i) and f from
// max σ_i/min σ_i keep the rounded mechanism's largest Σ Δ_i²/σ′_i² at or
// below the continuous split mechanism's (dpb/ss18's LeverCal computes
// that maximum, μ²/cost).
// slack is a sensitivity slack as for the Gaussian ([Config].Slack).
func newSecureSymGaussian(n int, sigma, sigmaU, sens, slack float64) (*SecureNoise, error) {
	if err := param.CheckDim("matrix size", n); err != nil {
		return nil, err
	}
	if err := param.CheckPositive("symmetric gaussian sigma", sigma); err != nil {
		return nil, err
	}
	s := make([]float64, simd.PackedLen(n))
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			s[simd.PackedIndex(n, i, j)] = sigma
		}
		s[simd.PackedIndex(n, i, i)] = math.Sqrt2 * sigma
	}
	if sigmaU != 0 {
		if err := splitScales(s, n, sigmaU); err != nil {
			return nil, err
		}
	}
	return newSecureGaussian(s, sens, slack)
}

// SetEntropy makes s draw its uniform bits from r instead of crypto/rand
// (nil: crypto/rand again), from the next draw on. The law of every draw is
// unchanged: the samplers turn uniform bits into exact discrete draws
// whatever their source, so r decides only whether the draws can be
// predicted. r must return uniform bytes; a read error panics. For audits,
// tests and notebooks that must reproduce their outputs from a seed (see
// [SecureSeeded]); never for a release an adversary sees.
func (s *SecureNoise) SetEntropy(r io.Reader) {
	s.src.entropy = r
	s.src.i = len(s.src.buf) // drop bits buffered from the old source
	s.src.pool, s.src.nbits = 0, 0
}

// SeedFrom sets s's entropy to rng when mode is SecureSeeded (a no-op
// for Secure): how the mechanisms' constructors honour that mode.
func (s *SecureNoise) SeedFrom(mode Mode, rng *rand.Rand) {
	if mode == SecureSeeded {
		s.SetEntropy(RandReader{rng})
	}
}

// RandReader reads uniform bytes from a *rand.Rand (eight little-endian
// bytes per Uint64): the entropy of [SecureSeeded].
type RandReader struct{ R *rand.Rand }

// Read fills p and never fails.
func (r RandReader) Read(p []byte) (int, error) {
	n := len(p)
	for len(p) >= 8 {
		binary.LittleEndian.PutUint64(p, r.R.Uint64())
		p = p[8:]
	}
	if len(p) > 0 {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], r.R.Uint64())
		copy(p, b[:])
	}
	return n, nil
}

// Dim returns the dimension.
func (s *SecureNoise) Dim() int { return len(s.sigma) }

// Mode returns Secure when s draws from crypto/rand, SecureSeeded
// when its entropy was set ([SecureNoise.SetEntropy]).
func (s *SecureNoise) Mode() Mode {
	if s.src.entropy != nil {
		return SecureSeeded
	}
	return Secure
}

// ModeOf returns the mode of node noise n: its [SecureNoise.Mode], or
// Simulated for every other noise.
func ModeOf(n Noise) Mode {
	if s, ok := n.(*SecureNoise); ok {
		return s.Mode()
	}
	return Simulated
}

// Grid returns the grid spacing g.
func (s *SecureNoise) Grid() float64 { return s.grid }

// Slack returns the extra ℓ2 sensitivity the discrete Gaussian σ′ pays for
// ([Config].Slack); 0 for Laplace and for the constructors
// without slack.
func (s *SecureNoise) Slack() float64 { return s.slack }

// Gaussian reports whether s draws discrete Gaussian (not Laplace) entries.
func (s *SecureNoise) Gaussian() bool { return s.gauss }

// Tau returns the discrete Laplace scale τ in grid steps (0 for Gaussian).
func (s *SecureNoise) Tau() uint64 {
	if s.gauss {
		return 0
	}
	return s.tau
}

// Sigmas returns the discrete Gaussian σ_i in grid steps (a view; nil for
// Laplace).
func (s *SecureNoise) Sigmas() []uint64 {
	if !s.gauss {
		return nil
	}
	return s.sigma
}

// Sample overwrites dst with g·k, k a fresh exact draw per entry.
func (s *SecureNoise) Sample(dst []float64) {
	if len(dst) != len(s.sigma) {
		panic(param.BadDim)
	}
	for i := range dst {
		var k int64
		if s.gauss {
			k = s.discreteGaussian(s.sigma[i])
		} else {
			k = s.src.discreteLaplace(s.tau)
		}
		dst[i] = float64(k) * s.grid
	}
}

// SampleInt returns one integer draw of entry i's law (for tests).
func (s *SecureNoise) SampleInt(i int) int64 {
	if s.gauss {
		return s.discreteGaussian(s.sigma[i])
	}
	return s.src.discreteLaplace(s.tau)
}

// cryptoSource is a buffered source of uniform bits from crypto/rand (or
// from entropy when set: [SecureNoise.SetEntropy]).
type cryptoSource struct {
	entropy io.Reader // nil: crypto/rand
	buf     [512]byte
	i       int
	r       *rand.Rand // exact uniform integers (Uint64N rejects, no bias) over this source
	pool    uint64     // unused random bits for fair coins
	nbits   uint
}

// bit returns a fair coin, one bit of a buffered word at a time.
func (c *cryptoSource) bit() bool {
	if c.nbits == 0 {
		c.pool, c.nbits = c.Uint64(), 64
	}
	b := c.pool&1 == 1
	c.pool >>= 1
	c.nbits--
	return b
}

func newCryptoSource() *cryptoSource {
	c := &cryptoSource{i: 512}
	c.r = rand.New(c)
	return c
}

// Uint64 implements rand.Source with bits from crypto/rand.
func (c *cryptoSource) Uint64() uint64 {
	if c.i+8 > len(c.buf) {
		c.refill()
	}
	v := binary.LittleEndian.Uint64(c.buf[c.i:])
	c.i += 8
	return v
}

// Read implements io.Reader (for crypto/rand.Int).
func (c *cryptoSource) Read(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if c.i >= len(c.buf) {
			c.refill()
		}
		k := copy(p, c.buf[c.i:])
		c.i += k
		p = p[k:]
	}
	return n, nil
}

func (c *cryptoSource) refill() {
	if c.entropy != nil {
		if _, err := io.ReadFull(c.entropy, c.buf[:]); err != nil {
			panic("noise: secure noise entropy: " + err.Error())
		}
		c.i = 0
		return
	}
	// crypto/rand.Read never returns an error (Go ≥ 1.24: it crashes the
	// program irrecoverably rather than return short or predictable bytes).
	_, _ = crand.Read(c.buf[:])
	c.i = 0
}

// bernoulliExp returns a draw of Bernoulli(exp(−n/d)), n ≥ 0, d > 0
// (CKS20 Algorithm 1): for γ = n/d ≤ 1, draw A_K ~ Bernoulli(γ/K) for
// K = 1, 2, … until the first A_K = 0 and return whether that K is odd
// (P = Σ_k (−γ)^k/k! = e^{−γ}); for γ > 1, ⌊γ⌋ draws of Bernoulli(e^{−1})
// and one of Bernoulli(e^{−(γ−⌊γ⌋)}), all of which must be 1.
func (c *cryptoSource) bernoulliExp(n, d uint64) bool {
	for n > d { // γ > 1: peel off a factor e^{-1}
		if !c.bernoulliExp1(1, 1) {
			return false
		}
		n -= d
	}
	return c.bernoulliExp1(n, d)
}

// bernoulliExp1 is Algorithm 1 for γ = n/d ∈ [0, 1].
func (c *cryptoSource) bernoulliExp1(n, d uint64) bool {
	for k := uint64(1); ; k++ {
		// A ~ Bernoulli(n/(d·k)): a uniform integer in [0, d·k) below n.
		hi, lo := bits.Mul64(d, k)
		var a bool
		switch {
		case hi == 0 && lo <= n: // γ/k ≥ 1 (γ = 1 at k = 1): certain, no bits spent
			a = true
		case hi == 0:
			a = c.r.Uint64N(lo) < n
		default:
			a = c.bigBelow(new(big.Int).Mul(new(big.Int).SetUint64(d), new(big.Int).SetUint64(k)), new(big.Int).SetUint64(n))
		}
		if !a {
			return k%2 == 1
		}
	}
}

// bigBelow reports whether a uniform integer in [0, m) is below n.
func (c *cryptoSource) bigBelow(m, n *big.Int) bool {
	u, err := crand.Int(c, m)
	if err != nil {
		panic("noise: crypto/rand: " + err.Error())
	}
	return u.Cmp(n) < 0
}

// bernoulliExpBig is Algorithm 1 for γ = n/d with big integers (n, d are
// not modified).
func (c *cryptoSource) bernoulliExpBig(n, d *big.Int) bool {
	r := new(big.Int).Set(n)
	for r.Cmp(d) > 0 {
		if !c.bernoulliExp1(1, 1) {
			return false
		}
		r.Sub(r, d)
	}
	m := new(big.Int)
	for k := int64(1); ; k++ {
		m.Mul(d, big.NewInt(k))
		if !c.bigBelow(m, r) {
			return k%2 == 1
		}
	}
}

// discreteLaplace returns a draw of the discrete Laplace law
// P(k) = (1 − e^{−1/τ})/(1 + e^{−1/τ}) · e^{−|k|/τ} on the integers
// (CKS20 Algorithm 2 with s = 1, t = τ): U uniform on [0, τ) kept with
// probability e^{−U/τ}, V ~ Geometric(1 − e^{−1}) (counting Bernoulli(e^{−1})
// successes), |k| = U + τV, a fair sign, and (sign −, 0) rejected so that 0
// is not counted twice.
func (c *cryptoSource) discreteLaplace(tau uint64) int64 {
	for {
		u := c.r.Uint64N(tau)
		if !c.bernoulliExp(u, tau) {
			continue
		}
		v := uint64(0)
		for c.bernoulliExp1(1, 1) {
			v++
		}
		hi, x := bits.Mul64(tau, v)
		x += u
		if hi != 0 || x >= 1<<53 {
			// |k| ≥ 2⁵³ has probability below e^{−2³²}; drawing again would
			// bias the law, so stop instead.
			panic("noise: discrete Laplace draw beyond 2^53")
		}
		neg := c.bit()
		if neg && x == 0 {
			continue
		}
		if neg {
			return -int64(x)
		}
		return int64(x)
	}
}

// discreteGaussian returns a draw of the discrete Gaussian law
// P(k) ∝ exp(−k²/(2σ²)) on the integers (CKS20 Algorithm 3): with
// t = σ + 1 (⌊σ⌋ + 1 for integer σ), Y ~ discrete Laplace(t) kept with
// probability exp(−(|Y| − σ²/t)²/(2σ²)) = exp(−(|Y|t − σ²)²/(2σ²t²)).
// The acceptance test runs in 128-bit integers (σ < 2³² makes 2σ²t² < 2¹²⁸);
// a |Y|t − σ² beyond 64 bits (|Y| > 2³¹ for σ ≈ 2²¹, never seen in
// practice) takes the exact big-integer path.
func (s *SecureNoise) discreteGaussian(sigma uint64) int64 {
	if sigma >= 1<<31 {
		panic("noise: discrete Gaussian σ must be below 2^31 grid steps")
	}
	t := sigma + 1
	sig2 := sigma * sigma
	d := mul128(sig2, t*t)
	d = u128{d.hi<<1 | d.lo>>63, d.lo << 1} // 2σ²t² < 2¹²⁷
	for {
		y := s.src.discreteLaplace(t)
		ay := uint64(y)
		if y < 0 {
			ay = uint64(-y)
		}
		hi, lo := bits.Mul64(ay, t)
		var x u128 // |ay·t − σ²|
		if hi > 0 || lo >= sig2 {
			b, borrow := bits.Sub64(lo, sig2, 0)
			x = u128{hi - borrow, b}
		} else {
			x = u128{0, sig2 - lo}
		}
		var ok bool
		if x.hi == 0 {
			ok = s.src.bernoulliExp128(mul128(x.lo, x.lo), d)
		} else {
			ok = s.discreteGaussianAcceptBig(ay, t, sig2)
		}
		if ok {
			return y
		}
	}
}

// discreteGaussianAcceptBig is the acceptance test of discreteGaussian in
// big integers.
func (s *SecureNoise) discreteGaussianAcceptBig(ay, t, sig2 uint64) bool {
	bt := new(big.Int).SetUint64(t)
	s.den.SetUint64(sig2)
	s.den.Mul(&s.den, bt)
	s.den.Mul(&s.den, bt)
	s.den.Lsh(&s.den, 1)
	s.num.SetUint64(ay)
	s.num.Mul(&s.num, bt)
	s.num.Sub(&s.num, s.tmp.SetUint64(sig2))
	s.num.Mul(&s.num, &s.num)
	return s.src.bernoulliExpBig(&s.num, &s.den)
}

// u128 is an unsigned 128-bit integer.
type u128 struct{ hi, lo uint64 }

func mul128(a, b uint64) u128 {
	hi, lo := bits.Mul64(a, b)
	return u128{hi, lo}
}

func (a u128) less(b u128) bool { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo) }

func (a u128) sub(b u128) u128 {
	lo, borrow := bits.Sub64(a.lo, b.lo, 0)
	return u128{a.hi - b.hi - borrow, lo}
}

// times returns a·k and whether it overflowed 128 bits.
func (a u128) times(k uint64) (u128, bool) {
	h1, l1 := bits.Mul64(a.lo, k)
	h2, l2 := bits.Mul64(a.hi, k)
	hi, carry := bits.Add64(h1, l2, 0)
	return u128{hi, l1}, h2 != 0 || carry != 0
}

// below128 returns a uniform integer in [0, m), m > 0, by rejection from
// uniform bit strings of m's length (exact; fewer than two tries on average).
func (c *cryptoSource) below128(m u128) u128 {
	if m.hi == 0 {
		return u128{0, c.r.Uint64N(m.lo)}
	}
	mask := uint64(1)<<bits.Len64(m.hi) - 1
	if bits.Len64(m.hi) == 64 {
		mask = ^uint64(0)
	}
	for {
		v := u128{c.Uint64() & mask, c.Uint64()}
		if v.less(m) {
			return v
		}
	}
}

// bernoulliExp128 is [cryptoSource.bernoulliExp] for γ = n/d in 128-bit
// integers (d > 0).
func (c *cryptoSource) bernoulliExp128(n, d u128) bool {
	for d.less(n) { // γ > 1
		if !c.bernoulliExp1(1, 1) {
			return false
		}
		n = n.sub(d)
	}
	for k := uint64(1); ; k++ {
		m, over := d.times(k)
		if over {
			// k ≥ 2 requires k−1 successive successes of probability
			// ≤ 1/(k−1); reaching 2¹²⁸/d ≥ 2 is impossible in practice,
			// and drawing again would bias the law.
			panic("noise: Bernoulli(exp(-γ)) sampler: 128-bit overflow")
		}
		if !c.below128(m).less(n) {
			return k%2 == 1
		}
	}
}
