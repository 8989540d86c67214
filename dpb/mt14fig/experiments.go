package mt14fig

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/data"
	"github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ope"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// Fig1Config configures [RunFig1].
type Fig1Config struct {
	// Arms is k. Required (>= 2).
	Arms int
	// Horizon is T. Required (>= 2).
	Horizon int
	// Reps is the number of independent runs. Required.
	Reps int
	// Seed of the experiment.
	Seed uint64
	// Best is the best arm's mean. Defaults to 0.9.
	Best float64
	// Gap is Δ, the other arms having mean Best − Δ. Defaults to 0.5.
	Gap float64
	// Epsilons for DP-UCB. Defaults to {0.1, 1, 10}.
	Epsilons []float64
	// NoRelaxation lists ε values for which DP-UCB with Γ = 0 (still ε-DP, see
	// DPUCBConfig.NoRelaxation) is added as an ablation. Defaults to none.
	NoRelaxation []float64
	// Gamma is DP-UCB's γ. Defaults to 1/T.
	Gamma float64
	// Delay is the feedback delay τ applied to every policy ([mt14.Delayed]).
	// Defaults to 0.
	Delay int
	// RelaxationScale multiplies Γ (1, the default, is Algorithm 1 as printed).
	RelaxationScale float64
	// Points is the number of log-spaced record rounds. Defaults to 60.
	Points int
	// Counters adds, after the series above, DP-UCB on each of these
	// per-arm counters (DPUCBConfig.Counter) at every ε of
	// Epsilons, and with Γ = 0 at every ε of NoRelaxation. Defaults to none.
	Counters []counter.Kind `json:"counters,omitempty"`
	// RunOptions: workers, progress bar and plan (see harness.RunOptions).
	harness.RunOptions
}

// Resolved returns the configuration with its defaults filled in (Best,
// Gap, Epsilons, Points, Gamma, RelaxationScale), as RunFig1 runs it:
// what a figure's JSON records.
func (c Fig1Config) Resolved() (Fig1Config, error) {
	err := c.defaults()
	return c, err
}

func (c *Fig1Config) defaults() error {
	if c.Arms < 2 {
		return fmt.Errorf("mt14fig: arms is %d, must be >= 2", c.Arms)
	}
	if c.Best == 0 {
		c.Best = 0.9
	}
	if c.Gap == 0 {
		c.Gap = 0.5
	}
	if !(c.Best <= 1 && c.Best-c.Gap >= 0 && c.Gap > 0) {
		return fmt.Errorf("mt14fig: best %v and gap %v must give means in [0, 1]", c.Best, c.Gap)
	}
	if c.Epsilons == nil {
		c.Epsilons = []float64{0.1, 1, 10}
	}
	if c.Points == 0 {
		c.Points = 60
	}
	if c.Gamma == 0 && c.Horizon >= 1 {
		c.Gamma = 1 / float64(c.Horizon) // DPUCBConfig's default, the same bits
	}
	if c.RelaxationScale == 0 {
		c.RelaxationScale = 1
	}
	return nil
}

// Fig1Gaps returns Δ_a for every arm of the Fig. 1 environment: 0 for
// arm 0, gap for the k − 1 others.
func Fig1Gaps(k int, gap float64) []float64 {
	g := make([]float64, k)
	for a := 1; a < k; a++ {
		g[a] = gap
	}
	return g
}

// RunFig1 reproduces MT14 Fig. 1: cumulative pseudo-regret over time of
// non-private UCB1 (series 0) and DP-UCB at each ε (series 1..), k Bernoulli
// arms with means Best and Best − Gap.
func RunFig1(cfg Fig1Config) (*harness.Curves, error) {
	res, err := RunFig1Finals(cfg)
	if err != nil {
		return nil, err
	}
	return res.Curves, nil
}

// Fig1Result holds MT14 Fig. 1's curves and each run's final regret.
type Fig1Result struct {
	Curves *harness.Curves `json:"curves"`
	// Finals[s][r] is series s's cumulative pseudo-regret at T in run r:
	// the distribution behind the curves' last point (bimodal for DP-UCB
	// at Γ = 0, which locks onto a bad arm in some runs).
	Finals [][]float64 `json:"finals"`
}

// RunFig1Finals is [RunFig1] keeping each run's final regret (the same
// runs: the curves are RunFig1's, bit for bit).
func RunFig1Finals(cfg Fig1Config) (*Fig1Result, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	pols := []harness.PolicyFactory{{Name: "UCB1 (non-private)", New: func(*rand.Rand) (bandit.Policy, error) {
		return mt14.NewUCB1(mt14.UCB1Config{Arms: cfg.Arms})
	}}}
	for _, eps := range cfg.Epsilons {
		pols = append(pols, harness.PolicyFactory{Name: fmt.Sprintf("DP-UCB ε=%g", eps), New: func(rng *rand.Rand) (bandit.Policy, error) {
			return mt14.NewDPUCB(mt14.DPUCBConfig{Arms: cfg.Arms, Horizon: cfg.Horizon, Epsilon: eps, Gamma: cfg.Gamma, RelaxationScale: cfg.RelaxationScale, Noise: noise.Simulated}, rng)
		}})
	}
	for _, eps := range cfg.NoRelaxation {
		pols = append(pols, harness.PolicyFactory{Name: fmt.Sprintf("DP-UCB ε=%g, Γ=0 (ablation)", eps), New: func(rng *rand.Rand) (bandit.Policy, error) {
			return mt14.NewDPUCB(mt14.DPUCBConfig{Arms: cfg.Arms, Horizon: cfg.Horizon, Epsilon: eps, NoRelaxation: true, Noise: noise.Simulated}, rng)
		}})
	}
	for _, kind := range cfg.Counters {
		for _, eps := range cfg.Epsilons {
			pols = append(pols, harness.PolicyFactory{Name: fmt.Sprintf("DP-UCB ε=%g, %v", eps, kind), New: func(rng *rand.Rand) (bandit.Policy, error) {
				return mt14.NewDPUCB(mt14.DPUCBConfig{Arms: cfg.Arms, Horizon: cfg.Horizon, Epsilon: eps, Gamma: cfg.Gamma, RelaxationScale: cfg.RelaxationScale, Counter: kind, Noise: noise.Simulated}, rng)
			}})
		}
		for _, eps := range cfg.NoRelaxation {
			pols = append(pols, harness.PolicyFactory{Name: fmt.Sprintf("DP-UCB ε=%g, Γ=0, %v", eps, kind), New: func(rng *rand.Rand) (bandit.Policy, error) {
				return mt14.NewDPUCB(mt14.DPUCBConfig{Arms: cfg.Arms, Horizon: cfg.Horizon, Epsilon: eps, NoRelaxation: true, Counter: kind, Noise: noise.Simulated}, rng)
			}})
		}
	}
	if cfg.Delay < 0 {
		return nil, fmt.Errorf("mt14fig: delay is %d, must be >= 0", cfg.Delay)
	}
	if cfg.Delay > 0 {
		for i := range pols {
			inner := pols[i].New
			pols[i].Name += fmt.Sprintf(", τ=%d", cfg.Delay)
			pols[i].New = func(rng *rand.Rand) (bandit.Policy, error) {
				p, err := inner(rng)
				if err != nil {
					return nil, err
				}
				return mt14.Delayed(p, cfg.Delay)
			}
		}
	}
	key := cfg
	key.Workers = 0 // the results do not depend on it
	key.Reps = 0    // nor on the run count: the store keys each repetition on its own
	e := harness.BanditExperiment{
		Horizon: cfg.Horizon, Reps: cfg.Reps, Seed: cfg.Seed, Policies: pols,
		Record: harness.LogGrid(cfg.Horizon, cfg.Points), RunOptions: harness.RunOptions{Workers: cfg.Workers, Progress: cfg.Progress, Plan: cfg.Plan},
		Label: "mt14-fig1", Key: key,
		NewEnv: func(rng *rand.Rand) (bandit.Environment, error) {
			m := make([]float64, cfg.Arms)
			for a := range m {
				m[a] = cfg.Best - cfg.Gap
			}
			m[0] = cfg.Best
			return env.NewBernoulliArms(m, rng), nil
		},
	}
	c, fin, err := e.RunFinals()
	if err != nil {
		return nil, err
	}
	return &Fig1Result{Curves: c, Finals: fin}, nil
}

// Fig2Config configures [RunFig2].
type Fig2Config struct {
	// NewLog returns repetition rep's log (the same log for a fixed real log;
	// a fresh simulated logger per rep for supervised data). Called once per
	// rep. Required.
	NewLog func(rep int) (ope.Log, error) `json:"-"`
	// Epsilons are the private ε values. Defaults to {1, ε(ε₀ = 0.1), 10},
	// with ε(ε₀) = [mt14.EpsilonFromEpsilon0] at the log's d (2.7 at d = 6).
	Epsilons []float64
	// Delays τ. Defaults to {0, 100, 1000}.
	Delays []int
	// Mechanisms of the private series. Defaults to {ContextEntryTrees}.
	Mechanisms []mt14.ContextMechanism
	// Alpha is the exploration parameter α. Defaults to 1.
	Alpha float64
	// Disjoint gives each arm its own model (see ContextualUCBConfig).
	Disjoint bool
	// Reps is the number of runs. Required.
	Reps int
	// Seed of the policies' noise: rep r's series s uses Stream(Seed, StreamID(r, 1+s)).
	Seed uint64
	// RunOptions: workers, progress bar and plan (see harness.RunOptions).
	harness.RunOptions
	// DataKey identifies what NewLog returns (the data file's content hash
	// and the loader's options) in the store key: NewLog is a function the
	// store cannot see.
	DataKey string `json:"-"`
}

// Fig2Row is one bar of MT14 Fig. 2: a policy at one delay.
type Fig2Row struct {
	Name      string                `json:"name"`
	Delay     int                   `json:"delay"`
	Mechanism mt14.ContextMechanism `json:"-"`
	Mech      string                `json:"mechanism"`
	Epsilon   float64               `json:"epsilon"` // 0 for non-private
	// NormCTR is CTR / (the uniform policy's CTR on the same log), mean over reps.
	NormCTR float64 `json:"norm_ctr"`
	NormSE  float64 `json:"norm_se"`
	CTR     float64 `json:"ctr"`
	CTRSE   float64 `json:"ctr_se"`
	// Matched is the mean number of matched events.
	Matched float64 `json:"matched"`
	// First is repetition 0's replay (with its Wilson interval).
	First ope.ReplayResult `json:"first"`
}

// Fig2Result holds every row and the uniform policy's value.
type Fig2Result struct {
	Rows      []Fig2Row        `json:"rows"`
	RandomCTR float64          `json:"random_ctr"` // mean over reps
	Random    ope.ReplayResult `json:"random"`     // rep 0, Wilson 95%
	Events    int              `json:"events"`
	Dim, Arms int
	Reps      int `json:"reps"`
}

// RunFig2 reproduces MT14 Fig. 2 on a uniformly logged data set: the
// replay CTR, normalised by the uniform policy's, of non-private LinUCB and
// private contextual UCB (Algorithm 2) at each ε, each under every feedback
// delay τ (the [mt14.Delayed] wrapper, τ in log rows). Trees span the log length.
func RunFig2(cfg Fig2Config) (*Fig2Result, error) {
	if cfg.NewLog == nil {
		return nil, fmt.Errorf("mt14fig: Fig2Config.NewLog is required")
	}
	if cfg.Reps < 1 {
		return nil, fmt.Errorf("mt14fig: reps is %d, must be >= 1", cfg.Reps)
	}
	logs := make([]ope.Log, cfg.Reps)
	uni := make([]ope.ReplayResult, cfg.Reps)
	onces := make([]sync.Once, cfg.Reps)
	errs := make([]error, cfg.Reps)
	getLog := func(rep int) (ope.Log, error) {
		onces[rep].Do(func() {
			logs[rep], errs[rep] = cfg.NewLog(rep)
			if errs[rep] == nil {
				uni[rep] = ope.UniformValue(logs[rep], 0)
			}
		})
		return logs[rep], errs[rep]
	}
	l0, err := getLog(0)
	if err != nil {
		return nil, err
	}
	d, k := l0.Dim(), l0.Arms()
	if cfg.Epsilons == nil {
		cfg.Epsilons = []float64{1, mt14.EpsilonFromEpsilon0(0.1, d), 10}
	}
	if cfg.Delays == nil {
		cfg.Delays = []int{0, 100, 1000}
	}
	if cfg.Mechanisms == nil {
		cfg.Mechanisms = []mt14.ContextMechanism{mt14.ContextEntryTrees}
	}
	var rows []Fig2Row
	for _, tau := range cfg.Delays {
		rows = append(rows, Fig2Row{Name: "non-private", Delay: tau, Mechanism: mt14.ContextNonPrivate})
		for _, m := range cfg.Mechanisms {
			for _, eps := range cfg.Epsilons {
				name := fmt.Sprintf("ε=%.3g", eps)
				if len(cfg.Mechanisms) > 1 {
					name = m.String() + " " + name
				}
				rows = append(rows, Fig2Row{Name: name, Delay: tau, Mechanism: m, Epsilon: eps})
			}
		}
	}
	if cfg.Plan != nil && cfg.Plan.Store != nil && cfg.DataKey == "" {
		return nil, fmt.Errorf("mt14fig: Fig2Config.DataKey is required with a store")
	}
	key := cfg
	key.Workers = 0
	key.Reps = 0 // the store keys each repetition on its own
	// A job records the normalised CTR, the CTR and the matched events, then
	// the replay of its repetition (the Wilson interval of rep 0 is plotted).
	const points = 3 + 6
	out, err := harness.RunTrials(harness.TrialConfig{Reps: cfg.Reps, Series: len(rows), Points: points, RunOptions: harness.RunOptions{Workers: cfg.Workers, Progress: cfg.Progress, Plan: cfg.Plan},
		Label: "mt14-fig2", Key: struct {
			Config Fig2Config
			Data   string
		}{key, cfg.DataKey}, Rounds: l0.Len()},
		func(job harness.Job, out []float64) error {
			lg, err := getLog(job.Rep)
			if err != nil {
				return err
			}
			row := rows[job.Series]
			inner, err := mt14.NewContextualUCB(mt14.ContextualUCBConfig{
				Dim: lg.Dim(), Arms: lg.Arms(), Horizon: lg.Len(), Mechanism: row.Mechanism,
				Epsilon: row.Epsilon, Alpha: cfg.Alpha, Disjoint: cfg.Disjoint,
				Noise: noise.Simulated,
			}, bandit.Stream(cfg.Seed, bandit.StreamID(job.Rep, 1+job.Series)))
			if err != nil {
				return err
			}
			pol, err := mt14.Delayed(inner, row.Delay)
			if err != nil {
				return err
			}
			res, err := ope.Replay(pol, lg, ope.ReplayConfig{})
			if err != nil {
				return err
			}
			out[0] = res.CTR / uni[job.Rep].CTR
			out[1] = res.CTR
			out[2] = float64(res.Matched)
			out[3], out[4], out[5] = float64(res.Events), float64(res.Matched), res.Reward
			out[6], out[7], out[8] = res.CTR, res.Lo, res.Hi
			return nil
		})
	if err != nil {
		return nil, err
	}
	for s := range rows {
		v := out[s][0]
		rows[s].First = ope.ReplayResult{Events: int(v[3]), Matched: int(v[4]), Reward: v[5], CTR: v[6], Lo: v[7], Hi: v[8]}
	}
	// The uniform policy's value of every repetition's log (jobs loaded
	// from a store did not load their logs).
	for rep := range cfg.Reps {
		if _, err := getLog(rep); err != nil {
			return nil, err
		}
	}
	res := &Fig2Result{Events: l0.Len(), Dim: d, Arms: k, Reps: cfg.Reps, Random: uni[0]}
	for _, r := range uni {
		res.RandomCTR += r.CTR / float64(cfg.Reps)
	}
	for s := range rows {
		c := harness.Summarise(nil, nil, [][][]float64{trimPoints(out[s], 3)})
		rows[s].NormCTR, rows[s].NormSE = c.Mean[0][0], c.StdErr[0][0]
		rows[s].CTR, rows[s].CTRSE = c.Mean[0][1], c.StdErr[0][1]
		rows[s].Matched = c.Mean[0][2]
		rows[s].Mech = rows[s].Mechanism.String()
		if math.IsNaN(rows[s].NormCTR) {
			rows[s].NormCTR = 0
		}
	}
	res.Rows = rows
	return res, nil
}

// BoundsConfig configures [RunBounds].
type BoundsConfig struct {
	// Arms is k. Required (>= 2).
	Arms int
	// Horizons are the T values, increasing. Required.
	Horizons []int
	// Epsilon of DP-UCB. Required.
	Epsilon float64
	// Best and Gap as in Fig1Config (defaults 0.9 and 0.5).
	Best, Gap float64
	// Reps and Seed as in Fig1Config. Reps is required.
	Reps int
	Seed uint64
	// RunOptions: workers, progress bar and plan (see harness.RunOptions).
	harness.RunOptions
}

// RunBounds measures the expected regret at horizon T of DP-UCB (run
// with that horizon) and of UCB1 for each T in Horizons, and sets them beside
// MT14 Theorem 4's bound (O-constant 1), SS18 Corollary 15's private lower
// bound, Auer et al.'s UCB1 bound and the trivial regret Δ·T·(k−1)/k of
// uniform play. The Curves have X = Horizons and series in that order
// (bounds have zero standard error).
func RunBounds(cfg BoundsConfig) (*harness.Curves, error) {
	f := Fig1Config{Arms: cfg.Arms, Best: cfg.Best, Gap: cfg.Gap, Epsilons: []float64{cfg.Epsilon}, Reps: cfg.Reps, Seed: cfg.Seed, RunOptions: harness.RunOptions{Workers: cfg.Workers}}
	if err := f.defaults(); err != nil {
		return nil, err
	}
	if err := param.CheckEpsilon(cfg.Epsilon); err != nil {
		return nil, err
	}
	if len(cfg.Horizons) == 0 {
		return nil, fmt.Errorf("mt14fig: no horizons")
	}
	gaps := Fig1Gaps(cfg.Arms, f.Gap)
	names := []string{fmt.Sprintf("DP-UCB ε=%g (measured)", cfg.Epsilon), "UCB1 (measured)",
		"MT14 Theorem 4 bound (constant 1)", "SS18 Cor. 15 lower bound", "UCB1 bound (Auer et al.)", "uniform play Δ·T·(k−1)/k"}
	c := &harness.Curves{Names: names, Reps: cfg.Reps}
	for range names {
		c.Mean = append(c.Mean, make([]float64, len(cfg.Horizons)))
		c.StdErr = append(c.StdErr, make([]float64, len(cfg.Horizons)))
	}
	for i, T := range cfg.Horizons {
		if T < 2 || (i > 0 && T <= cfg.Horizons[i-1]) {
			return nil, fmt.Errorf("mt14fig: horizons must increase from >= 2; got %d at %d", T, i)
		}
		f.Horizon = T
		f.Points = 1
		run, err := RunFig1(f)
		if err != nil {
			return nil, err
		}
		last := len(run.X) - 1
		c.X = append(c.X, float64(T))
		c.Mean[0][i], c.StdErr[0][i] = run.Mean[1][last], run.StdErr[1][last]
		c.Mean[1][i], c.StdErr[1][i] = run.Mean[0][last], run.StdErr[0][last]
		gamma := f.Gamma
		if gamma == 0 {
			gamma = 1 / float64(T)
		}
		c.Mean[2][i] = mt14.Theorem4Bound(gaps, T, cfg.Epsilon, gamma)
		c.Mean[3][i] = ss18.PrivateMABLowerBound(gaps, T, cfg.Epsilon)
		c.Mean[4][i] = mt14.UCB1Bound(gaps, T)
		c.Mean[5][i] = f.Gap * float64(T) * float64(cfg.Arms-1) / float64(cfg.Arms)
	}
	return c, nil
}

// SupervisedLogs returns an [Fig2Config].NewLog for a classification
// data set: repetition rep gets its own row order and simulated uniform
// logger, drawn from Stream(seed, StreamID(rep, 0)).
func SupervisedLogs(ds *data.Supervised, cfg data.SupervisedLogConfig, seed uint64) func(rep int) (ope.Log, error) {
	return func(rep int) (ope.Log, error) {
		return data.NewSupervisedLog(ds, cfg, bandit.Stream(seed, bandit.StreamID(rep, 0)))
	}
}

// Markdown renders the result as a table: one row per policy and delay, with
// the normalised CTR (mean ± s.e. over repetitions), the CTR, the mean
// number of matched events, and repetition 0's CTR with its 95% Wilson
// interval.
func (r *Fig2Result) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Uniform policy: CTR %.4f (95%% Wilson [%.4f, %.4f] on %d events); d = %d, K = %d, %d repetitions.\n\n",
		r.Random.CTR, r.Random.Lo, r.Random.Hi, r.Events, r.Dim, r.Arms, r.Reps)
	b.WriteString("| τ | policy | CTR / uniform | CTR | matched (mean) | rep 0: CTR [95% Wilson] on matched |\n|---|---|---|---|---|---|\n")
	for _, w := range r.Rows {
		fmt.Fprintf(&b, "| %d | %s | %.3f ± %.3f | %.4f | %.0f | %.4f [%.4f, %.4f] on %d |\n",
			w.Delay, w.Name, w.NormCTR, w.NormSE, w.CTR, w.Matched, w.First.CTR, w.First.Lo, w.First.Hi, w.First.Matched)
	}
	return b.String()
}

// trimPoints returns reps with only the first n points of each repetition.
func trimPoints(reps [][]float64, n int) [][]float64 {
	t := make([][]float64, len(reps))
	for r, v := range reps {
		t[r] = v[:n]
	}
	return t
}
