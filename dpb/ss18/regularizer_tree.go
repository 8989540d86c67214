package ss18

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// ShiftMode selects the multiple of the identity a tree regularizer adds to
// (Gaussian) or subtracts from (Wishart) the tree's noise.
type ShiftMode int

const (
	// ShiftPaper is Section 4's choice: c of Eq. (4) subtracted for Wishart,
	// 2Υ added for Gaussian.
	ShiftPaper ShiftMode = iota
	// ShiftNone uses the noise as it is (the "WishartUnshifted" of Appendix D.2).
	// It is an error for Gaussian noise, which is not positive definite.
	ShiftNone
	// ShiftGiven uses RegularizerConfig.ShiftValue (Appendix D.3's shift study).
	ShiftGiven
)

func (s ShiftMode) String() string {
	switch s {
	case ShiftPaper:
		return "paper"
	case ShiftNone:
		return "none"
	case ShiftGiven:
		return "given"
	}
	return fmt.Sprintf("ShiftMode(%d)", int(s))
}

// TreeRegularizer is a private changing regularizer of SS18 Section 4: the
// stream of (d+1)×(d+1) matrices [x_t; y_t][x_t; y_t]ᵀ enters one [counter.TreeSum]
// with symmetric matrix node noise; the released M_t + N_t gives
// V_t = G_t + H_t from its top-left d×d block and ũ_t = u_t + h_t from the
// first d entries of its last column, with the configured shift of the
// identity added to H_t.
//
//   - Wishart (Section 4.1): node noise W_{d+1}(L̃² I, k), so a release carries
//     W_{d+1}(L̃² I, mk) when padded; bounds from Proposition 9.
//   - Gaussian (Section 4.2): node noise (Z′ + Z′ᵀ)/√2 with Z′ i.i.d.
//     N(0, σ²_noise); bounds from Proposition 11.
//
// Every observation must satisfy ‖x‖² + y² ≤ L̃² (LinUCB enforces it). The
// tree starts with one data-independent zero item, so that round 1's release
// (no data yet) already carries node noise, and its horizon is n: the data of
// round n is never released and is not added.
//
// A TreeRegularizer is not safe for concurrent use (nor is the LinUCB
// that owns it).
type TreeRegularizer struct {
	kind    string
	d       int
	setting Setting
	ctr     counter.Counter  // the continual counter releasing M_t + N_t
	tree    *counter.TreeSum // ctr when it is a TreeSum (for Tree()), else nil
	diag    float64          // added to the diagonal of the noise block: −c or +c
	bounds  RegBounds
	k       int
	upsilon float64
	cal     *GaussianCounterCal // the exact calibration of NewGaussianCounterReg, else nil
	adds    int
	z, buf  []float64
	round   *roundCal // per-round bounds and shift (NewGaussianCounterRegRound), else nil
	lever   *LeverCal // the levers' calibration (levers.go), else nil
}

var _ Regularizer = (*TreeRegularizer)(nil)

// newWishartTree is [NewRegularizer] for RegWishartTree: the Wishart tree
// regularizer of SS18 Section 4.1.
func newWishartTree(cfg RegularizerConfig, rng *rand.Rand) (*TreeRegularizer, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	s := cfg.Setting
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := noise.CheckMode(cfg.Noise); err != nil {
		return nil, err
	}
	if mode := cfg.Noise.Resolve(); mode.Secure() {
		return nil, noise.ExplainDefault(cfg.Noise, noise.NoSecure("ss18: the Wishart tree has no secure sampler: an exact Wishart on a grid would need its own privacy proof (noise.Secure is available for the Gaussian variants on every counter, DP-UCB, DP-FTRL and the private MAB family)"))
	}
	k := cfg.K
	if k == 0 {
		k = s.WishartK()
	}
	if k <= s.D {
		return nil, fmt.Errorf("ss18: wishart degrees of freedom k is %d, must be > d = %d", k, s.D)
	}
	unshifted, shifted := s.WishartBounds(k)
	var b RegBounds
	switch cfg.Shift {
	case ShiftPaper:
		b = shifted
	case ShiftNone:
		b = unshifted
	case ShiftGiven:
		if err := param.CheckFinite("shift", cfg.ShiftValue); err != nil {
			return nil, err
		}
		b = s.WishartBoundsShift(k, cfg.ShiftValue)
	default:
		return nil, fmt.Errorf("ss18: unknown shift mode %d", int(cfg.Shift))
	}
	if !(b.RhoMin > 0) {
		return nil, fmt.Errorf("ss18: wishart shift %v leaves ρ_min = %v, must be > 0 (ρ_min unshifted is %v)", b.Shift, b.RhoMin, unshifted.RhoMin)
	}
	nz, err := noise.New(noise.Config{Law: noise.WishartLaw, Mode: noise.Simulated, N: s.D + 1, Scale: s.Lt2, DF: float64(k)}, rng)
	if err != nil {
		return nil, err
	}
	r, err := newTreeReg("Wishart", s, nz, cfg.Mode, -b.Shift, b)
	if err != nil {
		return nil, err
	}
	r.k = k
	return r, nil
}

// newGaussianTree is [NewRegularizer] for RegGaussianTree: the Gaussian tree
// regularizer of SS18 Section 4.2.
func newGaussianTree(cfg RegularizerConfig, rng *rand.Rand) (*TreeRegularizer, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	s := cfg.Setting
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := noise.CheckMode(cfg.Noise); err != nil {
		return nil, err
	}
	cfg.Noise = cfg.Noise.Resolve()
	ups := cfg.Upsilon
	if ups == 0 {
		ups = s.Upsilon()
	}
	if err := param.CheckPositive("upsilon", ups); err != nil {
		return nil, err
	}
	var b RegBounds
	switch cfg.Shift {
	case ShiftPaper:
		b = s.GaussianBoundsShift(ups, 2*ups)
	case ShiftGiven:
		if err := param.CheckFinite("shift", cfg.ShiftValue); err != nil {
			return nil, err
		}
		b = s.GaussianBoundsShift(ups, cfg.ShiftValue)
	case ShiftNone:
		return nil, fmt.Errorf("ss18: the Gaussian tree regularizer needs a shift (its noise is not positive definite)")
	default:
		return nil, fmt.Errorf("ss18: unknown shift mode %d", int(cfg.Shift))
	}
	if !(b.RhoMin > 0) {
		return nil, fmt.Errorf("ss18: gaussian shift %v is not above Υ = %v, ρ_min must be > 0", b.Shift, ups)
	}
	var nz noise.Noise
	var err error
	if cfg.Noise.Secure() {
		// (x, y) = √L̃²·e₁ against √L̃²·e₂ moves the packed Gram matrix by
		// √2·L̃² in ℓ2, the most any neighbouring pair can.
		nz, err = noise.New(noise.Config{Law: noise.SymGaussianLaw, Mode: cfg.Noise, N: s.D + 1, Sigma: s.GaussianSigma(), Sensitivity: math.Sqrt2 * s.Lt2}, rng)
	} else {
		nz, err = noise.New(noise.Config{Law: noise.SymGaussianLaw, Mode: noise.Simulated, N: s.D + 1, Sigma: s.GaussianSigma()}, rng)
	}
	if err != nil {
		return nil, err
	}
	r, err := newTreeReg("Gaussian", s, nz, cfg.Mode, b.Shift, b)
	if err != nil {
		return nil, err
	}
	r.upsilon = ups
	return r, nil
}

func newTreeReg(kind string, s Setting, nz noise.Noise, mode counter.ReleaseMode, diag float64, b RegBounds) (*TreeRegularizer, error) {
	if mode == counter.ModeDefault {
		mode = counter.Padded // what Propositions 9 and 11 assume
	}
	n1 := s.D + 1
	treeAny, err := counter.New(counter.Config{Kind: counter.Tree, Dim: simd.PackedLen(n1), Horizon: s.N, Noise: nz, Mode: mode})
	if err != nil {
		return nil, err
	}
	tree := treeAny.(*counter.TreeSum)
	r := &TreeRegularizer{
		kind: kind, d: s.D, setting: s, ctr: tree, tree: tree, diag: diag, bounds: b,
		z: make([]float64, n1), buf: make([]float64, simd.PackedLen(n1)),
	}
	tree.Add(r.buf) // the data-independent zero item: round 1's release is pure noise
	return r, nil
}

// Dim returns d.
func (r *TreeRegularizer) Dim() int { return r.d }

// Horizon returns n.
func (r *TreeRegularizer) Horizon() int { return r.setting.N }

// Add streams [x; y][x; y]ᵀ into the tree.
func (r *TreeRegularizer) Add(x []float64, y float64) {
	if len(x) != r.d {
		panic(param.BadDim)
	}
	r.adds++
	if r.adds > r.setting.N {
		panic(param.PastHorizon)
	}
	if r.ctr.Rounds() == r.ctr.Horizon() {
		return // round n's data: no later round uses it
	}
	copy(r.z, x)
	r.z[r.d] = y
	simd.PackOuterTo(r.buf, r.z)
	if r.lever != nil && r.lever.Levers.Split {
		r.buf[len(r.buf)-1] = 0 // y², never used, is not released (levers.go)
	}
	r.ctr.Add(r.buf)
}

// StatsTo writes V_t and ũ_t from the tree's current release.
func (r *TreeRegularizer) StatsTo(v, u []float64) {
	r.ctr.SumTo(r.buf)
	r.unpack(v, u)
}

// PerturbationTo writes H_t (the noise block plus the shift) and h_t.
func (r *TreeRegularizer) PerturbationTo(h, hv []float64) {
	r.ctr.NoiseTo(r.buf)
	r.unpack(h, hv)
}

func (r *TreeRegularizer) unpack(v, u []float64) {
	d := r.d
	r.setShift()
	_ = v[d*d-1]
	_ = u[d-1]
	if d == 5 {
		simd.Unpack5((*[25]float64)(v), (*[5]float64)(u), (*[21]float64)(r.buf), r.diag)
		return
	}
	r.unpackLoop(v, u, d >= simd.SymLowerFrom && simd.SymLowerLanes)
}

// unpackLoop is unpack's loop (the definition Unpack5 writes out). Each
// entry of a packed row goes into V's upper triangle; without mirror it is
// stored a second time, a column apart, into the lower triangle, and with
// mirror (from SymLowerFrom on with AVX-512) the rows are copied and the
// lower triangle is mirrored from the upper by 8×8 transpositions
// (SymLower).
func (r *TreeRegularizer) unpackLoop(v, u []float64, mirror bool) {
	d, n1 := r.d, r.d+1
	k := 0
	for i := 0; i < d; i++ {
		row := r.buf[k : k+n1-i]
		v[i*d+i] = row[0] + r.diag
		if mirror {
			copy(v[i*d+i+1:(i+1)*d], row[1:d-i])
		} else {
			for j := 1; j < d-i; j++ {
				v[i*d+i+j] = row[j]
				v[(i+j)*d+i] = row[j]
			}
		}
		u[i] = row[d-i]
		k += n1 - i
	}
	if mirror {
		simd.SymLower(v, d)
	}
}

// setShift sets the shift added to V's diagonal to the current release's
// when the bounds change every round.
func (r *TreeRegularizer) setShift() {
	if r.round != nil {
		r.diag = r.round.at(r.ctr.Rounds()).Shift
	}
}

// statsLT is StatsTo with V_t written as the Cholesky panel kernel takes
// it (CholLT): its lower triangle column-major, lt[j·s + i] = V_ij for
// j ≤ i < d, zero in the rest of each column from row j rounded down to 8
// (above the diagonal, rows d…s−1) and in columns d…s−1 from their
// block's first row. The release's packed rows are V's upper rows, so its
// lower columns: each is one copy, the same values StatsTo writes.
func (r *TreeRegularizer) statsLT(lt []float64, s int, u []float64) {
	r.setShift()
	d := r.d
	if s < d || len(lt) < s*s || len(u) < d {
		panic(param.BadDim)
	}
	if r.tree != nil && r.ctr == counter.Counter(r.tree) {
		// The tree's parts added as they are copied, in one pass, when the
		// CPU has the kernel: SumTo's sums, the same bits.
		if cum, pad, exact, ok := r.tree.SumParts(); ok && simd.TreeLT(lt, s, cum, pad, exact, d, r.diag, u) {
			return
		}
	}
	r.ctr.SumTo(r.buf)
	ltFromPacked(lt, s, r.buf, d, r.diag, u)
}

// ltFromPacked is statsLT's copy (the definition TreeLT's kernel follows):
// packed row j of p (V's row j from the diagonal, then ũ_j) into column j
// of lt from row j on, the shift added to the diagonal, u[j] the row's
// last entry, zeros from row j rounded down to 8 up to j and from row d to
// s, and columns d…s−1 zero from their block's first row.
func ltFromPacked(lt []float64, s int, p []float64, d int, shift float64, u []float64) {
	n1 := d + 1
	k := 0
	for j := 0; j < s; j++ {
		col := lt[j*s : (j+1)*s]
		if j >= d {
			clear(col[j&^7:])
			continue
		}
		row := p[k : k+n1-j]
		clear(col[j&^7 : j])
		col[j] = row[0] + shift
		copy(col[j+1:d], row[1:d-j])
		clear(col[d:])
		u[j] = row[d-j]
		k += n1 - j
	}
}

// Bounds returns ρ_min, ρ_max, γ (Proposition 9 or 11) and the shift; for a
// regularizer whose bounds change ([TreeRegularizer.BoundsChange]), those
// of the current release.
func (r *TreeRegularizer) Bounds() RegBounds {
	if r.round != nil {
		return r.round.at(r.ctr.Rounds())
	}
	return r.bounds
}

// NoiseNormBound returns g₀, the bound on ‖h_t‖ (the reward block of the
// node noise) that holds on Proposition 4's event with the current bounds:
// γ√ρ_min for the Gaussian trees, whose γ is g₀/√ρ_min (Claim 17:
// [Setting.GaussianBoundsShift], [GaussianCounterCal]), and γ√ρ_max for the
// Wishart trees, since ‖h‖₂ ≤ √λ_max(H_t)·‖h‖_{H_t⁻¹} ≤ √ρ_max·γ. It is
// used by the RadiusMinEig form of β_t only.
func (r *TreeRegularizer) NoiseNormBound() float64 {
	b := r.Bounds()
	if r.k > 0 { // Wishart
		return float64(b.Gamma * math.Sqrt(b.RhoMax))
	}
	return float64(b.Gamma * math.Sqrt(b.RhoMin))
}

// DataBound returns L̃².
func (r *TreeRegularizer) DataBound() float64 { return r.setting.Lt2 }

// ObserveMinEig gives the released-shift lever ([Levers].Shift) the
// certified λ_t ≤ λ_min(V_t) of the current round (LinUCB calls it once a
// round after its RadiusMinEig radius); the next round's ρ_t follows from
// it (released_shift.go). Without that lever it does nothing.
func (r *TreeRegularizer) ObserveMinEig(lam float64) {
	if r.round != nil && r.round.shift != nil {
		r.round.shift.observe(lam, r.round.at(r.ctr.Rounds()))
	}
}

// SelfNormLog returns what the self-normalised term's log adds for the
// released-shift lever (2 ln K: the theorem over K values of ρ), else 0.
func (r *TreeRegularizer) SelfNormLog() float64 {
	if r.round != nil && r.round.shift != nil {
		return r.round.shift.logK
	}
	return 0
}

// SplitBounds returns the separate bounds ‖x‖ ≤ x, |y| ≤ y of a split
// regularizer ([Levers]), which LinUCB enforces instead of DataBound, and
// ok = false for the others.
func (r *TreeRegularizer) SplitBounds() (x, y float64, ok bool) {
	if r.lever == nil || !r.lever.Levers.Split {
		return 0, 0, false
	}
	return r.lever.Levers.XBound, r.lever.Levers.YBound, true
}

// Levers returns the levers' calibration ([LeverCalibration]) and true for
// a regularizer built with levers.
func (r *TreeRegularizer) Levers() (LeverCal, bool) {
	if r.lever == nil {
		return LeverCal{}, false
	}
	return *r.lever, true
}

// Tree returns the underlying tree (for checks: NodesInRelease, Levels),
// or nil when the regularizer runs another counter ([NewRegularizer] (RegGaussianCounter)).
func (r *TreeRegularizer) Tree() *counter.TreeSum { return r.tree }

// Counter returns the continual counter that releases the statistics.
func (r *TreeRegularizer) Counter() counter.Counter { return r.ctr }

// K returns the Wishart degrees of freedom per node (0 for Gaussian).
func (r *TreeRegularizer) K() int { return r.k }

// Upsilon returns Υ (0 for Wishart).
func (r *TreeRegularizer) Upsilon() float64 { return r.upsilon }

// String describes the regularizer.
func (r *TreeRegularizer) String() string {
	if r.tree == nil {
		return fmt.Sprintf("%sCounter(d=%d, n=%d, ε=%g, δ=%g, %v, shift %g)", r.kind, r.d, r.setting.N, r.setting.Epsilon, r.setting.Delta, r.ctr, r.bounds.Shift)
	}
	return fmt.Sprintf("%sTree(d=%d, n=%d, ε=%g, δ=%g, %v, shift %g)", r.kind, r.d, r.setting.N, r.setting.Epsilon, r.setting.Delta, r.tree.Mode(), r.bounds.Shift)
}
