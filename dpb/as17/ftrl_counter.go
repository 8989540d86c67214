package as17

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// FTRLGaussianSigma returns the node σ of DP-FTRL's (ε, δ) variant:
// AS17 Algorithm 1 with the cumulative loss released by the
// continual counter kind (any [Counter]: binary tree, Honaker, smooth
// binary, square root, BLT) and Gaussian node noise N(0, σ²I).
//
// Privacy. Under AS17 Definition 2.1 neighbouring loss sequences replace
// one loss vector, so the ℓ2 sensitivity of one loss is
// Δ₂ = max ‖l − l′‖₂ = 2‖𝒴‖₂ ([DecisionSet.YNorm2]: 2√N on the simplex,
// 2 on the ball and the cube). A record enters the counter's measurements
// with coefficients C_{·s}; each measurement is a Gaussian mechanism, and
// their adaptive composition is μ-GDP with μ = Δ₂ √(Cost().L2Sq)/σ (Dong,
// Roth & Su 2022, Cor. 3.3; C is lower triangular, so adaptively chosen
// losses are covered, Denisov et al. 2022, Thm 2.1). μ-GDP is (ε, δ)-DP
// exactly when δ ≥ δ_μ(ε) (Balle & Wang 2018, Thm 8), so
//
//	σ = 2‖𝒴‖₂ √(Cost().L2Sq) / μ(ε, δ)      ([accounting.GaussianSigma])
//
// is the smallest σ this accounting certifies. The predictions x_t are
// post-processing of the releases (Theorem 3.1's argument).
func FTRLGaussianSigma(set DecisionSet, dim, horizon int, eps, delta float64, kind counter.Kind) (float64, error) {
	if err := checkOLO(set, dim, horizon, eps); err != nil {
		return 0, err
	}
	if math.IsInf(eps, 1) {
		return 0, fmt.Errorf("as17: epsilon is +Inf: the (ε, δ) variant of DP-FTRL needs a finite ε")
	}
	if err := param.CheckDelta(delta); err != nil {
		return 0, err
	}
	probe, err := counter.New(counter.Config{Kind: kind, Dim: 1, Horizon: horizon, Noise: noise.ZeroNoise{N: 1}})
	if err != nil {
		return 0, err
	}
	return accounting.GaussianSigma(eps, delta, 2*set.YNorm2(dim)*math.Sqrt(probe.Cost().L2Sq))
}

// newFTRLCounter builds the (ε, δ) variant of [NewFTRL] (cfg.Eta is set).
func newFTRLCounter(cfg FTRLConfig, rng *rand.Rand) (*FTRL, error) {
	if cfg.Delta == 0 {
		return nil, fmt.Errorf("as17: Counter or Sigma set without Delta: the counter variant of DP-FTRL is (ε, δ)-DP and needs delta in (0, 1)")
	}
	switch {
	case cfg.Lambda != 0:
		return nil, fmt.Errorf("as17: lambda is %v with delta %v: the (ε, δ) variant has Gaussian node noise (set Sigma, or leave it to FTRLGaussianSigma)", cfg.Lambda, cfg.Delta)
	case cfg.Plain:
		return nil, fmt.Errorf("as17: Plain is set with delta %v: the (ε, δ) variant picks its counter by Counter (CounterTree is the plain tree)", cfg.Delta)
	}
	sigma, err := FTRLGaussianSigma(cfg.Set, cfg.Dim, cfg.Horizon, cfg.Epsilon, cfg.Delta, cfg.Counter)
	if err != nil {
		return nil, err
	}
	if cfg.Sigma == 0 {
		cfg.Sigma = sigma
	}
	if err := param.CheckFinite("sigma", cfg.Sigma); err != nil {
		return nil, err
	}
	if !(cfg.Sigma >= sigma) {
		return nil, fmt.Errorf("as17: sigma is %v, must be >= %v (the smallest σ that is (%v, %v)-DP on the %v counter)", cfg.Sigma, sigma, cfg.Epsilon, cfg.Delta, cfg.Counter)
	}
	var nz noise.Noise
	if cfg.Noise.Secure() {
		// The exact discrete Gaussian for the ℓ2 sensitivity 2‖𝒴‖₂ of a
		// replaced loss (attained: y against −y), on the counter's grid
		// wrapper (dpb/counter, grid.go) for the node counters, and
		// on the Toeplitz counters' secure measurements with the data bound
		// of ftrlBound and the slack it costs.
		sigmas := make([]float64, cfg.Dim)
		for i := range sigmas {
			sigmas[i] = cfg.Sigma
		}
		var slack float64
		if cfg.Counter == counter.Sqrt || cfg.Counter == counter.BLT {
			var err error
			if slack, err = counter.ToeplitzSlack(cfg.Counter, cfg.Dim, cfg.Horizon, ftrlBound(cfg), noise.SecureGrid(cfg.Sigma)); err != nil {
				return nil, err
			}
		}
		sn, serr := noise.New(noise.Config{Law: noise.GaussianLaw, Mode: cfg.Noise, Sigmas: sigmas, Sensitivity: 2 * cfg.Set.YNorm2(cfg.Dim), Slack: slack}, rng)
		if serr != nil {
			return nil, serr
		}
		nz = sn
	} else {
		var err error
		if nz, err = noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Simulated, Dim: cfg.Dim, Sigma: cfg.Sigma}, rng); err != nil {
			return nil, err
		}
	}
	return newFTRLOn(cfg, nz)
}

// newFTRLOn builds the counter variant on the given node noise (the tests
// pass ZeroNoise for the zero-noise exactness check).
func newFTRLOn(cfg FTRLConfig, nz noise.Noise) (*FTRL, error) {
	var bound counter.DataBound
	if _, ok := nz.(noise.Gridded); ok {
		bound = ftrlBound(cfg)
	}
	ctr, err := counter.New(counter.Config{Kind: cfg.Counter, Dim: cfg.Dim, Horizon: cfg.Horizon, Noise: nz, Bound: bound})
	if err != nil {
		return nil, err
	}
	lead := &leaderSum{ctr: ctr, sum: make([]float64, cfg.Dim), clip: make([]float64, cfg.Dim)}
	if ts, ok := ctr.(*counter.TreeSum); ok {
		lead.tree = ts
	}
	f := &FTRL{cfg: cfg, lead: lead, x: make([]float64, cfg.Dim)}
	f.decide()
	return f, nil
}

// Counter returns the counter that releases the cumulative loss.
func (f *FTRL) Counter() counter.Counter { return f.lead.ctr }

// ftrlBound is the data bound of the Toeplitz counters' secure mode: every
// entry of a loss in 𝒴 is at most ‖𝒴‖₂ in magnitude (Observe rejects or
// clips the others); the clip only guards the last bit of that check.
func ftrlBound(cfg FTRLConfig) counter.DataBound {
	return counter.DataBound{Entry: cfg.Set.YNorm2(cfg.Dim) * (1 + 1e-12), Clip: true}
}
