package as17

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// FTPLConfig configures [NewFTPL].
type FTPLConfig struct {
	// Set is the decision set and fixes 𝒴. Defaults to Simplex.
	Set DecisionSet
	// Dim is N. Required (>= 2 for Simplex).
	Dim int
	// Horizon T. Required (>= 3 so that log T > 1).
	Horizon int
	// Epsilon ε. Required: > 0, or +Inf for the non-private FTPL whose σ is
	// the first (regret) term of Theorem 3.5 only.
	Epsilon float64
	// Delta δ ∈ (0, 1). Required when Epsilon is finite.
	Delta float64
	// Sigma is the Gaussian node noise σ. Defaults to [FTPLSigma].
	Sigma float64
	// Clip projects out-of-𝒴 losses onto 𝒴 instead of rejecting them.
	Clip bool
	// Plain uses the plain binary mechanism instead of TreeBasedAgg's padding.
	Plain bool
	// Noise selects the sampler. Unset (noise.Default) it is
	// noise.Secure: exact discrete Gaussian on a grid from crypto/rand,
	// calibrated to the ℓ2 sensitivity 2‖𝒴‖₂ of a replaced loss; no seed,
	// not reproducible (see [noise.Mode]). noise.Simulated, the seeded
	// floating-point noise every experiment runs, reproducible and not a
	// release-grade guarantee, must be named.
	Noise noise.Mode
}

// FTPL is DP-FTPL, AS17 Algorithm 3: follow the perturbed leader on the
// private cumulative loss released by TreeBasedAgg with N(0, σ²I) node noise,
//
//	x_t = argmin_{x∈𝒳} ⟨x, L̃_{t−1}⟩      (a linear oracle: see DecisionSet.ArgminLinearTo)
//
// with σ of Theorem 3.5. The tree noise is both the perturbation that gives
// low regret and the privacy noise. The theorem states ε-DP; Gaussian noise
// can only give (ε, δ)-DP, which is what δ in σ is for.
// Cost per round: O(N) plus N Gaussian draws; no allocation.
//
// An FTPL is not safe for concurrent use: share it between goroutines
// behind a mutex.
type FTPL struct {
	cfg  FTPLConfig
	lead *leaderSum
	x    []float64
}

// NewFTPL returns DP-FTPL for cfg, drawing its noise from rng.
func NewFTPL(cfg FTPLConfig, rng *rand.Rand) (*FTPL, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	if err := checkOLO(cfg.Set, cfg.Dim, cfg.Horizon, cfg.Epsilon); err != nil {
		return nil, err
	}
	if cfg.Horizon < 3 {
		return nil, fmt.Errorf("as17: horizon is %d, must be >= 3 for FTPL", cfg.Horizon)
	}
	if !math.IsInf(cfg.Epsilon, 1) {
		if err := param.CheckDelta(cfg.Delta); err != nil {
			return nil, err
		}
	}
	if cfg.Sigma == 0 {
		cfg.Sigma = FTPLSigma(cfg.Set, cfg.Dim, cfg.Horizon, cfg.Epsilon, cfg.Delta)
	}
	if err := noise.CheckMode(cfg.Noise); err != nil {
		return nil, err
	}
	cfg.Noise = cfg.Noise.Resolve()
	var nz noise.Noise
	var err error
	if cfg.Noise.Secure() {
		sigmas := make([]float64, cfg.Dim)
		for i := range sigmas {
			sigmas[i] = cfg.Sigma
		}
		nz, err = noise.New(noise.Config{Law: noise.GaussianLaw, Mode: cfg.Noise, Sigmas: sigmas, Sensitivity: 2 * cfg.Set.YNorm2(cfg.Dim)}, rng)
	} else {
		nz, err = noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Simulated, Dim: cfg.Dim, Sigma: cfg.Sigma}, rng)
	}
	if err != nil {
		return nil, err
	}
	mode := counter.Padded
	if cfg.Plain {
		mode = counter.Plain
	}
	lead, err := newLeaderSum(cfg.Dim, cfg.Horizon, nz, mode)
	if err != nil {
		return nil, err
	}
	f := &FTPL{cfg: cfg, lead: lead, x: make([]float64, cfg.Dim)}
	cfg.Set.ArgminLinearTo(f.x, lead.sum)
	return f, nil
}

// Config returns the configuration with defaults filled in.
func (f *FTPL) Config() FTPLConfig { return f.cfg }

// Counter returns the counter (TreeBasedAgg) that releases the cumulative
// loss L̃_t, for checks that measure its noise.
func (f *FTPL) Counter() counter.Counter { return f.lead.ctr }

// Predict writes x_t into dst and returns it.
func (f *FTPL) Predict(dst []float64) []float64 {
	dst = param.DstOf(dst, f.cfg.Dim)
	copy(dst, f.x)
	return dst
}

// Observe feeds l_t to the tree and computes x_{t+1}; errors as [FTRL.Observe].
func (f *FTPL) Observe(loss []float64) error {
	if err := f.lead.observe(f.cfg.Set, loss, f.cfg.Clip); err != nil {
		return err
	}
	f.cfg.Set.ArgminLinearTo(f.x, f.lead.sum)
	return nil
}
