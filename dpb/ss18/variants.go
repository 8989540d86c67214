package ss18

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// Alg names the variants of Algorithm 1 compared in SS18 Appendix D.2. The
// zero Alg names none: [NewPolicy] refuses it, so a non-private policy is
// one asked for by name (NonPrivate), never one a config left unset.
type Alg int

const (
	// NonPrivate is LinUCB with the ridge regularizer H = λI (ρ = 1 in Fig. 4).
	NonPrivate Alg = iota + 1
	// Gaussian is the Gaussian tree regularizer of Section 4.2 (shift 2Υ).
	Gaussian
	// Wishart is the Wishart tree regularizer of Section 4.1, shifted by c of Eq. (4).
	Wishart
	// WishartUnshifted is the Wishart tree regularizer without the shift.
	WishartUnshifted
	// GaussianExact is the Gaussian regularizer on the same tree (the
	// configured release mode) with σ calibrated exactly and the sharp Υ
	// ([NewRegularizer] (RegGaussianCounter)).
	GaussianExact
	// GaussianHonaker is GaussianExact on Honaker's tree estimator.
	GaussianHonaker
	// GaussianSmooth is GaussianExact on the smooth binary mechanism.
	GaussianSmooth
	// GaussianSqrt is GaussianExact on the exact square-root
	// factorisation (n ≤ MaxSqrtHorizon).
	GaussianSqrt
	// GaussianBLT is GaussianExact on the streaming BLT counter.
	GaussianBLT
	// WishartTight is Wishart with the smallest k that Theorem 8 and
	// the optimal composition theorem certify ([Setting.WishartKTight]).
	WishartTight
	// GaussianBLTSharp is GaussianBLT (the same σ and counter, so
	// the same privacy) with Proposition 11's bounds re-derived tightly
	// and the β-minimising shift ([GaussianCounterCalibrationSharp]).
	GaussianBLTSharp
	// GaussianBLTRound is GaussianBLT (the same σ and counter) with
	// bounds and shift that follow the counter's variance round by round
	// and a summable failure budget ([NewRegularizer] (RegGaussianCounterRound)).
	GaussianBLTRound
	// GaussianExactMinEig, GaussianBLTMinEig, GaussianBLTRoundMinEig and
	// WishartTightMinEig are those variants (the same regularizer, noise and
	// privacy) with the radius tightened by λ_min of the released V_t
	// ([RadiusMinEig]: free post-processing).
	GaussianExactMinEig
	GaussianBLTMinEig
	GaussianBLTRoundMinEig
	WishartTightMinEig
	// GaussianSplit, GaussianToeplitz and GaussianLevers are
	// GaussianBLTRoundMinEig (the per-round BLT regularizer with the λ_min
	// radius) with the noise levers of levers.go: the reward vector's noise
	// split from the Gram block's (Split; PolicyConfig.XBound and YBound
	// required), the BLT on (1−z)^{−β} (Toeplitz), and both, on simulated
	// or secure noise (leverNoise in round.go).
	GaussianSplit
	GaussianToeplitz
	GaussianLevers
	// GaussianShift is GaussianBLTRoundMinEig with the released-shift lever
	// (ρ_t chosen each round from the released λ_min, released_shift.go),
	// and GaussianLeversShift has all three levers.
	GaussianShift
	GaussianLeversShift
	// GaussianLeversNorms is GaussianLevers with the Norms lever: Υ_t and
	// g_t from sharper bounds on the same noise's norms (norms.go).
	GaussianLeversNorms
)

// LeverAlgs lists the variants with noise levers.
var LeverAlgs = []Alg{GaussianSplit, GaussianToeplitz, GaussianLevers, GaussianShift, GaussianLeversShift, GaussianLeversNorms}

// NoiseLeverAlgs lists the lever variants whose mechanism (noise,
// counter, calibration) is not another variant's: the released shift is
// post-processing of the releases, so GaussianShift releases what
// GaussianBLTRound releases and GaussianLeversShift what GaussianLevers
// releases (the audits and the calibration checks run these three).
var NoiseLeverAlgs = []Alg{GaussianSplit, GaussianToeplitz, GaussianLevers}

// Levers returns the levers of a lever variant (split bounds unset) and
// false for the others.
func (a Alg) Levers() (Levers, bool) {
	switch a {
	case GaussianSplit:
		return Levers{Split: true}, true
	case GaussianToeplitz:
		return Levers{Toeplitz: true}, true
	case GaussianLevers:
		return Levers{Split: true, Toeplitz: true}, true
	case GaussianShift:
		return Levers{Shift: true}, true
	case GaussianLeversShift:
		return Levers{Split: true, Toeplitz: true, Shift: true}, true
	case GaussianLeversNorms:
		return Levers{Split: true, Toeplitz: true, Norms: true}, true
	}
	return Levers{}, false
}

// MinEigAlgs lists the RadiusMinEig variants.
var MinEigAlgs = []Alg{GaussianExactMinEig, GaussianBLTMinEig, GaussianBLTRoundMinEig, WishartTightMinEig}

// MinEigBase returns the variant a RadiusMinEig variant tightens (same
// regularizer, same noise), and false for the others.
func (a Alg) MinEigBase() (Alg, bool) {
	switch a {
	case GaussianExactMinEig:
		return GaussianExact, true
	case GaussianBLTMinEig:
		return GaussianBLT, true
	case GaussianBLTRoundMinEig:
		return GaussianBLTRound, true
	case WishartTightMinEig:
		return WishartTight, true
	}
	return a, false
}

// BeyondAlgs lists the variants of the beyond-ss18 figure: the paper's
// Gaussian and Wishart beside the exactly calibrated ones,
// including the two BLT refinements (sharp bounds, per-round bounds) that
// reach the lowest regret at the same (ε, δ), four of them again with the
// radius tightened by λ_min of the released V_t (RadiusMinEig, paired with
// their base variant's noise), and the six lever variants (levers.go,
// paired with GaussianBLTRound's noise).
var BeyondAlgs = []Alg{NonPrivate, Gaussian, GaussianExact, GaussianHonaker,
	GaussianSmooth, GaussianBLT, GaussianBLTSharp, GaussianBLTRound, Wishart, WishartTight,
	GaussianExactMinEig, GaussianBLTMinEig, GaussianBLTRoundMinEig, WishartTightMinEig,
	GaussianSplit, GaussianToeplitz, GaussianLevers, GaussianShift, GaussianLeversShift,
	GaussianLeversNorms}

// GaussianCounter returns the counter an exactly calibrated Gaussian variant
// runs on (mode picks the tree for GaussianExact), and false for the
// other variants.
func (a Alg) GaussianCounter(mode counter.ReleaseMode) (counter.Kind, bool) {
	a, _ = a.MinEigBase()
	switch a {
	case GaussianExact:
		if mode == counter.Plain {
			return counter.Tree, true
		}
		return counter.TreePadded, true
	case GaussianHonaker:
		return counter.Honaker, true
	case GaussianSmooth:
		return counter.Smooth, true
	case GaussianSqrt:
		return counter.Sqrt, true
	case GaussianBLT, GaussianBLTSharp, GaussianBLTRound:
		return counter.BLT, true
	}
	return 0, false
}

// Algs lists the variants in the order of the paper's Figure 4.
var Algs = []Alg{NonPrivate, Gaussian, Wishart, WishartUnshifted}

func (a Alg) String() string {
	switch a {
	case NonPrivate:
		return "NonPrivate"
	case Gaussian:
		return "Gaussian"
	case Wishart:
		return "Wishart"
	case WishartUnshifted:
		return "WishartUnshifted"
	case GaussianExact:
		return "GaussianExact"
	case GaussianHonaker:
		return "GaussianHonaker"
	case GaussianSmooth:
		return "GaussianSmooth"
	case GaussianSqrt:
		return "GaussianSqrt"
	case GaussianBLT:
		return "GaussianBLT"
	case WishartTight:
		return "WishartTight"
	case GaussianBLTSharp:
		return "GaussianBLTSharp"
	case GaussianBLTRound:
		return "GaussianBLTRound"
	case GaussianSplit:
		return "GaussianSplit"
	case GaussianToeplitz:
		return "GaussianToeplitz"
	case GaussianLevers:
		return "GaussianLevers"
	case GaussianShift:
		return "GaussianShift"
	case GaussianLeversShift:
		return "GaussianLeversShift"
	case GaussianLeversNorms:
		return "GaussianLeversNorms"
	}
	if b, ok := a.MinEigBase(); ok {
		return b.String() + "MinEig"
	}
	return fmt.Sprintf("SS18Alg(%d)", int(a))
}

// ParseAlg parses a variant name, case-insensitively: nonprivate,
// gaussian, wishart, wishart-unshifted (or wishartunshifted).
func ParseAlg(s string) (Alg, error) {
	switch strings.ReplaceAll(strings.ToLower(s), "-", "") {
	case "nonprivate", "ridge":
		return NonPrivate, nil
	case "gaussian":
		return Gaussian, nil
	case "wishart":
		return Wishart, nil
	case "wishartunshifted":
		return WishartUnshifted, nil
	}
	for _, a := range BeyondAlgs {
		if strings.EqualFold(a.String(), strings.ReplaceAll(s, "-", "")) {
			return a, nil
		}
	}
	for _, a := range append(append([]Alg{GaussianSqrt, GaussianBLTSharp, GaussianBLTRound}, MinEigAlgs...), LeverAlgs...) {
		if strings.EqualFold(strings.ReplaceAll(s, "-", ""), a.String()) {
			return a, nil
		}
	}
	return 0, fmt.Errorf("ss18: unknown SS18 algorithm %q (nonprivate, gaussian, wishart, wishart-unshifted, gaussian-exact, gaussian-honaker, gaussian-smooth, gaussian-sqrt, gaussian-blt, wishart-tight, gaussian-blt-sharp, gaussian-blt-round, and each of gaussian-exact, gaussian-blt, gaussian-blt-round, wishart-tight with -mineig, gaussian-split, gaussian-toeplitz, gaussian-levers, gaussian-shift, gaussian-levers-shift)", s)
}

// MarshalText implements encoding.TextMarshaler (for JSON metadata).
func (a Alg) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler (reading metadata back):
// the inverse of MarshalText, through [ParseAlg].
func (a *Alg) UnmarshalText(b []byte) error {
	v, err := ParseAlg(string(b))
	if err != nil {
		return err
	}
	*a = v
	return nil
}

// PolicyConfig configures [NewPolicy]: one variant of Algorithm 1 in
// the setting of SS18 Appendix D.
type PolicyConfig struct {
	// Alg is the variant. Required: the zero Alg is an error (NonPrivate,
	// the ridge baseline without privacy, must be named).
	Alg Alg
	// Setting holds d, n, ε, δ, L̃², α. Required (ε, δ, L̃² are ignored by NonPrivate).
	Setting Setting
	// Mode is the tree's release mode for the private variants. Defaults
	// (counter.ModeDefault) to Padded, the mode Propositions 9 and 11 assume;
	// Plain (the binary mechanism as usually run, and Figure 4's) must be
	// named.
	Mode counter.ReleaseMode
	// Noise selects the sampler of the private variants (see [RegularizerConfig]).
	// Unset (noise.Default) it is noise.Secure, exact discrete noise from
	// crypto/rand, which runs every Gaussian variant: Gaussian, GaussianExact,
	// GaussianHonaker and GaussianSmooth through the grid wrapper of
	// dpb/counter, GaussianSqrt, GaussianBLT, GaussianBLTSharp and
	// GaussianBLTRound (and their MinEig forms) and the lever variants
	// through the Toeplitz counters' secure measurements (data bound L̃² per
	// entry, or max(L², LB) split). The Wishart
	// variants refuse noise.Secure with an error that says why, and an unset
	// Noise with an error that says to name noise.Simulated (seeded
	// floating-point noise, not a release-grade guarantee). The policy's
	// Privacy reports the resolved mode.
	Noise noise.Mode
	// Lambda is the ridge λ of NonPrivate. Defaults to 1.
	Lambda float64
	// Shift and ShiftValue override the variant's shift (ShiftGiven), for the
	// shift study of Appendix D.3. The zero value keeps the variant's own.
	Shift      ShiftMode
	ShiftValue float64
	// Radius, Sigma, S, L, Clip are passed to LinUCBConfig (defaults there).
	Radius      RadiusForm
	Sigma, S, L float64
	Clip        bool
	// XBound and YBound are the split bounds ‖x‖ ≤ XBound, |y| ≤ YBound of
	// GaussianSplit and GaussianLevers[Shift,Norms] (required for them, > 0; unset for
	// the others). SS18 Fig. 4 has unit actions and ±1 rewards: 1 and 1.
	XBound, YBound float64
}

// NewPolicy returns the configured variant of SS18 Algorithm 1.
func NewPolicy(cfg PolicyConfig, rng *rand.Rand) (*LinUCB, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	if base, ok := cfg.Alg.MinEigBase(); ok {
		if cfg.Radius != RadiusLogDet && cfg.Radius != RadiusMinEig {
			return nil, fmt.Errorf("ss18: %v has the RadiusMinEig radius; Radius is %v", cfg.Alg, cfg.Radius)
		}
		cfg.Alg, cfg.Radius = base, RadiusMinEig
	}
	lv, lever := cfg.Alg.Levers()
	if lever {
		if cfg.Radius != RadiusLogDet && cfg.Radius != RadiusMinEig {
			return nil, fmt.Errorf("ss18: %v has the RadiusMinEig radius; Radius is %v", cfg.Alg, cfg.Radius)
		}
		cfg.Radius = RadiusMinEig
		if lv.Split {
			lv.XBound, lv.YBound = cfg.XBound, cfg.YBound
		}
	}
	if (cfg.XBound != 0 || cfg.YBound != 0) && !lv.Split {
		return nil, fmt.Errorf("ss18: split bounds (%v, %v) set for %v, which has no split (GaussianSplit, GaussianLevers)", cfg.XBound, cfg.YBound, cfg.Alg)
	}
	if cfg.Alg == 0 {
		return nil, fmt.Errorf("ss18: SS18 algorithm unset (the zero Alg): name the variant, NonPrivate for the ridge baseline without privacy")
	}
	if cfg.Mode == counter.ModeDefault {
		cfg.Mode = counter.Padded
	}
	if err := noise.CheckMode(cfg.Noise); err != nil {
		return nil, err
	}
	requested := cfg.Noise
	cfg.Noise = cfg.Noise.Resolve()
	s := cfg.Setting
	var reg Regularizer
	var err error
	switch cfg.Alg {
	case NonPrivate:
		lambda := cfg.Lambda
		if lambda == 0 {
			lambda = 1
		}
		reg, err = NewRegularizer(RegularizerConfig{Kind: RegRidge, Setting: s, Lambda: lambda}, rng)
	case Gaussian:
		reg, err = NewRegularizer(RegularizerConfig{Kind: RegGaussianTree, Setting: s, Mode: cfg.Mode, Shift: cfg.Shift, ShiftValue: cfg.ShiftValue, Noise: cfg.Noise}, rng)
	case GaussianExact, GaussianHonaker, GaussianSmooth, GaussianSqrt, GaussianBLT, GaussianBLTSharp, GaussianBLTRound:
		if cfg.Shift != ShiftPaper {
			return nil, fmt.Errorf("ss18: %v derives its shift from its counter; Shift must be ShiftPaper", cfg.Alg)
		}
		kind, _ := cfg.Alg.GaussianCounter(cfg.Mode)
		switch cfg.Alg {
		case GaussianBLTSharp:
			reg, err = NewRegularizer(RegularizerConfig{Kind: RegGaussianCounterSharp, Setting: s, Counter: kind, Noise: cfg.Noise}, rng)
		case GaussianBLTRound:
			reg, err = NewRegularizer(RegularizerConfig{Kind: RegGaussianCounterRound, Setting: s, Counter: kind, Noise: cfg.Noise}, rng)
		default:
			reg, err = NewRegularizer(RegularizerConfig{Kind: RegGaussianCounter, Setting: s, Counter: kind, Noise: cfg.Noise}, rng)
		}
	case WishartTight:
		k, kerr := s.WishartKTight()
		if kerr != nil {
			return nil, kerr
		}
		reg, err = NewRegularizer(RegularizerConfig{Kind: RegWishartTree, Setting: s, Mode: cfg.Mode, Shift: cfg.Shift, ShiftValue: cfg.ShiftValue, K: k, Noise: cfg.Noise}, rng)
	case Wishart, WishartUnshifted:
		shift := cfg.Shift
		if cfg.Alg == WishartUnshifted && shift == ShiftPaper {
			shift = ShiftNone
		}
		reg, err = NewRegularizer(RegularizerConfig{Kind: RegWishartTree, Setting: s, Mode: cfg.Mode, Shift: shift, ShiftValue: cfg.ShiftValue, Noise: cfg.Noise}, rng)
	case GaussianSplit, GaussianToeplitz, GaussianLevers, GaussianShift, GaussianLeversShift, GaussianLeversNorms:
		if cfg.Shift != ShiftPaper {
			return nil, fmt.Errorf("ss18: %v derives its shift from its counter; Shift must be ShiftPaper", cfg.Alg)
		}
		reg, err = NewRegularizer(RegularizerConfig{Kind: RegGaussianCounterRound, Setting: s, Counter: counter.BLT, Noise: cfg.Noise, Levers: lv}, rng)
	default:
		return nil, fmt.Errorf("ss18: unknown SS18 algorithm %d", int(cfg.Alg))
	}
	if err != nil {
		return nil, noise.ExplainDefault(requested, err)
	}
	return NewLinUCB(LinUCBConfig{
		Dim: s.D, Horizon: s.N, Regularizer: reg, Alpha: s.Alpha,
		Radius: cfg.Radius, Sigma: cfg.Sigma, S: cfg.S, L: cfg.L, Clip: cfg.Clip,
	})
}
