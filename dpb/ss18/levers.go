package ss18

import (
	"fmt"
	"math"
	"sync"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// Levers selects two changes to the per-round calibrated Gaussian
// regularizer (RegGaussianCounterRound on the BLT counter) that spend the
// same privacy on less noise where SS18's regret accrues. Each is chosen by
// one stated objective computed from the bound, never from regret: the
// smallest β̄ of Proposition 4 at round ⌈√n⌉ (σ = S = L = 1), the objective
// that already picks ρ_min for RegGaussianCounterRound ([LeverCalibration]).
type Levers struct {
	// Split gives the Gram block V and the reward vector u of the released
	// statistic their own noise, σ_V and σ_u = rσ_V, under the separate data
	// bounds ‖x‖ ≤ XBound and |y| ≤ YBound (both required, > 0, finite),
	// which LinUCB then enforces instead of ‖x‖² + y² ≤ L̃² (rejecting, or
	// clipping each part when asked). The y² corner of the statistic is
	// never used, so it is not released: the record enters with a zero
	// corner. Privacy: see [LeverCal]; on secure noise, leverNoise
	// (round.go).
	Split          bool
	XBound, YBound float64
	// Toeplitz runs the BLT counter on b ≈ (1−z)^{−β}
	// ([counter.BLTParamsBeta]) instead of the square root's β = ½: for
	// β > ½ less noise early, more late, at a lower cost per record.
	Toeplitz bool
	// Shift chooses ρ_t, and so the shift ρ_t + Υ_t, each round from
	// released values ([releasedShift]) instead of one ρ_min for all
	// rounds. Needs the RadiusMinEig radius to see the released λ_min.
	Shift bool
	// Norms bounds the noise's norms more sharply for the same noise
	// (norms.go): Υ_t with a certified Monte Carlo bound on E λ_max of the
	// GOE matrix instead of 2√d, g_t with the exact tail of χ_d instead of
	// its Lipschitz bound. Free in privacy (constants from public
	// parameters); the bounds' failure budget gives α/100 to the Monte
	// Carlo bound.
	Norms bool `json:",omitempty"`
}

// any reports whether a lever is on.
func (l Levers) any() bool { return l.Split || l.Toeplitz || l.Shift || l.Norms }

func (l Levers) check(s Setting) error {
	if l.Split {
		if err := param.CheckPositive("split bound XBound (‖x‖ ≤ XBound)", l.XBound); err != nil {
			return err
		}
		if err := param.CheckPositive("split bound YBound (|y| ≤ YBound)", l.YBound); err != nil {
			return err
		}
	} else if l.XBound != 0 || l.YBound != 0 {
		return fmt.Errorf("ss18: split bounds (%v, %v) given without Split", l.XBound, l.YBound)
	}
	return nil
}

// LeverCal is the calibration of [Levers] on the per-round Gaussian
// regularizer: GaussianCounterCal with Sigma = σ_V, plus σ_u, the ratio
// r = σ_u/σ_V, the Toeplitz exponent β and ρ_min.
//
// Privacy of the split (SS18 §4.2's Gaussian mechanism, re-accounted). The
// node noise is [noise.NewSymGaussianSplit]: independent entries on and
// above the diagonal, σ_V off the diagonal of the d×d block and √2σ_V on it,
// σ_u on the last column. A record z = [x; y] enters as zzᵀ with its corner
// y² set to zero; a change to z′ moves the block by ΔV = xxᵀ − x′x′ᵀ and
// the column by Δu = xy − x′y′, so a measurement with coefficient c is a
// Gaussian mechanism with
//
//	μ² = c² (‖ΔV‖_F²/(2σ_V²) + ‖Δu‖²/σ_u²)
//
// (each off-diagonal pair of ΔV counted once at variance σ_V², each
// diagonal entry at 2σ_V²). With ‖x‖, ‖x′‖ ≤ L = XBound, |y|, |y′| ≤ B =
// YBound and s = |⟨x, x′⟩|/(‖x‖‖x′‖), ‖ΔV‖_F² = ‖x‖⁴ + ‖x′‖⁴ − 2⟨x,x′⟩² and
// ‖Δu‖² ≤ ‖x‖²y² + ‖x′‖²y′² + 2|y y′ ⟨x,x′⟩|; both are largest at full norms
// (TestSplitSensitivityBruteForce searches the rest of the box), where
//
//	σ_V² μ²/c² ≤ f(s) = L⁴(1 − s²) + 2L²B²(1 + s)/r²,
//
// maximised at s* = κ = B²/(L²r²) when κ ≤ 1, f = L⁴(1 + κ)², else at s = 1,
// f = 4L⁴κ. The worst neighbours are x′ at angle arccos s* from x with
// y = B, y′ = −B sign⟨x, x′⟩. Over the measurements a record touches,
// μ² = Cost.L2Sq · f/σ_V², so
//
//	σ_V = √(Cost.L2Sq) · √f / μ(ε, δ),   σ_u = r σ_V,
//
// exactly as [GaussianCounterCal] (which is the case r = 1, L = B, where
// √f = 2L² = L̃²: the unsplit σ). The u column's noise enters only h_t, the
// block's only N_t: the bounds of round t are RegGaussianCounterRound's with
// Υ_t from σ_V and g_t from σ_u.
//
// The Toeplitz exponent changes the counter only (its exact Cost and
// VarianceAt), so every other step is the same.
//
// Choice of β, r and ρ_min: the minimiser of β̄ at round ⌈√n⌉ with that
// round's bounds, over β ∈ {0.50, 0.51, …, 0.80} (Toeplitz), r on a log
// grid in [1/8, 16] refined by golden section (Split), ρ as for
// RegGaussianCounterRound. With a lever off its value is fixed (β = ½,
// r = 1 with σ from L̃²). With the Norms lever the bounds in that objective
// are the sharper ones (norms.go), so β, r and ρ_min move with them.
type LeverCal struct {
	GaussianCounterCal
	SigmaU float64 `json:"sigma_u"`
	Ratio  float64 `json:"ratio"` // r = σ_u/σ_V
	Beta   float64 `json:"beta"`
	// Rho is ρ_min, or with the Shift lever the top ρ̄ of its grid.
	Rho    float64 `json:"rho_min"`
	Levers Levers  `json:"levers"`
	// Objective is β̄ at round ⌈√n⌉ for the chosen values.
	Objective float64 `json:"objective"`
	// EBound is the Norms lever's Ê_d, its bound on E λ_max of the d×d GOE
	// matrix in Υ_t (norms.go); 0 without it (2√d).
	EBound float64 `json:"e_lambda_max,omitempty"`
}

// SplitFactor returns √f of [LeverCal]: σ_V·μ/√Cost.L2Sq for the ratio r
// = σ_u/σ_V under ‖x‖ ≤ l, |y| ≤ b.
func SplitFactor(l, b, r float64) float64 {
	kappa := b * b / (l * l * r * r)
	if kappa <= 1 {
		return l * l * (1 + kappa)
	}
	return 2 * l * l * math.Sqrt(kappa)
}

// SplitWorstNeighbours returns the pair of records that maximises the
// split's μ² ([LeverCal]) in dimension d ≥ 2: x = L e₁, x′ = L(s e₁ + √(1−s²) e₂)
// with s = min(1, κ), y = B, y′ = −B.
func SplitWorstNeighbours(d int, l, b, r float64) (x []float64, y float64, x2 []float64, y2 float64) {
	s := math.Min(1, b*b/(l*l*r*r))
	x, x2 = make([]float64, d), make([]float64, d)
	x[0] = l
	x2[0], x2[1] = l*s, l*math.Sqrt(1-s*s)
	return x, b, x2, -b
}

type leverKey struct {
	s      Setting
	kind   counter.Kind
	levers Levers
}

var leverCache sync.Map // leverKey → LeverCal: the calibration is a deterministic function of its key

// LeverCalibration returns the calibration of the levers on the per-round
// Gaussian regularizer on the counter kind (BLT for Toeplitz) for the setting
// (see [LeverCal]). It is cached per (setting, kind, levers): at n = 5·10⁶
// the Toeplitz search builds 31 counters.
func LeverCalibration(s Setting, kind counter.Kind, l Levers) (LeverCal, error) {
	if err := s.Validate(); err != nil {
		return LeverCal{}, err
	}
	if err := l.check(s); err != nil {
		return LeverCal{}, err
	}
	if !nondecreasingVariance(kind) {
		return LeverCal{}, fmt.Errorf("ss18: the per-round Gaussian regularizer needs a counter whose variance never decreases (tree-padded, sqrt, blt), not %v", kind)
	}
	if l.Toeplitz && kind != counter.BLT {
		return LeverCal{}, fmt.Errorf("ss18: the Toeplitz lever runs the BLT counter, not %v", kind)
	}
	key := leverKey{s, kind, l}
	if c, ok := leverCache.Load(key); ok {
		return c.(LeverCal), nil
	}
	c, err := leverCalibrate(s, kind, l)
	if err != nil {
		return LeverCal{}, err
	}
	leverCache.Store(key, c)
	return c, nil
}

func leverCalibrate(s Setting, kind counter.Kind, l Levers) (LeverCal, error) {
	betas := []float64{0.5}
	if l.Toeplitz {
		betas = betas[:0]
		for i := 50; i <= 80; i++ {
			betas = append(betas, float64(i)/100)
		}
	}
	mu := accounting.GDPMu(s.Epsilon, s.Delta)
	tm := int(math.Ceil(math.Sqrt(float64(s.N))))
	a := s.AlphaOrDefault()
	cp := ConfidenceParams{D: s.D, Sigma: 1, S: 1, L: 1, Alpha: a}
	sd := math.Sqrt(float64(s.D))
	hn := harmonic(s.N)
	ar := a // the per-round bounds' budget (roundCal.alpha)
	var eb, q float64
	if l.Norms {
		ar, eb = normsSetup(a, s.D)
		q = normsQuantile(s.D, ar/(2*float64(gridUp(tm, s.N))*hn))
	}
	at := ar / (2 * float64(tm) * hn) // roundCal's a_t at tm
	best := LeverCal{Objective: math.Inf(1)}
	for _, beta := range betas {
		probe, err := leverProbe(s.N, kind, beta)
		if err != nil {
			return LeverCal{}, err
		}
		cost := probe.Cost()
		vm := probe.VarianceAt(gridUp(tm, s.N))
		// rhoFor returns the β̄-minimising ρ and β̄ at tm for σ_V, σ_u.
		rhoFor := func(sv, su float64) (float64, float64) {
			var ups, g0 float64
			if l.Norms {
				ups, g0 = roundNoiseNorms(sv, su, vm, eb, at, q)
			} else {
				ups, g0 = roundNoise(sv, su, vm, sd, at)
			}
			bb := func(rho float64) float64 {
				return BetaBar(cp, RegBounds{RhoMin: rho, RhoMax: rho + float64(2*ups), Gamma: g0 / math.Sqrt(rho)}, tm)
			}
			rho := minimiseLog(ups*1e-4, ups*1e4, bb)
			return rho, bb(rho)
		}
		sigmas := func(r float64) (float64, float64) {
			sv := math.Sqrt(cost.L2Sq) * SplitFactor(l.XBound, l.YBound, r) / mu
			return sv, r * sv
		}
		r := 1.0
		var sv, su float64
		if l.Split {
			r = minimiseLogGrid(1.0/8, 16, 120, 40, func(r float64) float64 {
				_, v := rhoFor(sigmas(r))
				return v
			})
			sv, su = sigmas(r)
		} else {
			sv, err = accounting.GaussianSigma(s.Epsilon, s.Delta, math.Sqrt(cost.L2Sq)*s.Lt2)
			if err != nil {
				return LeverCal{}, err
			}
			su = sv
		}
		rho, obj := rhoFor(sv, su)
		if obj < best.Objective {
			best = LeverCal{
				GaussianCounterCal: GaussianCounterCal{Kind: kind, Cost: cost, MaxVar: probe.MaxVariance(), Mu: mu, Sigma: sv},
				SigmaU:             su, Ratio: r, Beta: beta, Rho: rho, Levers: l, Objective: obj, EBound: eb,
			}
		}
	}
	return best, nil
}

// leverProbe returns a noiseless counter of the kind with dimension 1 (the
// BLT on (1−z)^{−β} for β ≠ ½), for its cost and variances.
func leverProbe(n int, kind counter.Kind, beta float64) (counter.Counter, error) {
	cfg := counter.Config{Kind: kind, Dim: 1, Horizon: n, Noise: noise.ZeroNoise{N: 1}}
	if beta != 0.5 {
		om, la, err := counter.BLTParamsBeta(n, beta)
		if err != nil {
			return nil, err
		}
		cfg.Omega, cfg.Lambda = om, la
	}
	return counter.New(cfg)
}

// accounting describes the guarantee of a regularizer with levers.
func (lc *LeverCal) accounting(s Setting) string {
	ctr := fmt.Sprintf("the %v counter", lc.Kind)
	if lc.Beta != 0.5 {
		ctr = fmt.Sprintf("the BLT counter on (1−z)^{−%g} (Toeplitz lever)", lc.Beta)
	}
	if !lc.Levers.Split {
		return fmt.Sprintf("SS18 §4.2 Gaussian regularizer on %s, σ calibrated exactly: a record enters the counter's measurements with ‖C_·s‖² = %g, so σ = %.4g gives μ-GDP with μ = √%g·L̃²/σ = %.4g (L̃² = %g), which is (ε = %g, δ = %g)-DP (Dong, Roth & Su 2022); joint DP by post-processing (Thm. 7)",
			ctr, lc.Cost.L2Sq, lc.Sigma, lc.Cost.L2Sq, lc.Mu, s.Lt2, s.Epsilon, s.Delta)
	}
	return fmt.Sprintf("SS18 §4.2 Gaussian regularizer on %s, split (levers.go): σ_V = %.4g on the Gram block, σ_u = %.4g (r = %.4g) on the reward vector, the y² corner not released; under ‖x‖ ≤ %g and |y| ≤ %g a record moves μ² by at most ‖C_·s‖²·f/σ_V² with ‖C_·s‖² = %g and √f = %.6g, so μ = %.4g, which is (ε = %g, δ = %g)-DP (Dong, Roth & Su 2022); joint DP by post-processing (Thm. 7)",
		ctr, lc.Sigma, lc.SigmaU, lc.Ratio, lc.Levers.XBound, lc.Levers.YBound, lc.Cost.L2Sq, SplitFactor(lc.Levers.XBound, lc.Levers.YBound, lc.Ratio), lc.Mu, s.Epsilon, s.Delta)
}
