package dpb

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// SS18Alg names the variants of Algorithm 1 compared in SS18 Appendix D.2.
type SS18Alg int

const (
	// SS18NonPrivate is LinUCB with the ridge regularizer H = λI (ρ = 1 in Fig. 4).
	SS18NonPrivate SS18Alg = iota
	// SS18Gaussian is the Gaussian tree regularizer of Section 4.2 (shift 2Υ).
	SS18Gaussian
	// SS18Wishart is the Wishart tree regularizer of Section 4.1, shifted by c of Eq. (4).
	SS18Wishart
	// SS18WishartUnshifted is the Wishart tree regularizer without the shift.
	SS18WishartUnshifted
	// SS18GaussianExact is the Gaussian regularizer on the same tree (the
	// configured release mode) with σ calibrated exactly and the sharp Υ
	// ([NewGaussianCounterReg]); issue 10.
	SS18GaussianExact
	// SS18GaussianHonaker is SS18GaussianExact on Honaker's tree estimator.
	SS18GaussianHonaker
	// SS18GaussianSmooth is SS18GaussianExact on the smooth binary mechanism.
	SS18GaussianSmooth
	// SS18GaussianSqrt is SS18GaussianExact on the exact square-root
	// factorisation (n ≤ MaxSqrtHorizon).
	SS18GaussianSqrt
	// SS18GaussianBLT is SS18GaussianExact on the streaming BLT counter.
	SS18GaussianBLT
	// SS18WishartTight is SS18Wishart with the smallest k that Theorem 8 and
	// the optimal composition theorem certify ([SS18Setting.WishartKTight]).
	SS18WishartTight
	// SS18GaussianBLTSharp is SS18GaussianBLT (the same σ and counter, so
	// the same privacy) with Proposition 11's bounds re-derived tightly
	// and the β-minimising shift ([GaussianCounterCalibrationSharp]).
	SS18GaussianBLTSharp
	// SS18GaussianBLTRound is SS18GaussianBLT (the same σ and counter) with
	// bounds and shift that follow the counter's variance round by round
	// and a summable failure budget ([NewGaussianCounterRegRound]).
	SS18GaussianBLTRound
)

// SS18BeyondAlgs lists the variants of the beyond-ss18 figure: the paper's
// Gaussian and Wishart beside the exactly calibrated ones (issue 10),
// including the two BLT refinements (sharp bounds, per-round bounds) that
// reach the lowest regret at the same (ε, δ).
var SS18BeyondAlgs = []SS18Alg{SS18NonPrivate, SS18Gaussian, SS18GaussianExact, SS18GaussianHonaker,
	SS18GaussianSmooth, SS18GaussianBLT, SS18GaussianBLTSharp, SS18GaussianBLTRound, SS18Wishart, SS18WishartTight}

// GaussianCounter returns the counter an exactly calibrated Gaussian variant
// runs on (mode picks the tree for SS18GaussianExact), and false for the
// other variants.
func (a SS18Alg) GaussianCounter(mode ReleaseMode) (CounterKind, bool) {
	switch a {
	case SS18GaussianExact:
		if mode == Plain {
			return CounterTree, true
		}
		return CounterTreePadded, true
	case SS18GaussianHonaker:
		return CounterHonaker, true
	case SS18GaussianSmooth:
		return CounterSmooth, true
	case SS18GaussianSqrt:
		return CounterSqrt, true
	case SS18GaussianBLT, SS18GaussianBLTSharp, SS18GaussianBLTRound:
		return CounterBLT, true
	}
	return 0, false
}

// SS18Algs lists the variants in the order of the paper's Figure 4.
var SS18Algs = []SS18Alg{SS18NonPrivate, SS18Gaussian, SS18Wishart, SS18WishartUnshifted}

func (a SS18Alg) String() string {
	switch a {
	case SS18NonPrivate:
		return "NonPrivate"
	case SS18Gaussian:
		return "Gaussian"
	case SS18Wishart:
		return "Wishart"
	case SS18WishartUnshifted:
		return "WishartUnshifted"
	case SS18GaussianExact:
		return "GaussianExact"
	case SS18GaussianHonaker:
		return "GaussianHonaker"
	case SS18GaussianSmooth:
		return "GaussianSmooth"
	case SS18GaussianSqrt:
		return "GaussianSqrt"
	case SS18GaussianBLT:
		return "GaussianBLT"
	case SS18WishartTight:
		return "WishartTight"
	case SS18GaussianBLTSharp:
		return "GaussianBLTSharp"
	case SS18GaussianBLTRound:
		return "GaussianBLTRound"
	}
	return fmt.Sprintf("SS18Alg(%d)", int(a))
}

// ParseSS18Alg parses a variant name, case-insensitively: nonprivate,
// gaussian, wishart, wishart-unshifted (or wishartunshifted).
func ParseSS18Alg(s string) (SS18Alg, error) {
	switch strings.ReplaceAll(strings.ToLower(s), "-", "") {
	case "nonprivate", "ridge":
		return SS18NonPrivate, nil
	case "gaussian":
		return SS18Gaussian, nil
	case "wishart":
		return SS18Wishart, nil
	case "wishartunshifted":
		return SS18WishartUnshifted, nil
	}
	for _, a := range SS18BeyondAlgs {
		if strings.EqualFold(a.String(), strings.ReplaceAll(s, "-", "")) {
			return a, nil
		}
	}
	for _, a := range []SS18Alg{SS18GaussianSqrt, SS18GaussianBLTSharp, SS18GaussianBLTRound} {
		if strings.EqualFold(strings.ReplaceAll(s, "-", ""), a.String()) {
			return a, nil
		}
	}
	return 0, fmt.Errorf("dpb: unknown SS18 algorithm %q (nonprivate, gaussian, wishart, wishart-unshifted, gaussian-exact, gaussian-honaker, gaussian-smooth, gaussian-sqrt, gaussian-blt, wishart-tight, gaussian-blt-sharp, gaussian-blt-round)", s)
}

// MarshalText implements encoding.TextMarshaler (for JSON metadata).
func (a SS18Alg) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler (reading metadata back):
// the inverse of MarshalText, through [ParseSS18Alg].
func (a *SS18Alg) UnmarshalText(b []byte) error {
	v, err := ParseSS18Alg(string(b))
	if err != nil {
		return err
	}
	*a = v
	return nil
}

// SS18PolicyConfig configures [NewSS18Policy]: one variant of Algorithm 1 in
// the setting of SS18 Appendix D.
type SS18PolicyConfig struct {
	// Alg is the variant. Defaults to SS18NonPrivate.
	Alg SS18Alg
	// Setting holds d, n, ε, δ, L̃², α. Required (ε, δ, L̃² are ignored by SS18NonPrivate).
	Setting SS18Setting
	// Mode is the tree's release mode for the private variants. Defaults to Plain.
	Mode ReleaseMode
	// Noise selects the sampler of the private variants (see [TreeRegConfig]):
	// NoiseSecure is available for SS18Gaussian only.
	Noise NoiseMode
	// Lambda is the ridge λ of SS18NonPrivate. Defaults to 1.
	Lambda float64
	// Shift and ShiftValue override the variant's shift (ShiftGiven), for the
	// shift study of Appendix D.3. The zero value keeps the variant's own.
	Shift      ShiftMode
	ShiftValue float64
	// Radius, Sigma, S, L, Clip are passed to LinUCBConfig (defaults there).
	Radius      RadiusForm
	Sigma, S, L float64
	Clip        bool
}

// NewSS18Policy returns the configured variant of SS18 Algorithm 1.
func NewSS18Policy(cfg SS18PolicyConfig, rng *rand.Rand) (*LinUCB, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	s := cfg.Setting
	var reg Regularizer
	var err error
	switch cfg.Alg {
	case SS18NonPrivate:
		lambda := cfg.Lambda
		if lambda == 0 {
			lambda = 1
		}
		reg, err = NewRidge(s.D, lambda)
	case SS18Gaussian:
		reg, err = NewGaussianTree(TreeRegConfig{Setting: s, Mode: cfg.Mode, Shift: cfg.Shift, ShiftValue: cfg.ShiftValue, Noise: cfg.Noise}, rng)
	case SS18GaussianExact, SS18GaussianHonaker, SS18GaussianSmooth, SS18GaussianSqrt, SS18GaussianBLT, SS18GaussianBLTSharp, SS18GaussianBLTRound:
		if cfg.Shift != ShiftPaper {
			return nil, fmt.Errorf("dpb: %v derives its shift from its counter; Shift must be ShiftPaper", cfg.Alg)
		}
		if cfg.Noise != NoiseSimulated {
			return nil, fmt.Errorf("dpb: %v runs on simulated noise only (Noise must be NoiseSimulated)", cfg.Alg)
		}
		kind, _ := cfg.Alg.GaussianCounter(cfg.Mode)
		switch cfg.Alg {
		case SS18GaussianBLTSharp:
			reg, err = NewGaussianCounterRegSharp(s, kind, rng)
		case SS18GaussianBLTRound:
			reg, err = NewGaussianCounterRegRound(s, kind, rng)
		default:
			reg, err = NewGaussianCounterReg(s, kind, rng)
		}
	case SS18WishartTight:
		k, kerr := s.WishartKTight()
		if kerr != nil {
			return nil, kerr
		}
		reg, err = NewWishartTree(TreeRegConfig{Setting: s, Mode: cfg.Mode, Shift: cfg.Shift, ShiftValue: cfg.ShiftValue, K: k, Noise: cfg.Noise}, rng)
	case SS18Wishart, SS18WishartUnshifted:
		shift := cfg.Shift
		if cfg.Alg == SS18WishartUnshifted && shift == ShiftPaper {
			shift = ShiftNone
		}
		reg, err = NewWishartTree(TreeRegConfig{Setting: s, Mode: cfg.Mode, Shift: shift, ShiftValue: cfg.ShiftValue, Noise: cfg.Noise}, rng)
	default:
		return nil, fmt.Errorf("dpb: unknown SS18 algorithm %d", int(cfg.Alg))
	}
	if err != nil {
		return nil, err
	}
	return NewLinUCB(LinUCBConfig{
		Dim: s.D, Horizon: s.N, Regularizer: reg, Alpha: s.Alpha,
		Radius: cfg.Radius, Sigma: cfg.Sigma, S: cfg.S, L: cfg.L, Clip: cfg.Clip,
	})
}
