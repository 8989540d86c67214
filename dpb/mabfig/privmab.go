package mabfig

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/check"
	"github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/mab"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/mt14fig"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// Algorithms names the ε-DP K-armed algorithms of [Run], in
// the order they are drawn: MT14's DP-UCB and the optimal ones that followed,
// with the second reading of DP-SE's epoch length (mab.DPSEConfig.PlusOne)
// and of AdaP-UCB's index (mab.AdaPConfig.AllPulls) beside the default ones.
var Algorithms = []string{"DP-UCB", "DP-SE", DPSEPlusOne, "AdaP-UCB", AdaPAllPulls, "AdaP-KLUCB", "DP-KLUCB", "DP-IMED", "Lazy-DP-TS"}

// The names of the second readings in [Algorithms].
const (
	DPSEPlusOne  = "DP-SE (R_e+1)"
	AdaPAllPulls = "AdaP-UCB (N_a, t−1)"
)

// NewPolicy returns the policy named name (one of
// [Algorithms]) for k arms, horizon T and privacy ε, each with its
// paper's defaults (DP-UCB: Γ as printed, γ = 1/T; DP-SE: β = 1/T; AdaP:
// α = 3.1; DP-KLUCB: α = 1).
func NewPolicy(name string, k, T int, eps float64, rng *rand.Rand) (bandit.Policy, error) {
	switch name {
	case "DP-UCB":
		return mt14.NewDPUCB(mt14.DPUCBConfig{Arms: k, Horizon: T, Epsilon: eps, Noise: noise.Simulated}, rng)
	case "DP-SE":
		return mab.NewDPSE(mab.DPSEConfig{Arms: k, Horizon: T, Epsilon: eps, Noise: noise.Simulated}, rng)
	case DPSEPlusOne:
		return mab.NewDPSE(mab.DPSEConfig{Arms: k, Horizon: T, Epsilon: eps, PlusOne: true, Noise: noise.Simulated}, rng)
	case "AdaP-UCB":
		return mab.NewAdaP(mab.AdaPConfig{Arms: k, Epsilon: eps, Noise: noise.Simulated}, rng)
	case AdaPAllPulls:
		return mab.NewAdaP(mab.AdaPConfig{Arms: k, Epsilon: eps, AllPulls: true, Noise: noise.Simulated}, rng)
	case "AdaP-KLUCB":
		return mab.NewAdaP(mab.AdaPConfig{Arms: k, Epsilon: eps, KL: true, Noise: noise.Simulated}, rng)
	case "DP-KLUCB":
		return mab.NewDPKL(mab.DPKLConfig{Arms: k, Epsilon: eps, Noise: noise.Simulated}, rng)
	case "DP-IMED":
		return mab.NewDPKL(mab.DPKLConfig{Arms: k, Epsilon: eps, IMED: true, Noise: noise.Simulated}, rng)
	case "Lazy-DP-TS":
		return mab.NewLazyDPTS(mab.LazyDPTSConfig{Arms: k, Epsilon: eps, Noise: noise.Simulated}, rng)
	}
	return nil, fmt.Errorf("mabfig: unknown private MAB algorithm %q (want one of %v)", name, Algorithms)
}

// Label returns the label of algorithm name in the private-MAB
// figure's legend and table. DP-UCB's names its failure probability γ = 1/T
// (the default of [NewPolicy]): its Γ relaxation (MT14 Alg. 1
// line 7) grows with ln(1/γ), so DP-UCB's regret, and every ratio to it,
// depends on that choice.
func Label(name string) string {
	if name == "DP-UCB" {
		return "DP-UCB (γ = 1/T)"
	}
	return name
}

// Config configures [Run].
type Config struct {
	// Arms is k. Required (>= 2).
	Arms int
	// Horizon is T. Required (>= 2).
	Horizon int
	// Reps is the number of independent runs. Required.
	Reps int
	// Seed of the experiment.
	Seed uint64
	// Best and Gap: arm 0 has mean Best, the others Best − Gap (MT14 Fig. 1:
	// 0.9 and 0.5, the defaults).
	Best, Gap float64
	// Epsilons to run every algorithm at. Defaults to {0.1, 0.3, 1, 3, 10}.
	Epsilons []float64
	// Algorithms to run (names of [Algorithms]). Defaults to all.
	Algorithms []string
	// Points is the number of log-spaced record rounds. Defaults to 40.
	Points int
	// BestLast lists the best arm last instead of first (arm k − 1 has
	// mean Best): [OrderTest] runs both orders, which must give the same
	// regret when ties are broken at random.
	BestLast bool `json:"best_last,omitempty"`
	// RunOptions: workers, progress bar and plan (see harness.RunOptions).
	harness.RunOptions
}

// Result holds the runs of [Run]: Curves has UCB1
// (series 0), then every algorithm at every ε (algorithm-major).
type Result struct {
	Config Config
	Curves *harness.Curves
	// Finals[s][r] is series s's (of Curves.Names) cumulative
	// pseudo-regret at T in run r: the distribution behind the curves'
	// last point ([Result.FinalsAt]).
	Finals [][]float64
}

// Run runs UCB1 and every private algorithm at every ε on MT14
// Fig. 1's arms (k Bernoulli arms, means Best and Best − Gap; common random
// numbers across policies) and records the cumulative pseudo-regret.
func Run(cfg Config) (*Result, error) {
	f, err := mt14fig.Fig1Config{Arms: cfg.Arms, Best: cfg.Best, Gap: cfg.Gap, Epsilons: []float64{1}}.Resolved()
	if err != nil {
		return nil, err
	}
	cfg.Best, cfg.Gap = f.Best, f.Gap
	if cfg.Epsilons == nil {
		cfg.Epsilons = []float64{0.1, 0.3, 1, 3, 10}
	}
	for _, e := range cfg.Epsilons {
		if err := param.CheckEpsilon(e); err != nil {
			return nil, err
		}
	}
	if cfg.Algorithms == nil {
		cfg.Algorithms = Algorithms
	}
	for _, a := range cfg.Algorithms {
		if !slices.Contains(Algorithms, a) {
			return nil, fmt.Errorf("mabfig: unknown private MAB algorithm %q (want one of %v)", a, Algorithms)
		}
	}
	if cfg.Points == 0 {
		cfg.Points = 40
	}
	pols := []harness.PolicyFactory{{Name: "UCB1 (non-private)", New: func(*rand.Rand) (bandit.Policy, error) {
		return mt14.NewUCB1(mt14.UCB1Config{Arms: cfg.Arms})
	}}}
	for _, a := range cfg.Algorithms {
		for _, eps := range cfg.Epsilons {
			pols = append(pols, harness.PolicyFactory{Name: privateMABSeries(a, eps), New: func(rng *rand.Rand) (bandit.Policy, error) {
				return NewPolicy(a, cfg.Arms, cfg.Horizon, eps, rng)
			}})
		}
	}
	key := cfg
	key.Workers = 0 // the results do not depend on it
	key.Reps = 0    // nor on the run count: the store keys each repetition on its own
	e := harness.BanditExperiment{
		Horizon: cfg.Horizon, Reps: cfg.Reps, Seed: cfg.Seed, Policies: pols,
		Record: harness.LogGrid(cfg.Horizon, cfg.Points), RunOptions: harness.RunOptions{Workers: cfg.Workers, Progress: cfg.Progress, Plan: cfg.Plan},
		Label: "private-mab", Key: key,
		NewEnv: func(rng *rand.Rand) (bandit.Environment, error) {
			m := cfg.means()
			return env.NewBernoulliArms(m, rng), nil
		},
	}
	c, fin, err := e.RunFinals()
	if err != nil {
		return nil, err
	}
	return &Result{Config: cfg, Curves: c, Finals: fin}, nil
}

func privateMABSeries(alg string, eps float64) string { return fmt.Sprintf("%s ε=%g", alg, eps) }

// means returns the arms' means: Best, then k − 1 times Best − Gap (Best
// last with BestLast).
func (c Config) means() []float64 {
	m := make([]float64, c.Arms)
	for a := range m {
		m[a] = c.Best - c.Gap
	}
	if c.BestLast {
		m[c.Arms-1] = c.Best
	} else {
		m[0] = c.Best
	}
	return m
}

// Bounds names the lower bounds [Result.Panel] and
// [Result.AtHorizon] draw, in order.
var Bounds = []string{"lower bound: SS18 Cor. 15 (ε-term)", "lower bound: Azize–Basu 2022", "lower bound: Azize et al. 2025"}

// privateMABBounds returns the bounds of Bounds at T and ε.
func (c Config) bounds(T int, eps float64) []float64 {
	m := c.means()
	return []float64{
		ss18.PrivateMABLowerBound(mt14fig.Fig1Gaps(c.Arms, c.Gap), T, eps),
		mab.AzizeBasuLowerBound(m, T, eps),
		mab.AzizeLowerBound(m, T, eps),
	}
}

// series returns the index in Curves of alg at eps (-1 if absent).
func (r *Result) series(alg string, eps float64) int {
	return slices.Index(r.Curves.Names, privateMABSeries(alg, eps))
}

// Panel returns the regret curves at one ε: UCB1, every algorithm, then the
// lower bounds of [Bounds] over the same rounds (stderr 0; from
// T = 2 on, where ln T > 0).
func (r *Result) Panel(eps float64) (*harness.Curves, error) {
	c := r.Curves
	p := &harness.Curves{X: c.X, Reps: c.Reps, Names: []string{c.Names[0]}, Mean: [][]float64{c.Mean[0]}, StdErr: [][]float64{c.StdErr[0]}}
	for _, a := range r.Config.Algorithms {
		s := r.series(a, eps)
		if s < 0 {
			return nil, fmt.Errorf("mabfig: no run of %s at ε=%g", a, eps)
		}
		p.Names = append(p.Names, a)
		p.Mean = append(p.Mean, c.Mean[s])
		p.StdErr = append(p.StdErr, c.StdErr[s])
	}
	for b, name := range Bounds {
		m := make([]float64, len(c.X))
		for i, x := range c.X {
			if x >= 2 {
				m[i] = r.Config.bounds(int(x), eps)[b]
			}
		}
		p.Names = append(p.Names, name)
		p.Mean = append(p.Mean, m)
		p.StdErr = append(p.StdErr, make([]float64, len(c.X)))
	}
	return p, nil
}

// FinalsAt returns the names and the per-run final regrets of UCB1 and of
// every algorithm at ε (names as in [Result.Panel], finals[i][r]).
func (r *Result) FinalsAt(eps float64) (names []string, finals [][]float64, err error) {
	if len(r.Finals) != len(r.Curves.Names) {
		return nil, nil, fmt.Errorf("mabfig: the result keeps the finals of %d series, not its %d", len(r.Finals), len(r.Curves.Names))
	}
	names, finals = []string{r.Curves.Names[0]}, [][]float64{r.Finals[0]}
	for _, a := range r.Config.Algorithms {
		s := r.series(a, eps)
		if s < 0 {
			return nil, nil, fmt.Errorf("mabfig: no run of %s at ε=%g", a, eps)
		}
		names = append(names, a)
		finals = append(finals, r.Finals[s])
	}
	return names, finals, nil
}

// AtHorizon returns the regret at the last record round T against ε (X = ε):
// one series per algorithm, UCB1 (constant in ε), then the lower bounds.
func (r *Result) AtHorizon() *harness.Curves {
	c := r.Curves
	last := len(c.X) - 1
	T := int(c.X[last])
	eps := r.Config.Epsilons
	p := &harness.Curves{X: eps, Reps: c.Reps}
	add := func(name string, f func(eps float64) (float64, float64)) {
		m, s := make([]float64, len(eps)), make([]float64, len(eps))
		for i, e := range eps {
			m[i], s[i] = f(e)
		}
		p.Names = append(p.Names, name)
		p.Mean = append(p.Mean, m)
		p.StdErr = append(p.StdErr, s)
	}
	add(c.Names[0], func(float64) (float64, float64) { return c.Mean[0][last], c.StdErr[0][last] })
	for _, a := range r.Config.Algorithms {
		add(a, func(e float64) (float64, float64) {
			s := r.series(a, e)
			return c.Mean[s][last], c.StdErr[s][last]
		})
	}
	for b, name := range Bounds {
		add(name, func(e float64) (float64, float64) { return r.Config.bounds(T, e)[b], 0 })
	}
	return p
}

// Row is one line of [Result.Table].
type Row struct {
	Algorithm string  `json:"algorithm"`
	Epsilon   float64 `json:"epsilon"`
	Regret    float64 `json:"regret"`    // mean pseudo-regret at T
	StdErr    float64 `json:"stderr"`    // its standard error
	VsDPUCB   float64 `json:"vs_dp_ucb"` // Regret / DP-UCB's at the same ε (NaN without DP-UCB)
	// Ratios to the lower bounds of Bounds at T and ε.
	VsBounds []float64 `json:"vs_bounds"`
}

// Table returns regret at T per algorithm and ε, with its ratio to DP-UCB and
// to each lower bound.
func (r *Result) Table() []Row {
	c := r.Curves
	last := len(c.X) - 1
	T := int(c.X[last])
	var rows []Row
	for _, a := range r.Config.Algorithms {
		for _, e := range r.Config.Epsilons {
			s := r.series(a, e)
			row := Row{Algorithm: a, Epsilon: e, Regret: c.Mean[s][last], StdErr: c.StdErr[s][last], VsDPUCB: math.NaN()}
			if d := r.series("DP-UCB", e); d >= 0 {
				row.VsDPUCB = row.Regret / c.Mean[d][last]
			}
			for _, b := range r.Config.bounds(T, e) {
				row.VsBounds = append(row.VsBounds, row.Regret/b)
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// WriteTable writes the table of [Result.Table] as markdown, UCB1's
// regret first.
func (r *Result) WriteTable(w io.Writer) error {
	c := r.Curves
	last := len(c.X) - 1
	T := int(c.X[last])
	if _, err := fmt.Fprintf(w, "k = %d, means %g / %g, T = %d, %d runs; UCB1 (non-private): %.1f ± %.1f\n\n",
		r.Config.Arms, r.Config.Best, r.Config.Best-r.Config.Gap, T, c.Reps, c.Mean[0][last], c.StdErr[0][last]); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "DP-UCB runs at failure probability γ = 1/T = %.3g (MT14 Theorem 4): its Γ relaxation grows with ln(1/γ), so its regret and every \"/ DP-UCB\" ratio depend on γ.\n\n", 1/float64(T)); err != nil {
		return err
	}
	if _, err := fmt.Fprintln(w, "| algorithm | ε | regret at T (mean ± s.e.) | / DP-UCB (γ = 1/T) | / SS18 Cor. 15 | / Azize–Basu 2022 | / Azize et al. 2025 |\n|---|---|---|---|---|---|---|"); err != nil {
		return err
	}
	for _, row := range r.Table() {
		if _, err := fmt.Fprintf(w, "| %s | %g | %.1f ± %.1f | %.3g | %.3g | %.3g | %.3g |\n", Label(row.Algorithm), row.Epsilon, row.Regret, row.StdErr,
			row.VsDPUCB, row.VsBounds[0], row.VsBounds[1], row.VsBounds[2]); err != nil {
			return err
		}
	}
	return nil
}

// Verdicts checks the run's regret at T against SS18 Corollary 15's lower
// bound and against DP-UCB's ([check.PrivateMABVerdicts]).
func (r *Result) Verdicts() check.Verdicts {
	return check.PrivateMABVerdicts(check.PrivateMABRun{Curves: r.Curves, Arms: r.Config.Arms, Best: r.Config.Best, Gap: r.Config.Gap,
		Algorithms: r.Config.Algorithms, Epsilons: r.Config.Epsilons})
}
