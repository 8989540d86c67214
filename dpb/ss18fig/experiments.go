package ss18fig

import (
	"fmt"
	"io"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/internal/lockstep"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// This file holds the drivers of SS18 Appendix D's experiments, callable from
// notebooks and from "dpb reproduce ss18-fig1..5". Each returns plain data;
// dpb/plot and the CLI draw it.

// LinearDecisionSet is one round of [env.LinearEnv]: SS18 Figure 1's picture.
type LinearDecisionSet struct {
	Config  dpenv.LinearEnvConfig `json:"config"`
	Seed    uint64                `json:"seed"`
	Theta   []float64             `json:"theta"`
	Actions [][]float64           `json:"-"`
	Means   []float64             `json:"-"`
	Optimal int                   `json:"optimal"`
}

// DecisionSet draws round 1's decision set of a LinearEnv built from
// Stream(seed, StreamID(0, 0)) (SS18 Figure 1: d = 3, K = 1000, Δ = 0.1).
func DecisionSet(cfg dpenv.LinearEnvConfig, seed uint64) (*LinearDecisionSet, error) {
	env, err := dpenv.NewLinearEnv(cfg, bandit.Stream(seed, bandit.StreamID(0, 0)))
	if err != nil {
		return nil, err
	}
	r := bandit.NewRound(env)
	env.Next(r, 1)
	ds := &LinearDecisionSet{Config: env.Config(), Seed: seed, Theta: env.Theta(), Optimal: env.OptimalArm()}
	for a := range env.Arms() {
		ds.Actions = append(ds.Actions, append([]float64(nil), r.Action(a)...))
		ds.Means = append(ds.Means, env.Mean(r, a))
	}
	return ds, nil
}

// mixSeed derives the seed of cell i of a sweep from the experiment's seed
// (SplitMix64 finaliser), so cells use unrelated streams.
func mixSeed(seed uint64, i int) uint64 {
	z := seed + 0x9e3779b97f4a7c15*uint64(i+1)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Exp1Config configures [Experiment1] (SS18 Appendix D.1: the
// dependence of non-private LinUCB's regret on d in gap instances).
type Exp1Config struct {
	// Dims are the dimensions d ≥ 2; K = d² actions. Defaults to LogDims(4, 32, 7).
	// Paper: LogDims(4, 64, 17).
	Dims []int `json:"dims"`
	// Noises are the reward laws. Defaults to {GaussianReward, Rademacher} (both, as in the paper).
	Noises []dpenv.RewardNoise `json:"noises"`
	// Horizon n. Defaults to 10⁵ (the paper's).
	Horizon int `json:"horizon"`
	// Reps is the number of runs per (noise, d). Defaults to 5. Paper: about 100.
	Reps int `json:"reps"`
	// Gap Δ > 0. Defaults to 0.1 (the paper's value); Experiment 1 is about gap
	// instances, so the zero value cannot mean "no gap" here.
	Gap float64 `json:"gap"`
	// Lambda is the ridge regularizer ρ (H = ρI). Defaults to 1.
	Lambda float64 `json:"lambda"`
	// Points is the number of rounds at which regret is recorded. Defaults to 100.
	Points int `json:"points"`
	// Seed of the experiment; cell c (noise-major) uses seed mixSeed(Seed, c)
	// with the usual StreamID(rep, role) streams.
	Seed uint64 `json:"seed"`
	// RunOptions: workers, progress bar and plan (see harness.RunOptions).
	harness.RunOptions
}

// Exp1Result holds Experiment 1's curves and the log–log fits.
type Exp1Result struct {
	Config Exp1Config `json:"config"`
	// Curves[i] is the regret over time for Noises[i], one series per d ("d=4", …).
	Curves []*harness.Curves `json:"curves"`
	// Total[i] is the total regret R̂_n against d for Noises[i] (X = d).
	Total []*harness.Curves `json:"total"`
	// Slope[i], Intercept[i]: least-squares fit ln R̂_n = Intercept + Slope·ln d.
	Slope     []float64 `json:"slope"`
	Intercept []float64 `json:"intercept"`
}

// Experiment1 runs non-private LinUCB (Ridge, H = λI) on the Appendix D
// environment for every (noise, d) and fits total regret against d on log–log
// axes (the paper reports a slope of about 2, Figure 3).
func Experiment1(cfg Exp1Config) (*Exp1Result, error) {
	if cfg.Dims == nil {
		cfg.Dims = harness.LogDims(4, 32, 7)
	}
	if cfg.Noises == nil {
		cfg.Noises = []dpenv.RewardNoise{dpenv.GaussianReward, dpenv.Rademacher}
	}
	if cfg.Horizon == 0 {
		cfg.Horizon = 100000
	}
	if cfg.Reps == 0 {
		cfg.Reps = 5
	}
	if cfg.Gap == 0 {
		cfg.Gap = 0.1
	}
	if cfg.Lambda == 0 {
		cfg.Lambda = 1
	}
	if cfg.Points == 0 {
		cfg.Points = 100
	}
	if cfg.Horizon < 1 || cfg.Reps < 1 || cfg.Points < 1 {
		return nil, fmt.Errorf("ss18fig: experiment 1 needs horizon, reps and points >= 1 (got %d, %d, %d)", cfg.Horizon, cfg.Reps, cfg.Points)
	}
	for _, d := range cfg.Dims {
		if d < 2 {
			return nil, fmt.Errorf("ss18fig: experiment 1 dimension %d, must be >= 2", d)
		}
	}
	rec := harness.LinGrid(cfg.Horizon, max(1, cfg.Horizon/cfg.Points))
	nd := len(cfg.Dims)
	cells := len(cfg.Noises) * nd
	// Validate every environment and policy configuration once, up front.
	for c := range cells {
		if _, _, err := exp1Cell(cfg, c, 0); err != nil {
			return nil, err
		}
	}
	key := cfg
	key.Reps = 0 // the store keys each repetition on its own
	out, err := harness.RunTrials(harness.TrialConfig{Reps: cfg.Reps, Series: cells, Points: len(rec), RunOptions: harness.RunOptions{Workers: cfg.Workers, Progress: cfg.Progress, Plan: cfg.Plan},
		Label: "ss18-exp1", Key: key, Rounds: cfg.Horizon, RoundCost: exp1RoundCost(cfg.Dims)},
		func(job harness.Job, out []float64) error {
			env, pol, err := exp1Cell(cfg, job.Series, job.Rep)
			if err != nil {
				return err
			}
			bandit.RegretCurveTick(env, pol, cfg.Horizon, rec, out, job.Advance)
			return pol.Err()
		})
	if err != nil {
		return nil, err
	}
	x := make([]float64, len(rec))
	for i, t := range rec {
		x[i] = float64(t)
	}
	res := &Exp1Result{Config: cfg}
	names := make([]string, nd)
	dx := make([]float64, nd)
	for i, d := range cfg.Dims {
		names[i] = fmt.Sprintf("d=%d", d)
		dx[i] = float64(d)
	}
	for ni, nz := range cfg.Noises {
		c := harness.Summarise(names, x, out[ni*nd:(ni+1)*nd])
		res.Curves = append(res.Curves, c)
		tot := make([][][]float64, 1)
		tot[0] = make([][]float64, cfg.Reps)
		for rep := range cfg.Reps {
			tot[0][rep] = make([]float64, nd)
			for di := range nd {
				tot[0][rep][di] = out[ni*nd+di][rep][len(rec)-1]
			}
		}
		tc := harness.Summarise([]string{nz.String()}, dx, tot)
		res.Total = append(res.Total, tc)
		f := harness.FitLogLog(dx, tc.Mean[0])
		res.Slope = append(res.Slope, f.Slope)
		res.Intercept = append(res.Intercept, f.Intercept)
	}
	return res, nil
}

// exp1Cell builds repetition rep's environment and policy for cell c.
func exp1Cell(cfg Exp1Config, c, rep int) (bandit.Environment, *ss18.LinUCB, error) {
	nd := len(cfg.Dims)
	d, nz := cfg.Dims[c%nd], cfg.Noises[c/nd]
	seed := mixSeed(cfg.Seed, c)
	env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: d, K: d * d, Gap: cfg.Gap, Noise: nz}, bandit.Stream(seed, bandit.StreamID(rep, 0)))
	if err != nil {
		return nil, nil, err
	}
	reg, err := ss18.NewRegularizer(ss18.RegularizerConfig{Kind: ss18.RegRidge, Setting: ss18.Setting{D: d}, Lambda: cfg.Lambda}, nil)
	if err != nil {
		return nil, nil, err
	}
	pol, err := ss18.NewLinUCB(ss18.LinUCBConfig{Dim: d, Horizon: cfg.Horizon, Regularizer: reg})
	if err != nil {
		return nil, nil, err
	}
	return env, pol, nil
}

// RegretLockstep runs every policy of pols against env for n rounds in
// lockstep: each round's decision set and reward noise are drawn once and
// shown to every policy (common random numbers, and one environment draw for
// all policies). It writes policy p's cumulative pseudo-regret after each
// round in rec into out[p*len(rec):(p+1)*len(rec)].
func RegretLockstep(env bandit.Environment, pols []bandit.Policy, n int, rec []int, out []float64) {
	regretLockstep(env, pols, n, rec, out, harness.Job{})
}

// regretLockstep is RegretLockstep reporting its rounds to job.Advance at
// every record point and at least every bandit.TickRounds rounds.
func regretLockstep(env bandit.Environment, pols []bandit.Policy, n int, rec []int, out []float64, job harness.Job) {
	if len(out) != len(pols)*len(rec) {
		panic(param.BadDim)
	}
	r := bandit.NewRound(env)
	regret := make([]float64, len(pols))
	arms := make([]int, len(pols))
	k, last := 0, 0
	for t := 1; t <= n; t++ {
		env.Next(r, t)
		best := env.BestMean(r)
		lockstep.Choose(pols, r, arms) // the same bits as each Choose, faster
		for p, pol := range pols {
			a := arms[p]
			regret[p] += best - env.Mean(r, a)
			pol.Update(r, a, env.Reward(r, a))
		}
		at := false
		for k < len(rec) && rec[k] == t {
			for p := range pols {
				out[p*len(rec)+k] = regret[p]
			}
			k++
			at = true
		}
		if at || t-last >= bandit.TickRounds {
			job.Advance(t - last)
			last = t
		}
	}
}

// policyErr reports the first policy that stopped learning because an
// observation was rejected (see [LinUCB.Err]).
func policyErr(pols []bandit.Policy) error {
	for _, p := range pols {
		if e, ok := p.(interface{ Err() error }); ok && e.Err() != nil {
			return e.Err()
		}
	}
	return nil
}

// Exp2Config configures [Experiment2] (SS18 Appendix D.2: regret of
// the private variants over time). Rewards are Rademacher (B̃ = 1), so
// L̃² = L² + B̃² = 2.
type Exp2Config struct {
	// Dim is d. Defaults to 5 (the paper's).
	Dim int `json:"dim"`
	// K actions per round. Defaults to d².
	K int `json:"k"`
	// Gaps Δ, one panel each. Defaults to {0, 0.1} (the paper's).
	Gaps []float64 `json:"gaps"`
	// Epsilon and Delta are the privacy parameters. Default to 1 and 0.1.
	Epsilon float64 `json:"epsilon"`
	Delta   float64 `json:"delta"`
	// Algs are the variants. Defaults to Algs (NonPrivate, Gaussian,
	// Wishart, WishartUnshifted).
	Algs []ss18.Alg `json:"algs"`
	// Horizon n. Defaults to 10⁶. Paper: 5·10⁷ (plotted to 2·10⁷).
	Horizon int `json:"horizon"`
	// Reps per gap. Defaults to 10. Paper: 35.
	Reps int `json:"reps"`
	// Points is the number of record rounds. Defaults to 100.
	Points int `json:"points"`
	// Plain selects the plain binary mechanism; the default is the padded
	// tree (every release carries m node noises, as Props. 9 and 11 assume).
	Plain bool `json:"plain"`
	// Seed: gap g uses seed mixSeed(Seed, g); repetition rep's environment
	// uses StreamID(rep, 0) and variant p StreamID(rep, 1+p) (a RadiusMinEig
	// variant its base variant's, when the base is among Algs: paired).
	Seed uint64 `json:"seed"`
	// RunOptions: workers, progress bar and plan (see harness.RunOptions).
	harness.RunOptions
}

func (cfg *Exp2Config) defaults() error {
	if cfg.Dim == 0 {
		cfg.Dim = 5
	}
	if cfg.K == 0 {
		cfg.K = cfg.Dim * cfg.Dim
	}
	if cfg.Gaps == nil {
		cfg.Gaps = []float64{0, 0.1}
	}
	if cfg.Epsilon == 0 {
		cfg.Epsilon = 1
	}
	if cfg.Delta == 0 {
		cfg.Delta = 0.1
	}
	if cfg.Algs == nil {
		cfg.Algs = ss18.Algs
	}
	if cfg.Horizon == 0 {
		cfg.Horizon = 1000000
	}
	if cfg.Reps == 0 {
		cfg.Reps = 10
	}
	if cfg.Points == 0 {
		cfg.Points = 100
	}
	if cfg.Horizon < 1 || cfg.Reps < 1 || cfg.Points < 1 {
		return fmt.Errorf("ss18fig: experiment needs horizon, reps and points >= 1 (got %d, %d, %d)", cfg.Horizon, cfg.Reps, cfg.Points)
	}
	return nil
}

// JobRounds returns the experiment's job-rounds (one decision set and the
// variants in lockstep): Horizon × Reps × the number of gaps, defaults
// filled in. At the paper's scale, 5·10⁷ × 35 × 2 = 3.5·10⁹.
func (cfg Exp2Config) JobRounds() (int, error) {
	if err := cfg.defaults(); err != nil {
		return 0, err
	}
	return cfg.Horizon * cfg.Reps * len(cfg.Gaps), nil
}

// Setting returns the Setting of the experiment (α = 1/n, L̃² = 2).
func (cfg Exp2Config) Setting() ss18.Setting {
	return ss18.Setting{D: cfg.Dim, N: cfg.Horizon, Epsilon: cfg.Epsilon, Delta: cfg.Delta, Lt2: 2}
}

func (cfg Exp2Config) mode() counter.ReleaseMode {
	if cfg.Plain {
		return counter.Plain
	}
	return counter.Padded
}

// Exp2Result holds one regret-over-time Curves per gap (series = Algs).
type Exp2Result struct {
	Config Exp2Config        `json:"config"`
	Curves []*harness.Curves `json:"curves"`
	// Finals[g][a][r] is variant a's final cumulative pseudo-regret in run r
	// at gap g: the distribution of final regret, and the paired differences
	// ([PairedDiffs]).
	Finals [][][]float64 `json:"finals"`
}

// Experiment2 runs the variants of SS18 Algorithm 1 on the Appendix D
// environment for each gap, all variants of a repetition in lockstep on one
// environment (common random numbers), and returns the mean cumulative
// pseudo-regret over time (SS18 Figure 4).
func Experiment2(cfg Exp2Config) (*Exp2Result, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	rec := harness.LinGrid(cfg.Horizon, max(1, cfg.Horizon/cfg.Points))
	specs := make([]ss18.PolicyConfig, len(cfg.Algs))
	names := make([]string, len(cfg.Algs))
	for i, a := range cfg.Algs {
		specs[i] = ss18.PolicyConfig{Alg: a, Setting: cfg.Setting(), Mode: cfg.mode(), Noise: noise.Simulated}
		if lv, ok := a.Levers(); ok && lv.Split {
			specs[i].XBound, specs[i].YBound = 1, 1 // unit actions, ±1 rewards (L̃² = 2)
		}
		names[i] = a.String()
	}
	out, err := runLockstepCells(cfg.Dim, cfg.K, cfg.Gaps, specs, cfg.Horizon, cfg.Reps, rec, cfg.Seed, cfg.Workers, cfg.Progress, cfg.Plan, "ss18-exp2")
	if err != nil {
		return nil, err
	}
	res := &Exp2Result{Config: cfg}
	for g := range cfg.Gaps {
		res.Curves = append(res.Curves, harness.Summarise(names, recX(rec), out[g]))
		fin := make([][]float64, len(specs))
		for p := range specs {
			for _, run := range out[g][p] {
				fin[p] = append(fin[p], run[len(run)-1])
			}
		}
		res.Finals = append(res.Finals, fin)
	}
	return res, nil
}

func recX(rec []int) []float64 {
	x := make([]float64, len(rec))
	for i, t := range rec {
		x[i] = float64(t)
	}
	return x
}

// pairedSpec returns the index whose noise stream spec p uses: its own,
// except that a RadiusMinEig variant uses its base variant's when the base is
// among specs, so that the two differ in the radius alone (paired runs).
//
// A lever variant (GaussianSplit, GaussianToeplitz, GaussianLevers) uses
// GaussianBLTRound's stream (or GaussianBLTRoundMinEig's): the same standard
// normals, scaled per block and filtered by its own counter.
func pairedSpec(specs []ss18.PolicyConfig, p int) int {
	if _, lever := specs[p].Alg.Levers(); lever {
		for _, base := range []ss18.Alg{ss18.GaussianBLTRound, ss18.GaussianBLTRoundMinEig} {
			for q, sp := range specs {
				if sp.Alg == base {
					return pairedSpec(specs, q)
				}
			}
		}
		return p
	}
	base, ok := specs[p].Alg.MinEigBase()
	if !ok {
		return p
	}
	for q, sp := range specs {
		if sp.Alg == base && sp.Mode == specs[p].Mode && sp.Shift == specs[p].Shift && sp.ShiftValue == specs[p].ShiftValue {
			return q
		}
	}
	return p
}

// runLockstepCells runs, for every gap and repetition, all policies of specs
// in lockstep on one Appendix D environment (Rademacher rewards) and returns
// out[gap][policy][rep][point]. Gap g uses seed mixSeed(seed, g). One job
// is one (repetition, gap) with all policies in lockstep; under plan the
// jobs are stored as label, keyed by everything the jobs depend on.
func runLockstepCells(d, k int, gaps []float64, specs []ss18.PolicyConfig, n, reps int, rec []int, seed uint64, workers int, progress io.Writer, plan *harness.Plan, label string) ([][][][]float64, error) {
	build := func(g, rep int) (bandit.Environment, []bandit.Policy, error) {
		s := mixSeed(seed, g)
		env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: d, K: k, Gap: gaps[g]}, bandit.Stream(s, bandit.StreamID(rep, 0)))
		if err != nil {
			return nil, nil, err
		}
		pols := make([]bandit.Policy, len(specs))
		for p, sp := range specs {
			pol, err := ss18.NewPolicy(sp, bandit.Stream(s, bandit.StreamID(rep, 1+pairedSpec(specs, p))))
			if err != nil {
				return nil, nil, fmt.Errorf("%v: %w", sp.Alg, err)
			}
			pols[p] = pol
		}
		return env, pols, nil
	}
	for g := range gaps {
		if _, _, err := build(g, 0); err != nil {
			return nil, err
		}
	}
	key := struct {
		Dim, K  int
		Gaps    []float64
		Specs   []ss18.PolicyConfig
		Horizon int
		Record  []int
		Seed    uint64
	}{d, k, gaps, specs, n, rec, seed}
	raw, err := harness.RunTrials(harness.TrialConfig{Reps: reps, Series: len(gaps), Points: len(specs) * len(rec), RunOptions: harness.RunOptions{Workers: workers, Progress: progress, Plan: plan},
		Label: label, Key: key, Rounds: n, RoundCost: float64(len(specs))},
		func(job harness.Job, out []float64) error {
			env, pols, err := build(job.Series, job.Rep)
			if err != nil {
				return err
			}
			regretLockstep(env, pols, n, rec, out, job)
			return policyErr(pols)
		})
	if err != nil {
		return nil, err
	}
	res := make([][][][]float64, len(gaps))
	for g := range gaps {
		res[g] = make([][][]float64, len(specs))
		for p := range specs {
			res[g][p] = make([][]float64, reps)
			for rep := range reps {
				res[g][p][rep] = raw[g][rep][p*len(rec) : (p+1)*len(rec)]
			}
		}
	}
	return res, nil
}

// Exp3Config configures [Experiment3] (SS18 Appendix D.3: regret
// against the shift, expressed as ρ_min, for several gaps).
type Exp3Config struct {
	// Dim, K, Epsilon, Delta, Horizon, Reps, Plain, Seed, Workers and
	// Progress as in Exp2Config (same defaults, except Reps: 6).
	Dim     int     `json:"dim"`
	K       int     `json:"k"`
	Epsilon float64 `json:"epsilon"`
	Delta   float64 `json:"delta"`
	Horizon int     `json:"horizon"`
	Reps    int     `json:"reps"`
	Plain   bool    `json:"plain"`
	// Gaps Δ, one series each. Defaults to 0.1·0.5^j for j = 0..3, and 0.
	// The authors' code: 0.1·0.5^j for j = 0..6, and 0.
	Gaps []float64 `json:"gaps"`
	// RhoMins is the number of ρ_min values, log-spaced between the shifted
	// Wishart's ρ′_min / 4 and the unshifted Wishart's ρ_min. Defaults to 6.
	// The authors' code: 8 (6 in one version), between the two Wishart values.
	RhoMins int    `json:"rho_mins"`
	Seed    uint64 `json:"seed"`
	// RunOptions: workers, progress bar and plan (see harness.RunOptions).
	harness.RunOptions
}

// Exp3Result holds total regret against ρ_min, one Curves per mechanism
// (X = ρ_min, series = gaps), and the ρ_min of Section 4's choices.
type Exp3Result struct {
	Config Exp3Config `json:"config"`
	// Mechanisms are "Wishart" and "Gaussian".
	Mechanisms []string  `json:"mechanisms"`
	RhoMin     []float64 `json:"rho_min"`
	// Curves[i] is mechanism i's total regret R̂_n against RhoMin.
	Curves []*harness.Curves `json:"curves"`
	// PaperRhoMin[i] is the ρ_min of Section 4's shift for mechanism i
	// (Wishart: ρ′_min = 4L̃²√(mk)·a; Gaussian: Υ), and UnshiftedRhoMin the
	// unshifted Wishart's ρ_min.
	PaperRhoMin     []float64 `json:"paper_rho_min"`
	UnshiftedRhoMin float64   `json:"unshifted_rho_min"`
}

// Experiment3 sweeps the shift of the Wishart and Gaussian regularizers.
// For a target ρ_min the Wishart shift is c = ρ_min(unshifted) − ρ_min
// (Prop. 9 / Claim 20: H′ = H − cI) and the Gaussian shift c = Υ + ρ_min
// (Prop. 11: H = N + cI, ρ_min = c − Υ); γ and ρ_max follow from
// [Setting.WishartBoundsShift] and [Setting.GaussianBoundsShift].
// All (mechanism, ρ_min) policies of a repetition run in lockstep on one
// environment per gap.
func Experiment3(cfg Exp3Config) (*Exp3Result, error) {
	e2 := Exp2Config{Dim: cfg.Dim, K: cfg.K, Epsilon: cfg.Epsilon, Delta: cfg.Delta, Horizon: cfg.Horizon, Reps: cfg.Reps, Plain: cfg.Plain, Gaps: cfg.Gaps}
	if e2.Reps == 0 {
		e2.Reps = 6
	}
	if e2.Gaps == nil {
		e2.Gaps = []float64{0.1, 0.05, 0.025, 0.0125, 0}
	}
	if err := e2.defaults(); err != nil {
		return nil, err
	}
	cfg.Dim, cfg.K, cfg.Epsilon, cfg.Delta, cfg.Horizon, cfg.Reps, cfg.Gaps = e2.Dim, e2.K, e2.Epsilon, e2.Delta, e2.Horizon, e2.Reps, e2.Gaps
	if cfg.RhoMins == 0 {
		cfg.RhoMins = 6
	}
	if cfg.RhoMins < 2 {
		return nil, fmt.Errorf("ss18fig: experiment 3 needs at least 2 ρ_min values, got %d", cfg.RhoMins)
	}
	s := e2.Setting()
	if err := s.Validate(); err != nil {
		return nil, err
	}
	k := s.WishartK()
	unsh, sh := s.WishartBounds(k)
	ups := s.Upsilon()
	lo, hi := sh.RhoMin/4, unsh.RhoMin
	res := &Exp3Result{Config: cfg, Mechanisms: []string{"Wishart", "Gaussian"},
		PaperRhoMin: []float64{sh.RhoMin, ups}, UnshiftedRhoMin: unsh.RhoMin}
	for i := range cfg.RhoMins {
		res.RhoMin = append(res.RhoMin, lo*xmath.Pow(hi/lo, float64(i)/float64(cfg.RhoMins-1)))
	}
	var specs []ss18.PolicyConfig
	for _, alg := range []ss18.Alg{ss18.Wishart, ss18.Gaussian} {
		for _, rho := range res.RhoMin {
			c := unsh.RhoMin - rho
			if alg == ss18.Gaussian {
				c = ups + rho
			}
			specs = append(specs, ss18.PolicyConfig{Alg: alg, Setting: s, Mode: e2.mode(), Shift: ss18.ShiftGiven, ShiftValue: c, Noise: noise.Simulated})
		}
	}
	rec := []int{cfg.Horizon}
	out, err := runLockstepCells(cfg.Dim, cfg.K, cfg.Gaps, specs, cfg.Horizon, cfg.Reps, rec, cfg.Seed, cfg.Workers, cfg.Progress, cfg.Plan, "ss18-exp3")
	if err != nil {
		return nil, err
	}
	nr := len(res.RhoMin)
	gapNames := make([]string, len(cfg.Gaps))
	for g, gap := range cfg.Gaps {
		gapNames[g] = fmt.Sprintf("Δ=%g", gap)
	}
	for m := range res.Mechanisms {
		// series = gap, point = ρ_min: regroup out[g][m·nr+i][rep][0].
		tab := make([][][]float64, len(cfg.Gaps))
		for g := range cfg.Gaps {
			tab[g] = make([][]float64, cfg.Reps)
			for rep := range cfg.Reps {
				tab[g][rep] = make([]float64, nr)
				for i := range nr {
					tab[g][rep][i] = out[g][m*nr+i][rep][0]
				}
			}
		}
		res.Curves = append(res.Curves, harness.Summarise(gapNames, res.RhoMin, tab))
	}
	return res, nil
}

// exp1RoundCost is the mean cost of one LinUCB round over the dimensions,
// relative to d = 32 (K = d² actions: the cost grows about as d³ here).
func exp1RoundCost(dims []int) float64 {
	var c float64
	for _, d := range dims {
		c += xmath.Pow(float64(d)/32, 3)
	}
	return c / float64(max(len(dims), 1))
}
