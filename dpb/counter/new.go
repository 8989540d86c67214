package counter

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/noise"
)

// Config configures a continual counter for [New]: one struct for every
// kind, printable (%+v) and validated by New, in the shape of Google DP's
// dpagg.CountOptions. Fields a kind does not use must be left zero.
type Config struct {
	// Kind is the counter. Defaults (its zero value) to Tree, the binary
	// mechanism of Chan, Shi & Song (2011).
	Kind Kind
	// Dim is the dimension of the added vectors. Required (>= 1).
	Dim int
	// Horizon is n, the number of rounds. Required (>= 1; at most
	// MaxSqrtHorizon for Sqrt).
	Horizon int
	// Noise is the node noise, of dimension Dim: every counter draws from it
	// and from nothing else. Required (noise.ZeroNoise for none). Privacy is
	// calibrated there: a counter is a linear mechanism in units of one node
	// draw ([Counter], Cost), so ε, δ and the sensitivity enter the noise's
	// scale (noise.New), not the counter.
	Noise noise.Noise
	// Mode is the binary tree's release mode, for Kind Tree and TreePadded
	// only. Defaults (ModeDefault) to the Kind's own: Plain for Tree, Padded
	// for TreePadded (AS17's TreeBasedAgg). Kind Tree with Mode Padded is the
	// padded tree; TreePadded with Mode Plain is refused.
	Mode ReleaseMode
	// Bound is the data bound the Toeplitz counters (Sqrt, BLT) need on
	// secure noise ([DataBound]). Optional: the zero value is no bound,
	// which secure noise refuses for Sqrt and BLT; the node counters, which
	// take secure noise through the grid wrapper, ignore it once validated
	// (finite, >= 0).
	Bound DataBound
	// Arity is the k-ary tree's k, for Kind Kary only, in [MinKaryArity,
	// MaxKaryArity]. Defaults (0) to KaryArity(Horizon).
	Arity int
	// Omega and Lambda are the BLT counter's b_j = Σ_i ω_i λ_i^j (j >= 1),
	// for Kind BLT only: as many of each, every λ_i in [0, 1) and every ω_i
	// finite. Default (both nil) to BLTParams(Horizon).
	Omega, Lambda []float64
}

// New returns the continual counter cfg describes, or an error naming the
// first invalid field. Only the node noise is random: the counter draws
// from it and nothing else, so one noise stream reproduces every release.
func New(cfg Config) (Counter, error) {
	if err := checkBound(cfg.Bound); err != nil {
		return nil, err
	}
	if cfg.Arity != 0 && cfg.Kind != Kary {
		return nil, fmt.Errorf("counter: arity is %d for the %v counter: only the k-ary tree takes one", cfg.Arity, cfg.Kind)
	}
	if (cfg.Omega != nil || cfg.Lambda != nil) && cfg.Kind != BLT {
		return nil, fmt.Errorf("counter: ω and λ given for the %v counter: only the BLT counter takes them", cfg.Kind)
	}
	if cfg.Mode != ModeDefault && cfg.Kind != Tree && cfg.Kind != TreePadded {
		return nil, fmt.Errorf("counter: release mode %v for the %v counter: only the binary tree takes one", cfg.Mode, cfg.Kind)
	}
	dim, horizon, nz := cfg.Dim, cfg.Horizon, cfg.Noise
	switch cfg.Kind {
	case Tree, TreePadded:
		mode := cfg.Mode
		switch {
		case mode == ModeDefault && cfg.Kind == Tree:
			mode = Plain
		case mode == ModeDefault:
			mode = Padded
		case mode == Plain && cfg.Kind == TreePadded:
			return nil, fmt.Errorf("counter: release mode plain for the tree-padded counter (use Kind Tree)")
		}
		return built(newTreeSum(dim, horizon, nz, mode))
	case Honaker:
		return built(newHonakerTree(dim, horizon, nz))
	case Smooth:
		return built(newSmoothBinary(dim, horizon, nz))
	case Sqrt:
		return built(newSqrtCounter(dim, horizon, nz, cfg.Bound))
	case BLT:
		omega, lambda := cfg.Omega, cfg.Lambda
		if omega == nil && lambda == nil {
			omega, lambda = BLTParams(horizon)
		}
		return built(newBLTCounter(dim, horizon, nz, omega, lambda, cfg.Bound))
	case Kary:
		arity := cfg.Arity
		if arity == 0 {
			arity = KaryArity(horizon)
		}
		return built(newKaryTree(dim, horizon, arity, nz))
	}
	return nil, fmt.Errorf("counter: unknown counter kind %d", int(cfg.Kind))
}

// built returns c as a Counter, or a nil Counter (not one holding a nil or
// half-built pointer) on error.
func built[C Counter](c C, err error) (Counter, error) {
	if err != nil {
		return nil, err
	}
	return c, nil
}
