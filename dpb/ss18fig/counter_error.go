package ss18fig

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// The privacy knob (notebooks/privacy_knob.ipynb): one short, seeded run of
// a continual counter at a privacy target (ε, δ), small enough (well under a
// second at the defaults) to re-run each time a slider moves.

// CounterErrorConfig configures [CounterError]. Zero Delta, Horizon and Reps
// take the defaults below.
type CounterErrorConfig struct {
	Kind    counter.Kind // the continual counter (one of counter.Kinds)
	Epsilon float64      // privacy target ε > 0
	Delta   float64      // privacy target δ ∈ (0, 1); default 1e-6
	Horizon int          // rounds n; default 1024
	Reps    int          // independent runs (≥ 2); default 64
	Seed    uint64

	// sigmaFactor scales the calibrated σ (0 means 1): the tests' planted
	// miscalibration. Unexported: no caller can set it.
	sigmaFactor float64
}

// Defaults of [CounterErrorConfig] and the limit on Horizon·Reps (the
// square-root counter keeps O(Horizon·Reps) floats).
const (
	CounterErrorDelta   = 1e-6
	CounterErrorHorizon = 1024
	CounterErrorReps    = 64
	counterErrorMaxWork = 1 << 20
)

// CounterErrorResult is what [CounterError] measured.
type CounterErrorResult struct {
	Config CounterErrorConfig `json:"config"`
	// Sigma is the Gaussian node noise σ = √Cost.L2Sq / μ(ε, δ) for data of
	// unit ℓ2 sensitivity per record ([accounting.GaussianSigma]).
	Sigma float64 `json:"sigma"`
	// Curves has X = 1…n and two series: "measured" (the root mean square
	// over the runs of release − exact prefix sum at round t, with the
	// delta-method standard error) and "predicted" (σ√VarianceAt(t), the
	// counter's exact noise standard deviation).
	Curves *harness.Curves `json:"curves"`
	// MeanSquare is the mean square error at each round over the runs
	// (Curves' "measured" series squared), kept for the tests' χ² check.
	MeanSquare []float64 `json:"-"`
}

// Validate checks the configuration (after defaults).
func (c CounterErrorConfig) Validate() error {
	known := false
	for _, k := range counter.Kinds {
		known = known || k == c.Kind
	}
	if !known {
		return fmt.Errorf("ss18fig: counter error: unknown counter kind %d", int(c.Kind))
	}
	if err := param.CheckEpsilon(c.Epsilon); err != nil {
		return fmt.Errorf("ss18fig: counter error: %w", err)
	}
	if err := param.CheckDelta(c.Delta); err != nil {
		return fmt.Errorf("ss18fig: counter error: %w", err)
	}
	if c.Horizon < 1 {
		return fmt.Errorf("ss18fig: counter error: horizon is %d, must be >= 1", c.Horizon)
	}
	if c.Reps < 2 {
		return fmt.Errorf("ss18fig: counter error: reps is %d, must be >= 2", c.Reps)
	}
	if c.Horizon > counterErrorMaxWork/c.Reps {
		return fmt.Errorf("ss18fig: counter error: horizon·reps is %d·%d, must be <= %d", c.Horizon, c.Reps, counterErrorMaxWork)
	}
	return nil
}

func (c CounterErrorConfig) withDefaults() CounterErrorConfig {
	if c.Delta == 0 {
		c.Delta = CounterErrorDelta
	}
	if c.Horizon == 0 {
		c.Horizon = CounterErrorHorizon
	}
	if c.Reps == 0 {
		c.Reps = CounterErrorReps
	}
	return c
}

// CounterError runs the counter cfg.Kind for cfg.Horizon rounds on a stream
// of Bernoulli(½) bits, cfg.Reps independent runs at once (the counter's
// coordinates: each coordinate is one run, private on its own), with
// Gaussian node noise calibrated exactly to (ε, δ) for one record of unit
// ℓ2 sensitivity (SS18 §4's tree mechanism and its successors, see
// [counter.Counter]), and returns the error of its releases at every round.
// One seed gives the same bits; the data and the noise have their own
// streams.
func CounterError(cfg CounterErrorConfig) (*CounterErrorResult, error) {
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	n, reps := cfg.Horizon, cfg.Reps
	p, err := counter.ProfileOf(cfg.Kind, n)
	if err != nil {
		return nil, err
	}
	sigma, err := accounting.GaussianSigma(cfg.Epsilon, cfg.Delta, math.Sqrt(p.Cost.L2Sq))
	if err != nil {
		return nil, err
	}
	if cfg.sigmaFactor != 0 {
		sigma *= cfg.sigmaFactor
	}
	nz, err := noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Simulated, Dim: reps, Sigma: sigma}, bandit.Stream(cfg.Seed, 2*uint64(cfg.Kind)+1))
	if err != nil {
		return nil, err
	}
	c, err := counter.New(counter.Config{Kind: cfg.Kind, Dim: reps, Horizon: n, Noise: nz})
	if err != nil {
		return nil, err
	}
	data := bandit.Stream(cfg.Seed, 0)
	z := make([]float64, reps)
	rel := make([]float64, reps)
	x := make([]float64, n)
	rms, rmsSE := make([]float64, n), make([]float64, n)
	pred, zero := make([]float64, n), make([]float64, n)
	ms := make([]float64, n)
	for t := 1; t <= n; t++ {
		for j := range z {
			z[j] = float64(data.Uint64() & 1)
		}
		c.Add(z)
		c.SumTo(rel)
		exact := c.Exact()
		var s, s2 float64
		for j, r := range rel {
			e := float64((r - exact[j]) * (r - exact[j]))
			s += e
			s2 += float64(e * e)
		}
		m := s / float64(reps)
		// Standard error of the mean square, then of its square root by the
		// delta method: se(√m) = se(m) / (2√m).
		v := (s2/float64(reps) - m*m) * float64(reps) / float64(reps-1)
		se := math.Sqrt(max(v, 0) / float64(reps))
		x[t-1] = float64(t)
		ms[t-1] = m
		rms[t-1] = math.Sqrt(m)
		if m > 0 {
			rmsSE[t-1] = se / (2 * math.Sqrt(m))
		}
		pred[t-1] = sigma * math.Sqrt(c.VarianceAt(t))
	}
	return &CounterErrorResult{
		Config: cfg,
		Sigma:  sigma,
		Curves: &harness.Curves{
			Names:  []string{"measured", "predicted"},
			X:      x,
			Mean:   [][]float64{rms, pred},
			StdErr: [][]float64{rmsSE, zero},
			Reps:   reps,
		},
		MeanSquare: ms,
	}, nil
}

// Title names the run: the counter, ε and δ (the privacy knob's chart title,
// which the browser test reads back).
func (r *CounterErrorResult) Title() string {
	return fmt.Sprintf("%s counter, ε = %g, δ = %g", r.Config.Kind, r.Config.Epsilon, r.Config.Delta)
}
