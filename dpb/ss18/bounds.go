package ss18

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// This file holds every constant and bound of Shariff & Sheffet (2018)
// ("SS18", Differentially Private Contextual Linear Bandits, NeurIPS), each
// in one place, exactly as printed, with corrected or alternative readings
// beside the printed ones where the printed one looks wrong. Logarithms are
// natural. Notation: d the dimension, n the horizon, m = 1 + ⌈log₂ n⌉ the
// number of tree levels, L̃² the bound on ‖x_t‖² + y_t², α the failure
// probability of the regret bounds.

// Setting holds the parameters the SS18 bounds depend on.
//
// The methods compute their formula whatever the fields hold; the results
// mean something only when Validate returns nil.
type Setting struct {
	D       int     // dimension d. Required (>= 1).
	N       int     // horizon n. Required (>= 1).
	Epsilon float64 // ε. Required (> 0).
	Delta   float64 // δ ∈ (0,1). Required.
	Lt2     float64 // L̃², bound on ‖x_t‖² + y_t². Required (> 0).
	Alpha   float64 // failure probability α ∈ (0,1). Defaults to 1/N.
}

// Validate reports the first invalid field. An unset Alpha (0) takes the
// default 1/N, which is invalid when N = 1 (α must be < 1): set Alpha then.
func (s Setting) Validate() error {
	if err := param.CheckDim("dimension d", s.D); err != nil {
		return err
	}
	if s.N < 1 {
		return fmt.Errorf("ss18: horizon n is %d, must be >= 1", s.N)
	}
	if err := param.CheckEpsilon(s.Epsilon); err != nil {
		return err
	}
	if err := param.CheckDelta(s.Delta); err != nil {
		return err
	}
	if err := param.CheckPositive("Lt2 (L̃²)", s.Lt2); err != nil {
		return err
	}
	// The printed and the authors' Wishart k must be exact integers: a tiny ε
	// (or δ) makes 224 m ε⁻² ln(8m/δ) ln(2/δ) overflow the int conversion.
	if k, ka := s.wishartKFloat(), s.wishartKAuthorsFloat(); !(k <= maxWishartK && ka <= maxWishartK) {
		return fmt.Errorf("ss18: epsilon %g with delta %g and n %d gives Wishart degrees of freedom k ≈ %.3g, above 2^53: epsilon or delta must be larger", s.Epsilon, s.Delta, s.N, math.Max(k, ka))
	}
	if s.Alpha == 0 && s.N == 1 {
		return fmt.Errorf("ss18: alpha defaults to 1/n = 1 when n = 1, must be in (0, 1): set Alpha")
	}
	return param.CheckProb("alpha", s.AlphaOrDefault())
}

// AlphaOrDefault returns α, or 1/n when Alpha is 0 (SS18 Appendix D uses
// α = 1/n).
func (s Setting) AlphaOrDefault() float64 {
	if s.Alpha == 0 {
		return 1 / float64(s.N)
	}
	return s.Alpha
}

// Levels returns m = 1 + ⌈log₂ n⌉ (SS18 Section 4), the number of node noises
// a release of the tree-based mechanism sums (at most; exactly, when padded).
// It equals [counter.TreeLevels](n).
func (s Setting) Levels() int { return counter.TreeLevels(s.N) }

// WishartK returns the Wishart degrees of freedom of SS18 Section 4.1, as
// printed:
//
//	k = d + 1 + ⌈224 m ε⁻² ln(8m/δ) ln(2/δ)⌉.
//
// It is Theorem 8 (Sheffet's Wishart mechanism: k₀ ≥ d + 1 + 28 ε₀⁻² ln(4/δ₀)
// makes one noisy Gram matrix (ε₀, δ₀)-DP) applied to each node with
// ε₀ = ε/√(8m ln(2/δ)) and δ₀ = δ/(2m): 28·8m ln(2/δ)/ε² · ln(8m/δ).
// At d = 5, n = 5·10⁷, ε = 1, δ = 0.1 (m = 27) it is 139,115.
func (s Setting) WishartK() int {
	return int(s.wishartKFloat())
}

// maxWishartK bounds k so that it is an exact integer (Validate).
const maxWishartK = 1 << 53

func (s Setting) wishartKFloat() float64 {
	m := float64(s.Levels())
	eps2 := s.Epsilon * s.Epsilon
	return float64(s.D+1) + math.Ceil(224*m/eps2*xmath.Log(8*m/s.Delta)*xmath.Log(2/s.Delta))
}

// WishartKAuthors returns the Wishart degrees of freedom that the authors'
// code uses (roshanshariff/PrivateBandits.jl, src/DifferentialPrivacy.jl:
// WishartMechanism and advanced_composition; experiments use
// PanPrivTreeStrategy, whose number of composed nodes is 1 + ⌈log₂ n⌉ = m).
// For m > 1 it splits (ε, δ) across the m nodes by advanced composition with
// failure share δ_fail = δ/(m+1):
//
//	ε₀ = ε/√(8m ln(1/δ_fail)) = ε/√(8m ln((m+1)/δ)),
//	δ₀ = (δ − δ_fail)/m = δ/(m+1),
//	k  = (d+1) + ⌊28 ln(4/δ₀)/ε₀²⌋ = d + 1 + ⌊224 m ε⁻² ln((m+1)/δ) ln(4(m+1)/δ)⌋,
//
// and for m = 1 it uses (ε, δ) directly: k = d + 1 + ⌊28 ln(4/δ)/ε²⌋. The
// printed k (WishartK) instead takes δ₀ = δ/(2m), giving ln(8m/δ) ln(2/δ)
// where this has ln(4(m+1)/δ) ln((m+1)/δ); both are the same order, the
// authors' is larger (239,278 vs 139,115 at the paper's setting). The
// computation follows the Julia expression's order of operations.
func (s Setting) WishartKAuthors() int {
	return int(s.wishartKAuthorsFloat())
}

func (s Setting) wishartKAuthorsFloat() float64 {
	m := s.Levels()
	eps, delta := s.Epsilon, s.Delta
	if m > 1 {
		dfail := delta / float64(m+1)
		eps = eps / math.Sqrt(8*float64(m)*xmath.Log(1/dfail))
		delta = (delta - dfail) / float64(m)
	}
	return float64(s.D+1) + math.Floor(28*xmath.Log(4/delta)/(eps*eps))
}

// RegBounds are (α/2n)-accurate bounds on a changing regularizer (SS18
// Definition / Proposition 4): with probability ≥ 1 − α/(2n) in each round,
// ‖H_t‖ ≤ ρ_max, ‖H_t⁻¹‖ ≤ 1/ρ_min and ‖h_t‖_{H_t⁻¹} ≤ γ.
type RegBounds struct {
	RhoMin, RhoMax, Gamma float64
	// Shift is the c of the regularizer: subtracted from the tree noise for
	// Wishart (H′_t = H_t − cI), added for Gaussian (H_t = N_t + cI).
	Shift float64
}

// wishartA returns a = √d + √(2 ln(8n/α)) (SS18 Eq. 4 and Prop. 9): the
// deviation in Claim 19's eigenvalue interval at failure probability α/(4n).
func (s Setting) wishartA() float64 {
	return math.Sqrt(float64(s.D)) + math.Sqrt(2*xmath.Log(8*float64(s.N)/s.AlphaOrDefault()))
}

// gammaB returns b = √d + √(2 ln(2n/α)), the χ²(d) tail of Claim 17 at
// failure probability α/(2n): ‖g‖ ≤ b for g ~ N(0, I_d).
func (s Setting) gammaB() float64 {
	return math.Sqrt(float64(s.D)) + math.Sqrt(2*xmath.Log(2*float64(s.N)/s.AlphaOrDefault()))
}

// WishartShift returns c of SS18 Eq. (4), the shift subtracted from the
// Wishart regularizer H_t ~ W_d(L̃² I, mk):
//
//	c = L̃² (√(mk) − a)² − 4 L̃² √(mk) a,    a = √d + √(2 ln(8n/α)).
//
// It makes ρ′_min = ρ_min − c = ρ_max − ρ_min (Appendix C, proof of Prop. 9).
func (s Setting) WishartShift(k int) float64 {
	smk := math.Sqrt(float64(s.Levels()) * float64(k))
	a := s.wishartA()
	return s.Lt2*(smk-a)*(smk-a) - 4*s.Lt2*smk*a
}

// WishartBounds returns the bounds of SS18 Proposition 9 for the tree-based
// mechanism with node noise W_{d+1}(L̃² I, k), so that H_t ~ W_d(L̃² I, mk):
//
//	unshifted:  ρ_min = L̃²(√(mk) − a)²,  ρ_max = L̃²(√(mk) + a)²,
//	            γ = L̃ (√d + √(2 ln(2n/α))),                          Shift 0;
//	shifted by c of Eq. (4) (H′_t = H_t − cI):
//	            ρ′_min = 4 L̃² √(mk) a,  ρ′_max = 8 L̃² √(mk) a,
//	            γ′ = L̃ √(√(mk) (√d + √(2 ln(2n/α)))),                 Shift c,
//
// with a = √d + √(2 ln(8n/α)), all as printed. The printed γ′ is a loose
// upper bound on what the proof derives from Claim 20,
// γ √(ρ_min/ρ′_min); [Setting.WishartBoundsShift] returns that tighter
// value. These bounds assume every release sums exactly m node noises (the
// padded tree; see [counter.Padded]).
func (s Setting) WishartBounds(k int) (unshifted, shifted RegBounds) {
	smk := math.Sqrt(float64(s.Levels()) * float64(k))
	a := s.wishartA()
	b := s.gammaB()
	lt := math.Sqrt(s.Lt2)
	unshifted = RegBounds{
		RhoMin: s.Lt2 * (smk - a) * (smk - a),
		RhoMax: s.Lt2 * (smk + a) * (smk + a),
		Gamma:  lt * b,
	}
	shifted = RegBounds{
		RhoMin: 4 * s.Lt2 * smk * a,
		RhoMax: 8 * s.Lt2 * smk * a,
		Gamma:  lt * math.Sqrt(smk*b),
		Shift:  s.WishartShift(k),
	}
	return unshifted, shifted
}

// WishartBoundsShift returns the bounds for the Wishart regularizer shifted
// by any c, H′_t = H_t − cI (Appendix C, proof of Prop. 9, and Claim 20:
// ‖v‖_{(H−cI)⁻¹} ≤ ‖v‖_{H⁻¹} √(ρ/(ρ−c)) for H ⪰ ρI):
//
//	ρ′_min = ρ_min − c,  ρ′_max = ρ_max − c,  γ′ = γ √(ρ_min/(ρ_min − c)),
//
// with ρ_min, ρ_max, γ the unshifted bounds of Prop. 9. A negative c is
// allowed (it adds to H_t). If c ≥ ρ_min the shifted matrix need not be
// positive definite: the result then has RhoMin ≤ 0 and Gamma = +Inf, and
// must not be used for β_t; the function does not fail.
func (s Setting) WishartBoundsShift(k int, c float64) RegBounds {
	u, _ := s.WishartBounds(k)
	r := RegBounds{RhoMin: u.RhoMin - c, RhoMax: u.RhoMax - c, Shift: c}
	if r.RhoMin > 0 {
		r.Gamma = u.Gamma * math.Sqrt(u.RhoMin/r.RhoMin)
	} else {
		r.Gamma = math.Inf(1)
	}
	return r
}

// GaussianSigma returns σ_noise of SS18 Section 4.2, the standard deviation
// of each entry of Z′ in the node noise Z = (Z′ + Z′ᵀ)/√2:
//
//	σ²_noise = 16 m L̃⁴ ln(4/δ)² / ε²,   i.e. σ_noise = 4 √m L̃² ln(4/δ)/ε.
//
// The paper cites zCDP composition (footnote 5) for this calibration; the
// authors' code uses the same σ.
func (s Setting) GaussianSigma() float64 {
	m := float64(s.Levels())
	return 4 * math.Sqrt(m) * s.Lt2 * xmath.Log(4/s.Delta) / s.Epsilon
}

// GaussianZCDPRho returns the zero-concentrated DP parameter ρ (Bun &
// Steinke 2016) of the whole Gaussian-noise tree mechanism of SS18
// Section 4.2 with σ = [Setting.GaussianSigma], for two streams that
// differ in one round (one v_t = (x_t, y_t) replaced by v′_t):
//
//	ρ = m L̃⁴ / (2σ²_noise) = ε² / (32 ln(4/δ)²).
//
// Derivation: a node releases the upper triangle of M + Z with independent
// entries, diagonal N(0, 2σ²) and off-diagonal N(0, σ²); for a change Δ
// of M its zCDP is Σ_i Δ_ii²/(4σ²) + Σ_{i<j} Δ_ij²/(2σ²) = ‖Δ‖_F²/(4σ²).
// Replacing v by v′ (‖v‖², ‖v′‖² ≤ L̃²) gives ‖vvᵀ − v′v′ᵀ‖_F² =
// ‖v‖⁴ + ‖v′‖⁴ − 2(vᵀv′)² ≤ 2L̃⁴, so ρ_node ≤ L̃⁴/(2σ²), and round t enters
// m nodes, which compose additively. (The paper's "Frobenius change L̃²" is
// the add/remove sensitivity; for replacement it is √2 L̃², compensated
// exactly by the symmetrisation halving the noise's zCDP cost.) This is an
// accounting the paper does not print: it says the calibration uses zCDP
// composition (footnote 5) but the printed σ² is that of the classical
// Gaussian mechanism with advanced composition.
func (s Setting) GaussianZCDPRho() float64 {
	sig := s.GaussianSigma()
	return float64(s.Levels()) * s.Lt2 * s.Lt2 / (2 * sig * sig)
}

// GaussianEpsilonZCDP returns the ε at the setting's δ that the zCDP
// accounting of [Setting.GaussianZCDPRho] certifies for the Gaussian
// mechanism (Bun & Steinke 2016, Prop. 1.3: ρ-zCDP implies
// (ρ + 2√(ρ ln(1/δ)), δ)-DP). At the paper's setting it is about 0.148 for
// the target ε = 1: reaching ε = 1 needs ρ ≈ 0.0899, 39 times more, so the
// printed σ_noise is about √39 ≈ 6.3 times larger than this accounting needs.
func (s Setting) GaussianEpsilonZCDP() float64 {
	return accounting.ZCDPToDP(s.GaussianZCDPRho(), s.Delta)
}

// Upsilon returns Υ of SS18 Section 4.2 as printed, the bound on the operator
// norm of the top-left d×d block of the summed Gaussian tree noise N_t
// (each entry of variance m σ²_noise off the diagonal):
//
//	Υ = σ_noise √(2m) (4√d + 2 ln(2n/α)).
//
// The authors' code has the same form (4√d + 2 ln(·)). See
// [Setting.UpsilonCorrected] for the deviation term a Gaussian
// concentration argument gives; the printed Υ is a valid but loose bound
// (about 4.7 times the corrected one at the paper's setting).
func (s Setting) Upsilon() float64 {
	m := float64(s.Levels())
	return s.GaussianSigma() * math.Sqrt(2*m) *
		(float64(4*math.Sqrt(float64(s.D))) + float64(2*xmath.Log(2*float64(s.N)/s.AlphaOrDefault())))
}

// UpsilonCorrected returns Υ with the deviation term √(2 ln(2n/α)) in place
// of the printed 2 ln(2n/α):
//
//	Υ_c = σ_noise √(2m) (4√d + √(2 ln(2n/α))).
//
// Why this is the right reading: the d×d block is σ√m·(G + Gᵀ)/√2 with G a
// d×d matrix of i.i.d. N(0,1), a GOE-like matrix whose operator norm ‖·‖
// is a √2-Lipschitz function of G in Frobenius norm. Gaussian concentration
// then gives P[‖X‖ > E‖X‖ + t] ≤ e^{−t²/4}; with E‖(G+Gᵀ)/√2‖ ≤ √2 E‖G‖
// ≤ 2√2 √d (Gordon / Davidson–Szarek, Claim 18's √n + √d) the failure
// probability α/(2n) needs t = 2√(ln(2n/α)) = √2 · √(2 ln(2n/α)), so
//
//	‖N_t block‖ ≤ σ√m (2√2 √d + √2 √(2 ln(2n/α))) = σ√(2m)(2√d + √(2 ln(2n/α))),
//
// i.e. the deviation enters as a square root of the logarithm (as in
// Claims 17–19); 4√d in place of 2√d is a further factor-2 slack, kept here
// as printed. The printed 2 ln(2n/α) exceeds √(2 ln(2n/α)) whenever
// ln(2n/α) > 1/2, so the printed Υ is valid, only loose.
func (s Setting) UpsilonCorrected() float64 {
	m := float64(s.Levels())
	return s.GaussianSigma() * math.Sqrt(2*m) *
		(float64(4*math.Sqrt(float64(s.D))) + math.Sqrt(2*xmath.Log(2*float64(s.N)/s.AlphaOrDefault())))
}

// GaussianBounds returns the bounds of SS18 Proposition 11 with the printed
// Υ ([Setting.Upsilon]): H_t = N_t + 2Υ I and
//
//	ρ_min = Υ,  ρ_max = 3Υ,  γ = σ_noise √(m/Υ) (√d + √(2 ln(2n/α))),   Shift 2Υ.
//
// γ bounds ‖h_t‖_{H_t⁻¹} ≤ ‖h_t‖/√ρ_min, ‖h_t‖ ≤ σ_noise √m (√d + √(2 ln(2n/α)))
// by Claim 17 (h_t has i.i.d. N(0, mσ²_noise) entries).
func (s Setting) GaussianBounds() RegBounds {
	u := s.Upsilon()
	return s.GaussianBoundsShift(u, 2*u)
}

// GaussianBoundsShift returns the Proposition 11 bounds for the Gaussian
// regularizer H = N + cI, given a bound Υ on ‖N‖ (e.g. [Setting.Upsilon]
// or [Setting.UpsilonCorrected]) and any shift c:
//
//	ρ_min = c − Υ,  ρ_max = c + Υ,  γ = σ_noise √(m/(c − Υ)) (√d + √(2 ln(2n/α))),
//
// Shift c. If c ≤ Υ the result has RhoMin ≤ 0 and Gamma = +Inf (or NaN) and
// must not be used for β_t.
func (s Setting) GaussianBoundsShift(upsilon, c float64) RegBounds {
	m := float64(s.Levels())
	r := RegBounds{RhoMin: c - upsilon, RhoMax: c + upsilon, Shift: c}
	if r.RhoMin > 0 {
		r.Gamma = s.GaussianSigma() * math.Sqrt(m/r.RhoMin) * s.gammaB()
	} else {
		r.Gamma = math.Inf(1)
	}
	return r
}

// NonPrivateBounds returns the bounds of the constant ridge regularizer
// H = λI, h = 0: ρ_min = ρ_max = λ, γ = 0, Shift λ (the λ added to G_t).
func NonPrivateBounds(lambda float64) RegBounds {
	return RegBounds{RhoMin: lambda, RhoMax: lambda, Gamma: 0, Shift: lambda}
}

// ConfidenceParams are the remaining inputs of β_t (SS18 Prop. 4, Thms 5–6).
type ConfidenceParams struct {
	D     int     // dimension d. Required (>= 1).
	Sigma float64 // reward noise is σ-subgaussian. Required (>= 0).
	S     float64 // ‖θ*‖ ≤ S. Required (>= 0).
	L     float64 // ‖x‖ ≤ L. Required (> 0).
	Alpha float64 // failure probability α ∈ (0,1). Required.
}

// Validate reports the first invalid field.
func (p ConfidenceParams) Validate() error {
	if err := param.CheckDim("dimension d", p.D); err != nil {
		return err
	}
	if err := param.CheckNonNegative("sigma", p.Sigma); err != nil {
		return err
	}
	if err := param.CheckNonNegative("S", p.S); err != nil {
		return err
	}
	if err := param.CheckPositive("L", p.L); err != nil {
		return err
	}
	return param.CheckProb("alpha", p.Alpha)
}

// BetaLogDet returns β_t of SS18 Proposition 4 from log det V_t:
//
//	β_t = σ √(2 ln(2/α) + ln det V_t − d ln ρ_min) + S √ρ_max + γ.
//
// With (α/2n)-accurate bounds b, ‖θ* − θ̃_t‖_{V_t} ≤ β_t for all t ≤ n
// simultaneously with probability ≥ 1 − α.
func BetaLogDet(p ConfidenceParams, b RegBounds, logDetV float64) float64 {
	d := float64(p.D)
	return p.Sigma*math.Sqrt(2*xmath.Log(2/p.Alpha)+logDetV-d*xmath.Log(b.RhoMin)) +
		p.S*math.Sqrt(b.RhoMax) + b.Gamma
}

// BetaBar returns β̄_t, the closed-form upper bound on β_t of SS18
// Proposition 4 (using det V_t ≤ (ρ_max + t L²/d)^d):
//
//	β̄_t = σ √(2 ln(2/α) + d ln(ρ_max/ρ_min + t L²/(d ρ_min))) + S √ρ_max + γ.
func BetaBar(p ConfidenceParams, b RegBounds, t int) float64 {
	d := float64(p.D)
	return float64(p.Sigma*math.Sqrt(float64(2*xmath.Log(2/p.Alpha))+
		float64(d*xmath.Log(b.RhoMax/b.RhoMin+float64(float64(t)*p.L*p.L/(d*b.RhoMin)))))) +
		float64(p.S*math.Sqrt(b.RhoMax)) + b.Gamma
}

// Theorem5Bound returns the regret bound of SS18 Theorem 5 (w.p. ≥ 1 − α),
// for rewards with |⟨θ*, x⟩| ≤ B:
//
//	R̂_n ≤ B · β̄_n · √(8 d n ln(1 + n L²/(d ρ_min))).
func Theorem5Bound(p ConfidenceParams, b RegBounds, n int, B float64) float64 {
	d, nf := float64(p.D), float64(n)
	return B * BetaBar(p, b, n) * math.Sqrt(8*d*nf*xmath.Log(1+nf*p.L*p.L/(d*b.RhoMin)))
}

// Theorem6Bound returns the gap-dependent regret bound of SS18 Theorem 6
// (w.p. ≥ 1 − α), for reward gap Δ = gap:
//
//	R̂_n ≤ (8B/Δ) · β̄_n² · d ln(1 + n L²/(d ρ_min)).
func Theorem6Bound(p ConfidenceParams, b RegBounds, n int, B, gap float64) float64 {
	d, nf := float64(p.D), float64(n)
	bb := BetaBar(p, b, n)
	return 8 * B / gap * bb * bb * d * xmath.Log(1+nf*p.L*p.L/(d*b.RhoMin))
}
