package check

import (
	"fmt"
	"math"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// MinEigCoverageConfig configures [MinEigCoverage].
type MinEigCoverageConfig struct {
	// D and K are the dimension and actions per round. Default to Fig. 4's
	// 5 and 25.
	D, K int
	// N is the horizon. Defaults to 20000 (Fig. 4's is 5·10⁶).
	N int
	// Reps is the number of runs of each variant and gap. Defaults to 10.
	Reps int
	// Gaps are the environments' Δ. Default to Fig. 4's 0 and 0.1.
	Gaps []float64
	// Seed of the runs.
	Seed uint64
	// RunOptions: workers, progress bar and plan (see harness.RunOptions).
	harness.RunOptions
}

// MinEigCoverage checks SS18 Proposition 4 for the RadiusMinEig
// variants ([ss18.MinEigAlgs]) at Fig. 4's setting (d = 5, K = 25, ε = 1,
// δ = 0.1, padded trees, α = 1/n), each variant playing with its own
// tightened radius: ‖θ* − θ̃_t‖_{V_t} ≤ β_t for all t ≤ n in every run, and
// each tightened term against its bound in the rounds where it binds, each
// with its negative control (λ_t overstated; see [Prop4]). These are
// the verdicts of [Prop4] with MinEig set, run on the variants' own
// trajectories; the paper-scale run is
//
//	dpb check ss18 -mineig -policyn 5000000 -reps 10 -store DIR
func MinEigCoverage(cfg MinEigCoverageConfig) (Verdicts, error) {
	cfg = cfg.WithDefaults()
	if cfg.D < 1 || cfg.K < 1 || cfg.N < 2 || cfg.Reps < 1 {
		return nil, fmt.Errorf("check: the RadiusMinEig coverage check needs d, K, reps >= 1 and n >= 2; got d=%d K=%d n=%d reps=%d", cfg.D, cfg.K, cfg.N, cfg.Reps)
	}
	var vs Verdicts
	for _, gap := range cfg.Gaps {
		lc := LinUCBConfig{D: cfg.D, K: cfg.K, N: cfg.N, Reps: cfg.Reps, Seed: cfg.Seed, RunOptions: harness.RunOptions{Workers: cfg.Workers, Plan: cfg.Plan},
			Algs: ss18.MinEigAlgs, MinEig: true}
		// LinUCBConfig's zero Gap means its default, 0.1: Δ = 0 is
		// asked for as minGap.
		lc.Gap = gap
		if gap == 0 {
			lc.Gap = minGap
		}
		pv, err := Prop4(lc)
		if err != nil {
			return nil, err
		}
		for _, v := range pv {
			if !strings.Contains(v.Name, "-mineig") {
				continue // the ln det and closed forms: the base variants' (SS18Prop4)
			}
			v.Name = strings.Replace(v.Name, "-mineig", fmt.Sprintf("-fig4-gap%g", gap), 1)
			vs = append(vs, v)
		}
	}
	return vs, nil
}

// WithDefaults returns cfg with its zero fields set to their defaults.
func (cfg MinEigCoverageConfig) WithDefaults() MinEigCoverageConfig {
	if cfg.D == 0 {
		cfg.D = 5
	}
	if cfg.K == 0 {
		cfg.K = 25
	}
	if cfg.N == 0 {
		cfg.N = 20000
	}
	if cfg.Reps == 0 {
		cfg.Reps = 10
	}
	if cfg.Gaps == nil {
		cfg.Gaps = []float64{0, 0.1}
	}
	return cfg
}

// minGap stands for Δ = 0 in a LinUCBConfig (whose zero Gap is its
// default): OptReward − minGap rounds to OptReward, so the environment is
// the one of Δ = 0, bit for bit.
const minGap = math.SmallestNonzeroFloat64
