package ss18

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// GaussianCounterCal is the exact calibration of SS18's Gaussian
// regularizer (Section 4.2) run on any continual counter, with the
// Proposition 11 bounds derived from that counter's noise.
//
// Privacy. The counter's node noise is the symmetrised Gaussian
// Z = (Z′ + Z′ᵀ)/√2, Z′ i.i.d. N(0, σ²), on the packed (d+1)×(d+1) outer
// products. A measurement that sees a record with coefficient c releases
// independent entries of variance σ² (off-diagonal) and 2σ² (diagonal), so
// for a change Δ of the record's outer product it is a Gaussian mechanism
// with μ² = c²‖Δ‖_F²/(2σ²) ≤ c² L̃⁴/σ², because ‖vvᵀ − v′v′ᵀ‖_F² ≤ 2L̃⁴ under
// replacement (see dpb/check's GaussianTreePrivacy). Summed over the
// measurements a record touches, μ² = Cost.L2Sq · L̃⁴/σ² (GDP composition,
// Dong, Roth & Su 2022, Cor. 3.3; adaptive data: the counters' C is lower
// triangular, Denisov et al. 2022). The whole sequence of releases is then
// (ε, δ)-DP exactly when δ ≥ δ_μ(ε) (Balle & Wang 2018, Thm 8), so
//
//	σ = √(Cost.L2Sq) · L̃² / μ(ε, δ)      ([accounting.GaussianSigma]),
//
// the smallest σ for which this accounting certifies (ε, δ). LinUCB's
// outputs are post-processing of the releases (joint DP as in SS18 §4).
//
// Bounds (Proposition 11 with the counter's variance). At LinUCB round t
// the noise N_t of the release is a sum of independent symmetrised
// Gaussians, itself symmetrised Gaussian with entry variance V_t σ² (V_t =
// VarianceAt(t), 2V_t σ² on the diagonal). Its d×d block is
// σ√V_t (G + Gᵀ)/√2, G d×d i.i.d. N(0,1): E‖G‖ ≤ 2√d (Gordon) and the norm is
// √2 σ√V_t-Lipschitz in G, so with probability ≥ 1 − α/(4n)
//
//	‖N_t block‖ ≤ Υ = σ √(2V) (2√d + √(2 ln(4n/α))),   V = max_t V_t,
//
// (the sharp Υ_s that dpb/check verifies for the tree; the printed Υ has
// 4√d and 2 ln(2n/α) in its place). With H_t = N_t + 2Υ I, as in Prop. 11:
// ρ_min = Υ, ρ_max = 3Υ, and h_t (i.i.d. N(0, V_t σ²) entries, Claim 17)
// gives γ = σ √(V/Υ) (√d + √(2 ln(4n/α))). Proposition 4 asks that the three
// bounds hold jointly with probability 1 − α/(2n) each round, so the Υ event and
// the γ event get α/(4n) each: hence ln(4n/α) where Prop. 11 writes ln(2n/α)
// (a union bound that Prop. 11's printed constants also need; StreamVersion 2).
// A single V = max_t V_t keeps the bounds constant over rounds, as LinUCB's β_t
// needs.
type GaussianCounterCal struct {
	Kind    counter.Kind `json:"counter"`
	Cost    counter.Cost `json:"cost"`
	MaxVar  float64      `json:"max_var"`
	Mu      float64      `json:"mu"` // the GDP parameter μ(ε, δ) the calibration targets
	Sigma   float64      `json:"sigma"`
	Upsilon float64      `json:"upsilon"`
	Bounds  RegBounds    `json:"bounds"`
	// Sharp marks the bounds of [GaussianCounterCalibrationSharp].
	Sharp bool `json:"sharp,omitempty"`
}

// GaussianCounterCalibration returns the calibration of the Gaussian
// regularizer on the counter kind for the setting (see [GaussianCounterCal]).
func GaussianCounterCalibration(s Setting, kind counter.Kind) (GaussianCounterCal, error) {
	if err := s.Validate(); err != nil {
		return GaussianCounterCal{}, err
	}
	probe, err := counter.New(counter.Config{Kind: kind, Dim: 1, Horizon: s.N, Noise: noise.ZeroNoise{N: 1}})
	if err != nil {
		return GaussianCounterCal{}, err
	}
	c := GaussianCounterCal{Kind: kind, Cost: probe.Cost(), MaxVar: probe.MaxVariance()}
	c.Sigma, err = accounting.GaussianSigma(s.Epsilon, s.Delta, math.Sqrt(c.Cost.L2Sq)*s.Lt2)
	if err != nil {
		return GaussianCounterCal{}, err
	}
	c.Mu = accounting.GDPMu(s.Epsilon, s.Delta)
	lg := math.Sqrt(2 * xmath.Log(4*float64(s.N)/s.AlphaOrDefault()))
	sd := math.Sqrt(float64(s.D))
	c.Upsilon = float64(c.Sigma * math.Sqrt(2*c.MaxVar) * (2*sd + lg))
	c.Bounds = RegBounds{RhoMin: c.Upsilon, RhoMax: float64(3 * c.Upsilon), Shift: float64(2 * c.Upsilon),
		Gamma: c.Sigma * math.Sqrt(c.MaxVar/c.Upsilon) * (sd + lg)}
	return c, nil
}

// Epsilon returns the ε at δ that exact GDP accounting gives the calibrated
// regularizer (equal to the target, up to the bisection's resolution).
func (c GaussianCounterCal) Epsilon(s Setting) float64 {
	return accounting.GDPEpsilon(math.Sqrt(c.Cost.L2Sq)*s.Lt2/c.Sigma, s.Delta)
}

// newGaussianCounterReg returns SS18's Gaussian regularizer (Section 4.2)
// released by the counter kind, with σ calibrated exactly and the
// Proposition 11 bounds derived from the counter's variance (see
// [GaussianCounterCal]). Like the tree regularizers it starts with one
// data-independent zero item and has horizon n.
// ([NewRegularizer], RegGaussianCounter), on noise of the given mode (see
// newGaussianCounterRegCal).
func newGaussianCounterReg(s Setting, kind counter.Kind, mode noise.Mode, rng *rand.Rand) (*TreeRegularizer, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	cal, err := GaussianCounterCalibration(s, kind)
	if err != nil {
		return nil, err
	}
	return newGaussianCounterRegCal(s, cal, mode, rng)
}

// newGaussianCounterRegCal builds the calibrated regularizer. In a secure
// mode the node noise is the exact discrete Gaussian of
// [noise.NewSecureSymGaussianNoise] with the calibrated σ for the packed
// sensitivity √2·L̃² (the pair √L̃²·e₁, √L̃²·e₂, the most any neighbouring
// pair moves the packed Gram matrix), run by the counter's grid wrapper
// (dpb/counter, counter_grid.go): the tree, Honaker, smooth and k-ary
// counters. The square-root and BLT counters get the data bound their
// secure mode needs, B = L̃² per entry of the packed record [x; y][x; y]ᵀ
// (|v_i v_j| ≤ ‖v‖² ≤ L̃², up to LinUCB's relative tolerance boundSlack;
// clipped to it, which changes no record within the bound), and the noise
// pays the slack of their measurement error ([symNoise]).
func newGaussianCounterRegCal(s Setting, cal GaussianCounterCal, mode noise.Mode, rng *rand.Rand) (*TreeRegularizer, error) {
	kind := cal.Kind
	if !(cal.Bounds.RhoMin > 0) || math.IsInf(cal.Bounds.Gamma, 0) {
		return nil, fmt.Errorf("ss18: gaussian counter bounds %+v unusable", cal.Bounds)
	}
	if err := noise.CheckMode(mode); err != nil {
		return nil, err
	}
	n1 := s.D + 1
	cc := counter.Config{Kind: kind, Dim: simd.PackedLen(n1), Horizon: s.N}
	var err error
	nc := noise.Config{Law: noise.SymGaussianLaw, Mode: noise.Simulated, N: n1, Sigma: cal.Sigma}
	if cc.Noise, err = symNoise(nc, &cc, mode, math.Sqrt2*s.Lt2, s.Lt2*(1+boundSlack), rng); err != nil {
		return nil, err
	}
	ctr, err := counter.New(cc)
	if err != nil {
		return nil, err
	}
	r := &TreeRegularizer{
		kind: "Gaussian", d: s.D, setting: s, ctr: ctr, diag: cal.Bounds.Shift, bounds: cal.Bounds,
		upsilon: cal.Upsilon, z: make([]float64, n1), buf: make([]float64, simd.PackedLen(n1)), cal: &cal,
	}
	if ts, ok := ctr.(*counter.TreeSum); ok {
		r.tree = ts
	}
	ctr.Add(r.buf) // the data-independent zero item
	return r, nil
}

// WishartKTight returns the smallest Wishart degrees of freedom per node
// for SS18 §4.1's tree at the setting's (ε, δ): Theorem 8 per node and the
// optimal composition theorem of Kairouz, Oh & Viswanath over the m =
// Levels() nodes a round enters ([accounting.WishartKOV]). At d = 5,
// n = 5·10⁷, ε = 1, δ = 0.1 it is 8,780 (printed: 139,115; Theorem 8 with
// advanced composition: 44,847).
func (s Setting) WishartKTight() (int, error) {
	if err := s.Validate(); err != nil {
		return 0, err
	}
	w, err := accounting.WishartKOV(s.D, s.Levels(), s.Epsilon, s.Delta)
	if err != nil {
		return 0, err
	}
	return w.K, nil
}

// GaussianCounterCalibrationSharp is [GaussianCounterCalibration] with
// Proposition 11's bounds re-derived more tightly, for the same σ (the same
// privacy: the released sequence is identical in law); the
// GaussianBLTSharp variant.
//
// Failure probability. Proposition 4 needs ρ_min I ⪯ H_t ⪯ ρ_max I and
// ‖h_t‖_{H_t⁻¹} ≤ γ jointly with probability ≥ 1 − α/(2n) per round; here
// the norm event and the h_t event get α/(4n) each (as Eq. (4) splits it
// for Wishart).
//
// Υ. With V = max_t VarianceAt(t) ≥ V_t, the noise block of round t is
// σ√V_t·W, W = (G + Gᵀ)/√2 the d×d GOE matrix (off-diagonal variance 1,
// diagonal 2), and a bound for σ√V·W holds for it. E λ_max(W) ≤ 2√d by the Sudakov–Fernique
// inequality: X_u = uᵀWu over the unit sphere has E(X_u − X_v)² =
// 4(1 − ⟨u,v⟩²) ≤ 8(1 − ⟨u,v⟩) = E(Y_u − Y_v)² for Y_u = 2⟨g, u⟩, whose
// supremum has mean 2E‖g‖ ≤ 2√d (Vershynin, HDP, Thm 7.2.11 and §7.3). λ_max is
// √2-Lipschitz in the d(d+1)/2 standard normals behind W (‖W‖ ≤ ‖W‖_F), so
// P(λ_max ≥ 2√d + √2 s) ≤ e^{−s²/2}, and the same for −λ_min (W and −W
// have one law). Both tails at α/(8n):
//
//	Υ = σ√V (2√d + 2√(ln(8n/α)))
//
// against the sharp Υ_s = σ√(2V)(2√d + √(2 ln(4n/α))) of
// [GaussianCounterCal], which spends √2 on E‖W‖ (E‖G‖ ≤ 2√d for the
// non-symmetric G).
//
// γ. h_t has i.i.d. N(0, V_t σ²) entries, ‖h_t‖ is σ√V_t-Lipschitz with
// mean ≤ σ√(V_t d): ‖h_t‖ ≤ g₀ = σ√V (√d + √(2 ln(4n/α))) w.p. ≥ 1 − α/(4n),
// and ‖h_t‖_{H_t⁻¹} ≤ g₀/√ρ_min.
//
// Shift (the β-minimising shift). H_t = N_t + (ρ + Υ) I gives ρ_min = ρ,
// ρ_max = ρ + 2Υ, γ = g₀/√ρ for every ρ > 0 (the paper's 2Υ is ρ = Υ). The
// shift is a data-independent constant, so any ρ keeps privacy and the
// proposition; ρ is the minimiser of β̄_n (Proposition 4's closed form at
// round n, [BetaBar]) with σ = S = L = 1, SS18 Fig. 4's LinUCB constants.
func GaussianCounterCalibrationSharp(s Setting, kind counter.Kind) (GaussianCounterCal, error) {
	c, err := GaussianCounterCalibration(s, kind)
	if err != nil {
		return GaussianCounterCal{}, err
	}
	n, a := float64(s.N), s.AlphaOrDefault()
	sd := math.Sqrt(float64(s.D))
	sv := c.Sigma * math.Sqrt(c.MaxVar)
	c.Sharp = true
	c.Upsilon = sv * (2*sd + 2*math.Sqrt(xmath.Log(8*n/a)))
	g0 := sv * (sd + math.Sqrt(2*xmath.Log(4*n/a)))
	cp := ConfidenceParams{D: s.D, Sigma: 1, S: 1, L: 1, Alpha: a}
	bounds := func(rho float64) RegBounds {
		return RegBounds{RhoMin: rho, RhoMax: rho + 2*c.Upsilon, Gamma: g0 / math.Sqrt(rho), Shift: rho + c.Upsilon}
	}
	rho := minimiseLog(c.Upsilon*1e-4, c.Upsilon*1e4, func(rho float64) float64 { return BetaBar(cp, bounds(rho), s.N) })
	c.Bounds = bounds(rho)
	return c, nil
}

// newGaussianCounterRegSharp is the calibrated Gaussian regularizer
// ([NewRegularizer], RegGaussianCounterSharp) with the bounds and shift of
// [GaussianCounterCalibrationSharp]: the same σ and counter as
// RegGaussianCounter, so the same (ε, δ).
func newGaussianCounterRegSharp(s Setting, kind counter.Kind, mode noise.Mode, rng *rand.Rand) (*TreeRegularizer, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	cal, err := GaussianCounterCalibrationSharp(s, kind)
	if err != nil {
		return nil, err
	}
	return newGaussianCounterRegCal(s, cal, mode, rng)
}
