package ss18

import (
	"fmt"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// RegKind names a changing regularizer of SS18 Algorithm 1 ([NewRegularizer]).
type RegKind int

const (
	// RegUnset is the zero RegKind: [NewRegularizer] refuses it.
	RegUnset RegKind = iota
	// RegRidge is the non-private H_t = λI ([Ridge]).
	RegRidge
	// RegWishartTree is the Wishart tree of Section 4.1 (node noise
	// W_{d+1}(L̃² I, k), Proposition 9's bounds).
	RegWishartTree
	// RegGaussianTree is the Gaussian tree of Section 4.2 (symmetrised
	// Gaussian node noise with the printed σ, Proposition 11's bounds).
	RegGaussianTree
	// RegGaussianCounter is Section 4.2's Gaussian regularizer released by
	// the continual counter Counter, σ calibrated exactly and Proposition
	// 11's bounds from the counter's variance ([GaussianCounterCal]).
	RegGaussianCounter
	// RegGaussianCounterSharp is RegGaussianCounter with the bounds and
	// shift of [GaussianCounterCalibrationSharp] (the same σ, so the same
	// (ε, δ)).
	RegGaussianCounterSharp
	// RegGaussianCounterRound is RegGaussianCounter with per-round bounds
	// and shift and a summable failure budget (round.go).
	RegGaussianCounterRound
)

func (k RegKind) String() string {
	switch k {
	case RegUnset:
		return "unset"
	case RegRidge:
		return "ridge"
	case RegWishartTree:
		return "wishart-tree"
	case RegGaussianTree:
		return "gaussian-tree"
	case RegGaussianCounter:
		return "gaussian-counter"
	case RegGaussianCounterSharp:
		return "gaussian-counter-sharp"
	case RegGaussianCounterRound:
		return "gaussian-counter-round"
	}
	return fmt.Sprintf("RegKind(%d)", int(k))
}

// RegularizerConfig configures every changing regularizer for
// [NewRegularizer]: one struct, printable (%+v), validated by
// NewRegularizer, each field documented with the kinds that read it. A
// field its kind does not read must be left zero.
type RegularizerConfig struct {
	// Kind is the regularizer. Required.
	Kind RegKind

	// Setting holds d, the horizon n, ε, δ, L̃² and α. Required (validated)
	// for the private kinds; RegRidge reads only Setting.D (>= 1).
	Setting Setting
	// Lambda is the ridge λ (> 0, finite), for RegRidge only. Defaults (0)
	// to 1, as SS18 Figures 2–4.
	Lambda float64
	// Counter is the continual counter of the calibrated Gaussian kinds
	// (RegGaussianCounter, RegGaussianCounterSharp, RegGaussianCounterRound;
	// the last needs one whose variance never decreases: tree-padded, sqrt,
	// blt). Defaults (its zero value) to counter.Tree.
	Counter counter.Kind
	// Mode is the tree's release mode, for RegWishartTree and
	// RegGaussianTree only. Defaults (counter.ModeDefault) to
	// Padded, where every release carries exactly m node noises, as
	// Propositions 9 and 11 assume; Plain (the binary mechanism as usually
	// run) must be named.
	Mode counter.ReleaseMode
	// Shift selects the shift of the identity, for the tree kinds (the
	// calibrated kinds derive theirs from the counter). Defaults to
	// ShiftPaper.
	Shift ShiftMode
	// ShiftValue is c when Shift is ShiftGiven: subtracted for Wishart
	// (H_t = W − cI; negative c adds), added for Gaussian (H_t = N + cI).
	ShiftValue float64
	// K is the Wishart degrees of freedom per node, for RegWishartTree only. Defaults to
	// Setting.WishartK(), the printed formula of Section 4.1.
	K int
	// Upsilon is Υ, for RegGaussianTree only: the bound on the Gaussian noise's operator norm used by
	// the shift 2Υ and the bounds. Defaults to Setting.Upsilon() (as printed).
	Upsilon float64
	// Noise selects the sampler of the private kinds (RegRidge draws
	// nothing and takes none). Unset (noise.Default) it is
	// noise.Secure: the Gaussian tree's exact discrete Gaussian entries on a
	// grid from crypto/rand (see [noise.Mode] and
	// [noise.SymGaussianLaw]). noise.Simulated (seeded
	// floating-point noise, reproducible, not release-grade) must be named.
	// There is no secure Wishart sampler: RegWishartTree rejects noise.Secure,
	// and an unset Noise with an error that says to name noise.Simulated.
	Noise noise.Mode
	// Levers are the levers of RegGaussianCounterRound (levers.go: the
	// split of V and u, the Toeplitz exponent, the released shift, the
	// sharper norms), on simulated or secure noise. The zero value is none.
	Levers Levers
}

// NewRegularizer returns the regularizer cfg describes, its noise drawn from
// rng (RegRidge draws nothing: rng may be nil for it; for the private kinds
// a nil rng is a programmer error and panics). An invalid field is an error
// naming it.
func NewRegularizer(cfg RegularizerConfig, rng *rand.Rand) (Regularizer, error) {
	if cfg.Kind != RegRidge && rng == nil {
		panic(param.NilRand)
	}
	if err := cfg.checkFields(); err != nil {
		return nil, err
	}
	if err := noise.CheckMode(cfg.Noise); err != nil {
		return nil, err
	}
	mode := cfg.Noise.Resolve() // the tree kinds resolve it themselves
	switch cfg.Kind {
	case RegRidge:
		lambda := cfg.Lambda
		if lambda == 0 {
			lambda = 1
		}
		return built(newRidge(cfg.Setting.D, lambda))
	case RegWishartTree:
		return built(newWishartTree(cfg, rng))
	case RegGaussianTree:
		return built(newGaussianTree(cfg, rng))
	case RegGaussianCounter:
		return built(newGaussianCounterReg(cfg.Setting, cfg.Counter, mode, rng))
	case RegGaussianCounterSharp:
		return built(newGaussianCounterRegSharp(cfg.Setting, cfg.Counter, mode, rng))
	case RegGaussianCounterRound:
		return built(newRoundReg(cfg.Setting, cfg.Counter, cfg.Levers, mode, rng))
	}
	return nil, fmt.Errorf("ss18: unknown regularizer kind %d", int(cfg.Kind))
}

// checkFields refuses a field the kind does not read and an unset kind; the
// constructors check the values.
func (cfg RegularizerConfig) checkFields() error {
	k := cfg.Kind
	tree := k == RegWishartTree || k == RegGaussianTree
	calibrated := k == RegGaussianCounter || k == RegGaussianCounterSharp || k == RegGaussianCounterRound
	switch {
	case k == RegUnset:
		return fmt.Errorf("ss18: regularizer kind unset (the zero RegKind): name RegRidge, RegWishartTree, RegGaussianTree, RegGaussianCounter, RegGaussianCounterSharp or RegGaussianCounterRound")
	case cfg.Lambda != 0 && k != RegRidge:
		return fmt.Errorf("ss18: ridge lambda %v set for the %v regularizer: only RegRidge takes one", cfg.Lambda, k)
	case cfg.Counter != 0 && !calibrated:
		return fmt.Errorf("ss18: counter %v set for the %v regularizer: only the calibrated Gaussian kinds take one", cfg.Counter, k)
	case cfg.Mode != counter.ModeDefault && !tree:
		return fmt.Errorf("ss18: release mode %v set for the %v regularizer: only the tree kinds take one (the calibrated kinds name it in Counter)", cfg.Mode, k)
	case (cfg.Shift != ShiftPaper || cfg.ShiftValue != 0) && !tree:
		return fmt.Errorf("ss18: shift %v (value %v) set for the %v regularizer: only the tree kinds take one", cfg.Shift, cfg.ShiftValue, k)
	case cfg.K != 0 && k != RegWishartTree:
		return fmt.Errorf("ss18: Wishart degrees of freedom %d set for the %v regularizer", cfg.K, k)
	case cfg.Upsilon != 0 && k != RegGaussianTree:
		return fmt.Errorf("ss18: Υ %v set for the %v regularizer: only RegGaussianTree takes one", cfg.Upsilon, k)
	case cfg.Levers != (Levers{}) && k != RegGaussianCounterRound:
		return fmt.Errorf("ss18: levers %+v set for the %v regularizer: only RegGaussianCounterRound takes them", cfg.Levers, k)
	case cfg.Noise != noise.Default && k == RegRidge:
		return fmt.Errorf("ss18: noise mode %v set for the ridge regularizer, which draws nothing", cfg.Noise)
	}
	return nil
}

// built returns r as a Regularizer, or a nil Regularizer (not one holding a
// nil pointer) on error.
func built[R Regularizer](r R, err error) (Regularizer, error) {
	if err != nil {
		return nil, err
	}
	return r, nil
}
