package ss18fig

import (
	"fmt"
	"math"
	"runtime"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// SecureRegretAlgs lists the SS18 variants with a secure sampler, the
// default of [SecureRegretConfig.Algs]: the printed Gaussian tree (SS18
// Section 4.2) and the exactly calibrated Gaussian regularizers on the tree,
// Honaker's estimator, the smooth binary mechanism and the BLT counter (with
// its per-round bounds too). A variant that gains a secure sampler joins the
// experiment by one entry here.
var SecureRegretAlgs = []ss18.Alg{ss18.Gaussian, ss18.GaussianExact, ss18.GaussianHonaker, ss18.GaussianSmooth,
	ss18.GaussianBLT, ss18.GaussianBLTRound}

// SecureRegretConfig configures [SecureRegret]: the regret of SS18
// Algorithm 1's private variants on secure noise against the same variants
// on simulated noise, at Figure 4's setting (SS18 Appendix D.2).
type SecureRegretConfig struct {
	// Dim is d. Defaults to 5 (Figure 4's).
	Dim int `json:"dim"`
	// K actions per round. Defaults to d².
	K int `json:"k"`
	// Gaps Δ. Defaults to {0, 0.1} (Figure 4's panels).
	Gaps []float64 `json:"gaps"`
	// Epsilon and Delta are the privacy parameters. Default to 1 and 0.1
	// (Figure 4's).
	Epsilon float64 `json:"epsilon"`
	Delta   float64 `json:"delta"`
	// Algs are the variants, each run in both modes. Defaults to
	// SecureRegretAlgs. A variant without a secure sampler is an error.
	Algs []ss18.Alg `json:"algs"`
	// Horizon n. Defaults to 10⁶.
	Horizon int `json:"horizon"`
	// Reps per (gap, variant), at least 2 (the interval needs a standard
	// deviation). Defaults to 10.
	Reps int `json:"reps"`
	// Plain selects the plain binary mechanism; the default is the padded
	// tree, as in ss18-fig4 and beyond-ss18.
	Plain bool `json:"plain"`
	// Seed: gap g uses seed mixSeed(Seed, g); repetition rep's environment
	// uses StreamID(rep, 0) in both modes (the same θ*, decision sets and
	// rewards), and variant a's policy StreamID(rep, 1+int(a)) in both
	// modes: the simulated policy draws its noise from it, the secure one
	// (noise.SecureSeeded) the bits of its exact discrete sampler.
	Seed uint64 `json:"seed"`
	// RunOptions: workers, progress bar and plan (see harness.RunOptions).
	harness.RunOptions
}

// SecureRegretModes are the two modes of every pair, in the order of the
// job values: the simulated run, then the secure one fed a seeded stream.
var SecureRegretModes = [2]noise.Mode{noise.Simulated, noise.SecureSeeded}

// secureRegretChunk is how many rounds one mode of a pair runs before the
// other takes its turn: the two CPU clocks then see the same host load,
// interleaved, in one job (a paired timing).
const secureRegretChunk = 1 << 12

// secureRegretCI is the confidence of the interval and secureRegretTarget
// the half-width, in % of the simulated regret, that RunsFor2Pct sizes.
const (
	secureRegretCI     = 0.95
	secureRegretTarget = 2.0
)

func (cfg *SecureRegretConfig) defaults() error {
	e2 := Exp2Config{Dim: cfg.Dim, K: cfg.K, Gaps: cfg.Gaps, Epsilon: cfg.Epsilon, Delta: cfg.Delta,
		Algs: []ss18.Alg{ss18.NonPrivate}, Horizon: cfg.Horizon, Reps: cfg.Reps}
	if err := e2.defaults(); err != nil {
		return err
	}
	cfg.Dim, cfg.K, cfg.Gaps, cfg.Epsilon, cfg.Delta, cfg.Horizon, cfg.Reps = e2.Dim, e2.K, e2.Gaps, e2.Epsilon, e2.Delta, e2.Horizon, e2.Reps
	if cfg.Algs == nil {
		cfg.Algs = SecureRegretAlgs
	}
	if cfg.Reps < 2 {
		return fmt.Errorf("ss18fig: secure-regret needs at least 2 runs for its interval (got %d)", cfg.Reps)
	}
	if len(cfg.Algs) == 0 || len(cfg.Gaps) == 0 {
		return fmt.Errorf("ss18fig: secure-regret needs at least one variant and one gap")
	}
	if len(cfg.Gaps)*len(cfg.Algs) > harness.MaxSeries {
		return fmt.Errorf("ss18fig: secure-regret: %d gaps × %d variants, at most %d cells", len(cfg.Gaps), len(cfg.Algs), harness.MaxSeries)
	}
	for i, a := range cfg.Algs {
		for _, b := range cfg.Algs[:i] {
			if a == b {
				return fmt.Errorf("ss18fig: secure-regret: variant %v listed twice", a)
			}
		}
	}
	for _, g := range cfg.Gaps {
		if math.IsNaN(g) || math.IsInf(g, 0) {
			return fmt.Errorf("ss18fig: secure-regret: gap %v is not finite", g)
		}
	}
	return nil
}

// Setting returns the Setting of the experiment (α = 1/n, L̃² = 2 for
// Rademacher rewards), as ss18-fig4's.
func (cfg SecureRegretConfig) Setting() ss18.Setting {
	return ss18.Setting{D: cfg.Dim, N: cfg.Horizon, Epsilon: cfg.Epsilon, Delta: cfg.Delta, Lt2: 2}
}

// JobRounds returns the experiment's policy-rounds: Horizon × Reps × gaps ×
// variants × 2 modes, defaults filled in.
func (cfg SecureRegretConfig) JobRounds() (int, error) {
	if err := cfg.defaults(); err != nil {
		return 0, err
	}
	return cfg.Horizon * cfg.Reps * len(cfg.Gaps) * len(cfg.Algs) * 2, nil
}

// SecureRegretRow is one (gap, variant): the mean final pseudo-regret of
// each mode over the paired runs and their paired difference.
type SecureRegretRow struct {
	Alg ss18.Alg `json:"alg"`
	Gap float64  `json:"gap"`
	// Simulated and Secure are the mean final regrets, with their standard
	// errors.
	Simulated   float64 `json:"regret_simulated"`
	SimulatedSE float64 `json:"regret_simulated_se"`
	Secure      float64 `json:"regret_secure"`
	SecureSE    float64 `json:"regret_secure_se"`
	// DiffPct is the mean paired difference secure − simulated in % of the
	// simulated mean, and CIPct the half-width of its 95 % interval:
	// t(0.975, runs − 1) · PairedSD / √runs in the same units (the simulated
	// mean in the denominator taken as known).
	DiffPct float64 `json:"diff_pct"`
	CIPct   float64 `json:"ci95_pct"`
	// PairedSD is the standard deviation of the per-run differences
	// (regret units) and PairedSDPct the same in % of the simulated mean.
	PairedSD    float64 `json:"paired_sd"`
	PairedSDPct float64 `json:"paired_sd_pct"`
	// RunsFor2Pct is the smallest number of runs whose 95 % interval has a
	// half-width of at most 2 % of the simulated mean at this paired s.d.
	RunsFor2Pct int `json:"runs_for_2pct"`
	// SimulatedRuns and SecureRuns are the per-run final regrets (run order).
	SimulatedRuns []float64 `json:"simulated_runs"`
	SecureRuns    []float64 `json:"secure_runs"`
	// CPU is the thread CPU time per round of each mode (a measurement,
	// not a function of the seed).
	CPU SecureRegretCPU `json:"cpu"`
}

// SecureRegretCPU is the thread CPU time per round (environment draw,
// Choose and Update) of the two modes, measured in the same jobs in
// interleaved chunks of rounds: SimulatedMicros and SecureMicros the means
// over the runs, Ratio secure over simulated of the summed times. All 0
// where the thread CPU clock is not read (Linux only).
type SecureRegretCPU struct {
	SimulatedMicros float64 `json:"simulated_us_per_round"`
	SecureMicros    float64 `json:"secure_us_per_round"`
	Ratio           float64 `json:"ratio"`
}

// SecureRegretResult holds one row per (gap, variant), gap-major.
type SecureRegretResult struct {
	Config SecureRegretConfig `json:"config"`
	// Modes names the two noise modes of each pair (simulated, then secure).
	Modes [2]noise.Mode     `json:"modes"`
	Rows  []SecureRegretRow `json:"rows"`
}

// SecureRegret runs every variant of cfg.Algs of SS18 Algorithm 1 twice per
// repetition on the Appendix D environment (Rademacher rewards): once on
// simulated floating-point noise and once on the exact discrete sampler of
// its secure mode fed a seeded stream (noise.SecureSeeded), on environments
// drawn from the same stream (paired runs). One job is one (repetition, gap,
// variant) running both modes in alternating chunks of rounds on the same
// OS thread, recording each one's final regret and thread CPU time; the
// regrets reproduce bit for bit from the seed whatever the workers.
func SecureRegret(cfg SecureRegretConfig) (*SecureRegretResult, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	na := len(cfg.Algs)
	cells := len(cfg.Gaps) * na
	for c := range cells {
		if _, _, err := secureRegretPair(cfg, c/na, c%na, 0, 0, SecureRegretModes); err != nil {
			return nil, err
		}
	}
	key := struct {
		Dim, K  int
		Gaps    []float64
		Eps     float64
		Delta   float64
		Algs    []ss18.Alg
		Modes   [2]noise.Mode
		Horizon int
		Plain   bool
		Seed    uint64
	}{cfg.Dim, cfg.K, cfg.Gaps, cfg.Epsilon, cfg.Delta, cfg.Algs, SecureRegretModes, cfg.Horizon, cfg.Plain, cfg.Seed}
	raw, err := harness.RunTrials(harness.TrialConfig{Reps: cfg.Reps, Series: cells, Points: 4, RunOptions: harness.RunOptions{Workers: cfg.Workers, Progress: cfg.Progress, Plan: cfg.Plan},
		Label: "secure-regret", Key: key, Rounds: cfg.Horizon, RoundCost: 2},
		func(job harness.Job, out []float64) error {
			envs, pols, err := secureRegretPair(cfg, job.Series/na, job.Series%na, job.Rep, 0, SecureRegretModes)
			if err != nil {
				return err
			}
			regret, cpu := runPair(envs, pols, cfg.Horizon, job)
			for m := range 2 {
				if err := pols[m].Err(); err != nil {
					return fmt.Errorf("%v (%v): %w", cfg.Algs[job.Series%na], SecureRegretModes[m], err)
				}
				out[m], out[2+m] = regret[m], cpu[m]
			}
			return nil
		})
	if err != nil {
		return nil, err
	}
	res := &SecureRegretResult{Config: cfg, Modes: SecureRegretModes}
	for c := range cells {
		res.Rows = append(res.Rows, secureRegretRow(cfg.Algs[c%na], cfg.Gaps[c/na], raw[c]))
	}
	return res, nil
}

// secureRegretPair builds repetition rep's pair of (gap g, variant a): two
// environments from the same stream, and the variant's policy in each mode
// of modes (SecureRegretModes; the tests' controls pass others) from the
// same stream. envShift ≠ 0 moves the secure
// run's environment to repetition rep+envShift's stream (unpaired runs:
// the tests' negative control).
func secureRegretPair(cfg SecureRegretConfig, g, a, rep, envShift int, modes [2]noise.Mode) ([2]bandit.Environment, [2]*ss18.LinUCB, error) {
	var envs [2]bandit.Environment
	var pols [2]*ss18.LinUCB
	s := mixSeed(cfg.Seed, g)
	mode := counter.Padded
	if cfg.Plain {
		mode = counter.Plain
	}
	alg := cfg.Algs[a]
	for m, nz := range modes {
		r := rep
		if m == 1 {
			r += envShift
		}
		env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: cfg.Dim, K: cfg.K, Gap: cfg.Gaps[g]}, bandit.Stream(s, bandit.StreamID(r, 0)))
		if err != nil {
			return envs, pols, err
		}
		pc := ss18.PolicyConfig{Alg: alg, Setting: cfg.Setting(), Mode: mode, Noise: nz}
		if lv, _ := alg.Levers(); lv.Split {
			pc.XBound, pc.YBound = 1, 1 // unit actions, rewards in [−1, 1] (beyond-ss18's split bounds)
		}
		pol, err := ss18.NewPolicy(pc, bandit.Stream(s, bandit.StreamID(rep, 1+int(alg))))
		if err != nil {
			return envs, pols, fmt.Errorf("%v (%v): %w", alg, nz, err)
		}
		envs[m], pols[m] = env, pol
	}
	return envs, pols, nil
}

// runPair runs the two policies of a pair for n rounds each on their own
// environment, in alternating chunks of secureRegretChunk rounds (the mode
// that goes first alternates too) on one locked OS thread, and returns each
// one's final pseudo-regret and thread CPU time per round in µs (0 where
// the clock is not read). The interleaving changes no result: each policy
// sees only its own environment.
func runPair(envs [2]bandit.Environment, pols [2]*ss18.LinUCB, n int, job harness.Job) (regret, cpuMicros [2]float64) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	rs := [2]*bandit.Round{bandit.NewRound(envs[0]), bandit.NewRound(envs[1])}
	var cpu [2]int64
	clock := harness.ThreadCPUNanos() >= 0
	for i, start := 0, 1; start <= n; i, start = i+1, start+secureRegretChunk {
		end := min(n, start+secureRegretChunk-1)
		for j := range 2 {
			m := (i + j) % 2
			c0 := harness.ThreadCPUNanos()
			regret[m] = bandit.PlayRounds(envs[m], pols[m], rs[m], start, end, regret[m])
			cpu[m] += harness.ThreadCPUNanos() - c0
		}
		job.Advance(end - start + 1)
	}
	for m := range 2 {
		if clock {
			cpuMicros[m] = float64(cpu[m]) / 1e3 / float64(n)
		}
	}
	return regret, cpuMicros
}

// secureRegretRow summarises one cell's runs: runs[rep] holds the job's
// values (regret simulated, regret secure, CPU µs simulated, CPU µs secure).
func secureRegretRow(alg ss18.Alg, gap float64, runs [][]float64) SecureRegretRow {
	n := len(runs)
	row := SecureRegretRow{Alg: alg, Gap: gap, SimulatedRuns: make([]float64, n), SecureRuns: make([]float64, n)}
	diff := make([]float64, n)
	var cs, cq float64
	for i, v := range runs {
		row.SimulatedRuns[i], row.SecureRuns[i] = v[0], v[1]
		diff[i] = v[1] - v[0]
		cs += v[2]
		cq += v[3]
	}
	row.Simulated, row.SimulatedSE = harness.MeanStdErr(row.SimulatedRuns)
	row.Secure, row.SecureSE = harness.MeanStdErr(row.SecureRuns)
	md, sed := harness.MeanStdErr(diff)
	row.PairedSD = sed * math.Sqrt(float64(n))
	t := studentT975(n - 1)
	row.DiffPct = 100 * md / row.Simulated
	row.CIPct = 100 * t * sed / math.Abs(row.Simulated)
	row.PairedSDPct = 100 * row.PairedSD / math.Abs(row.Simulated)
	row.RunsFor2Pct = RunsForHalfWidth(row.PairedSDPct, secureRegretTarget)
	row.CPU = SecureRegretCPU{SimulatedMicros: cs / float64(n), SecureMicros: cq / float64(n)}
	if cs > 0 {
		row.CPU.Ratio = cq / cs
	}
	return row
}

// studentT975 is the 0.975 quantile of Student's t with df degrees of
// freedom (the two-sided 95 % interval's factor).
func studentT975(df int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(1 - (1-secureRegretCI)/2)
}

// maxRunsFor bounds RunsForHalfWidth's answer (beyond it: -1).
const maxRunsFor = 1 << 30

// RunsForHalfWidth returns the smallest number of runs r ≥ 2 for which the
// 95 % t interval of a mean, t(0.975, r − 1)·sd/√r, has a half-width of at
// most target (sd and target in the same units, here % of the simulated
// regret); -1 when sd or target is not finite and positive enough for an
// answer below 2³⁰ runs (a zero sd needs 2).
func RunsForHalfWidth(sd, target float64) int {
	if sd == 0 && target > 0 {
		return 2
	}
	if !(sd > 0) || !(target > 0) || math.IsInf(sd, 0) || math.IsInf(target, 0) {
		return -1
	}
	// The normal approximation is a lower bound (t > z); step up from it.
	z := distuv.UnitNormal.Quantile(1 - (1-secureRegretCI)/2)
	r0 := math.Ceil(float64(z*sd/target) * float64(z*sd/target))
	if r0 > maxRunsFor {
		return -1
	}
	r := max(2, int(r0))
	for studentT975(r-1)*sd/math.Sqrt(float64(r)) > target {
		r++
	}
	return r
}
