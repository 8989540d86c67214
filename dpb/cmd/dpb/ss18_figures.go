package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/noise"
	dpbplot "github.com/dpbandits/dpbandits/dpb/plot"
	"github.com/dpbandits/dpbandits/dpb/ss18fig"
	"gonum.org/v1/plot/vg"
)

// ss18Common are the flags every SS18 figure accepts (the group shares them).
type ss18Common struct {
	n, runs, workers int
	seed             uint64
	short, paper     bool
	progress         bool
	jobs             jobFlags
}

func (c *ss18Common) bind(fs *flag.FlagSet) {
	defaultOrVar(fs, &c.n, "n", 0, 2, maxHorizon, "horizon n, 0: the figure's default")
	countVar(fs, &c.runs, "runs", 0, 0, maxRuns, "independent runs, 0: the figure's default")
	countVar(fs, &c.workers, "workers", 0, 0, maxWorkers, "worker goroutines, 0: GOMAXPROCS")
	seedVar(fs, &c.seed, "seed", 1, "experiment seed (an exact integer)")
	fs.BoolVar(&c.short, "short", false, "small quick run")
	fs.BoolVar(&c.paper, "paper", false, "the paper's scale (slow)")
	progressVar(fs, &c.progress)
	c.jobs.bind(fs)
}

// scale is the preset -short or -paper selects (-paper wins).
func (c *ss18Common) scale() harness.Scale { return harness.ScaleOf(c.short, c.paper) }

func (c *ss18Common) progressW() io.Writer {
	if c.progress {
		return os.Stderr
	}
	return nil
}

func fmtF(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }

// ---------------------------------------------------------------- Figure 1

// defineSS18Fig1 defines ss18-fig1's flags (figurePhases): one decision
// set in R³ drawn as SS18 Appendix D does.
func defineSS18Fig1(name string, fs *flag.FlagSet) func() (*figureRun, error) {
	var c ss18Common
	c.bind(fs)
	var k int
	countVar(fs, &k, "k", 1000, 1, maxFig1Actions, "number of actions K")
	gap := floatVar(fs, "gap", 0.1, "sub-optimality gap Δ")
	az := floatVar(fs, "azimuth", 35, "view azimuth (degrees)")
	el := floatVar(fs, "elevation", 20, "view elevation (degrees)")
	return func() (*figureRun, error) {
		if err := finiteFlags(fs, map[string]float64{"gap": *gap, "azimuth": *az, "elevation": *el}); err != nil {
			return nil, err
		}
		if !(*gap >= 0 && *gap < 1.5) { // env.NewLinearEnv's [0, 2·optimal reward), at its default 0.75
			return nil, usagef("reproduce %s: invalid value %v for flag -gap: want a gap in [0, 1.5) (twice the optimal reward 0.75)", name, *gap)
		}
		var ds *ss18fig.LinearDecisionSet
		view := dpbplot.View{Azimuth: *az, Elevation: *el}
		// The plot of K points in its SVG and PNG: about 1 kB a point
		// measured at K = 10⁵ (115 MB).
		return &figureRun{jobs: &c.jobs, memory: memEstimate{{"the decision set of -k actions and its plot (SVG and PNG)", "-k", 600 * float64(k)}},
			// One cheap draw, not a job: a shard writes nothing.
			experiment: func(*harness.Plan) (err error) {
				ds, err = ss18fig.DecisionSet(env.LinearEnvConfig{Dim: 3, K: k, Gap: *gap}, c.seed)
				return err
			},
			write: func(base string, wall float64) error { return writeSS18Fig1(name, base, ds, view, c.seed, wall) },
		}, nil
	}
}

// writeSS18Fig1 writes Figure 1's decision set (plot and table) and its
// JSON.
func writeSS18Fig1(name, base string, ds *ss18fig.LinearDecisionSet, view dpbplot.View, seed uint64, wall float64) error {
	p, err := dpbplot.SS18Fig1(ds, view)
	if err != nil {
		return err
	}
	fw, fh := dpbplot.SS18Fig1Size(6.5 * vg.Inch)
	if err := dpbplot.SaveSized(p, base, fw, fh); err != nil {
		return err
	}
	rows := [][]string{{"action", "x1", "x2", "x3", "mean", "optimal"}}
	for a, x := range ds.Actions {
		rows = append(rows, []string{strconv.Itoa(a), fmtF(x[0]), fmtF(x[1]), fmtF(x[2]), fmtF(ds.Means[a]), strconv.FormatBool(a == ds.Optimal)})
	}
	if err := writeTable(base+".csv", rows); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%s: %d actions, θ* = %.3f, wall %.2fs\n", name, len(ds.Actions), ds.Theta, wall)
	return writeMeta(base, harness.Meta{Name: name, Seed: seed, Reps: 1, Horizon: 1, Noise: []string{harness.NoNoise}, Config: map[string]any{
		"decision_set": ds, "view": map[string]float64{"azimuth": view.Azimuth, "elevation": view.Elevation}, "wall_seconds": wall,
	}})
}

// ---------------------------------------------------------------- Experiment 1

// exp1Cache lets "dpb reproduce ss18" run Experiment 1 once for Figs. 2 and 3.
var exp1Cache = map[string]*exp1Run{}

type exp1Run struct {
	res  *ss18fig.Exp1Result
	wall float64
}

// runExp1 runs (or recalls) Experiment 1; a nil result without error means
// the figure is not to be written (a shard).
func runExp1(name string, args []string) (*exp1Run, *ss18Common, error) {
	fs := figureFlags(name)
	var c ss18Common
	c.bind(fs)
	dims := fs.String("dims", "", "comma-separated dimensions (default: 7 log-spaced in [4, 32]; -paper: 17 in [4, 64])")
	if err := parseFigure(fs, args); err != nil {
		return nil, nil, err
	}
	cfg := ss18fig.Exp1Config{Horizon: c.n, Reps: c.runs, Seed: c.seed, RunOptions: harness.RunOptions{Workers: c.workers, Progress: c.progressW()}}
	cfg.ApplyScale(c.scale())
	if c.n > 0 {
		cfg.Horizon = c.n
	}
	if c.runs > 0 {
		cfg.Reps = c.runs
	}
	if *dims != "" {
		cfg.Dims = nil
		for _, s := range strings.Split(*dims, ",") {
			v, err := parseCount(strings.TrimSpace(s), 2, maxExp1Dim)
			if err != nil {
				return nil, nil, usagef("reproduce %s: invalid value %q for flag -dims: %v (each d in [2, %d]: K = d² actions)", name, *dims, err, maxExp1Dim)
			}
			d := int(v)
			cfg.Dims = append(cfg.Dims, d)
		}
		if distinct := len(slices.Compact(slices.Sorted(slices.Values(cfg.Dims)))); name == "ss18-fig3" && distinct < 2 {
			// Fig. 3 fits a line through log total regret against log d.
			return nil, nil, usagef("reproduce %s: -dims %s: Fig. 3 fits a slope and needs at least 2 distinct dimensions", name, *dims)
		}
	}
	if err := ready(exp1Memory(cfg.Dims, c.scale(), c.workers)); err != nil {
		return nil, nil, err
	}
	plan, err := c.jobs.plan(name)
	if err != nil {
		return nil, nil, err
	}
	key, _ := json.Marshal(cfg)
	if r, ok := exp1Cache[string(key)]; ok && plan.Shard.N == 0 && !plan.Estimate {
		return r, &c, nil
	}
	cfg.Plan = plan.Plan
	start := time.Now()
	res, err := ss18fig.Experiment1(cfg)
	if stop, err := plan.done(err); stop {
		return nil, nil, err
	}
	r := &exp1Run{res: res, wall: time.Since(start).Seconds()}
	exp1Cache[string(key)] = r
	fmt.Fprintf(os.Stderr, "experiment 1: dims %v, n = %d, %d runs: wall %.1fs\n", res.Config.Dims, res.Config.Horizon, res.Config.Reps, r.wall)
	return r, &c, nil
}

func exp1Meta(name string, r *exp1Run) harness.Meta {
	cfg := r.res.Config
	var slope, intercept any = r.res.Slope, r.res.Intercept
	for _, v := range r.res.Slope {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			slope, intercept = nil, nil // one dimension: no line to fit (JSON null)
		}
	}
	return harness.Meta{Name: name, Seed: cfg.Seed, Reps: cfg.Reps, Horizon: cfg.Horizon, Noise: []string{harness.NoNoise}, Config: map[string]any{
		"experiment": cfg, "slope": slope, "intercept": intercept,
		"wall_seconds": r.wall, "policy": "LinUCB, Ridge(λ), log-det radius, α = 1/n",
	}}
}

func runSS18Fig2(name, out string, args []string) error {
	r, _, err := runExp1(name, args)
	if err != nil || r == nil {
		return err
	}
	res := r.res
	grid, err := dpbplot.SS18Fig2(res)
	if err != nil {
		return err
	}
	base := filepath.Join(out, name)
	if err := dpbplot.SaveGrid(grid, base, 6*vg.Inch, 4.5*vg.Inch); err != nil {
		return err
	}
	prefixes := make([]string, len(res.Config.Noises))
	for i, noise := range res.Config.Noises {
		prefixes[i] = noise.String()
	}
	if err := writeCurvesCSV(base+".csv", "round", res.Curves, prefixes); err != nil {
		return err
	}
	return writeMeta(base, exp1Meta(name, r))
}

func runSS18Fig3(name, out string, args []string) error {
	r, _, err := runExp1(name, args)
	if err != nil || r == nil {
		return err
	}
	res := r.res
	p, err := dpbplot.SS18Fig3(res)
	if err != nil {
		return err
	}
	base := filepath.Join(out, name)
	if err := dpbplot.SaveSized(p, base, 7*vg.Inch, 5*vg.Inch); err != nil {
		return err
	}
	rows := [][]string{{"noise", "d", "total_regret_mean", "stderr", "reps", "fit_slope", "fit_intercept"}}
	for i, noise := range res.Config.Noises {
		tc := res.Total[i]
		for k, x := range tc.X {
			rows = append(rows, []string{noise.String(), fmtF(x), fmtF(tc.Mean[0][k]), fmtF(tc.StdErr[0][k]), strconv.Itoa(tc.Reps), fmtF(res.Slope[i]), fmtF(res.Intercept[i])})
		}
	}
	if err := writeTable(base+".csv", rows); err != nil {
		return err
	}
	return writeMeta(base, exp1Meta(name, r))
}

// ---------------------------------------------------------------- Experiment 2

// defineSS18Fig4 defines ss18-fig4's flags (figurePhases): Experiment 2.
func defineSS18Fig4(name string, fs *flag.FlagSet) func() (*figureRun, error) {
	var c ss18Common
	c.bind(fs)
	plain := fs.Bool("plain", false, "plain binary mechanism instead of the padded tree")
	var plotTo int
	countVar(fs, &plotTo, "plotto", 0, 0, maxHorizon, "plot rounds up to this, 0: n (-paper: 2e7)")
	return func() (*figureRun, error) {
		cfg := ss18fig.Exp2Config{Plain: *plain, Seed: c.seed, RunOptions: harness.RunOptions{Workers: c.workers, Progress: c.progressW()}}
		cfg.ApplyScale(c.scale())
		if c.scale() == harness.ScalePaper && plotTo == 0 {
			plotTo = 20000000 // Figure 4 plots the first 2·10⁷ rounds
		}
		if c.n > 0 {
			cfg.Horizon = c.n
		}
		if c.runs > 0 {
			cfg.Reps = c.runs
		}
		var res *ss18fig.Exp2Result
		return &figureRun{jobs: &c.jobs, memory: memEstimate{runsPart(c.workers, "", 1)},
			experiment: func(p *harness.Plan) (err error) {
				cfg.Plan = p
				res, err = ss18fig.Experiment2(cfg)
				return err
			},
			write: func(base string, wall float64) error { return writeSS18Fig4(name, base, res, plotTo, wall) },
		}, nil
	}
}

// writeSS18Fig4 writes Figure 4's grid, its curves and its JSON with the
// Wishart and Gaussian bounds of the setting.
func writeSS18Fig4(name, base string, res *ss18fig.Exp2Result, plotTo int, wall float64) error {
	cfg := res.Config
	fmt.Fprintf(os.Stderr, "experiment 2: n = %d, %d runs × %d gaps × %d variants in lockstep: wall %.1fs\n", cfg.Horizon, cfg.Reps, len(cfg.Gaps), len(cfg.Algs), wall)
	grid, err := dpbplot.SS18Fig4(res, float64(plotTo))
	if err != nil {
		return err
	}
	if err := dpbplot.SaveGrid(grid, base, 6*vg.Inch, 4.5*vg.Inch); err != nil {
		return err
	}
	prefixes := make([]string, len(cfg.Gaps))
	for g, gap := range cfg.Gaps {
		prefixes[g] = fmt.Sprintf("gap=%g", gap)
	}
	if err := writeCurvesCSV(base+".csv", "round", res.Curves, prefixes); err != nil {
		return err
	}
	if err := writeExp2Finals(base, "SS18 Fig. 4", res); err != nil {
		return err
	}
	bounds := map[string]any{}
	st := cfg.Setting()
	k := st.WishartK()
	unsh, sh := st.WishartBounds(k)
	bounds["wishart_k"], bounds["wishart_unshifted"], bounds["wishart_shifted"], bounds["gaussian"] = k, unsh, sh, st.GaussianBounds()
	return writeMeta(base, harness.Meta{Name: name, Seed: cfg.Seed, Reps: cfg.Reps, Horizon: cfg.Horizon, Noise: noiseNames(noise.Simulated), Config: map[string]any{
		"experiment": cfg, "plot_to": plotTo, "wall_seconds": wall, "bounds": bounds,
		"release_mode": map[bool]string{true: "plain", false: "padded"}[cfg.Plain],
		"rewards":      "rademacher (L̃² = 2), α = 1/n", "finals": res.Finals,
	}})
}

// writeExp2Finals writes the final regret of each run of Experiment 2
// (writeFinals): one panel per gap, side by side.
func writeExp2Finals(base, what string, res *ss18fig.Exp2Result) error {
	panels, err := dpbplot.SS18Finals(res, what)
	if err != nil {
		return err
	}
	keys := make([]string, len(res.Config.Gaps))
	for g, gap := range res.Config.Gaps {
		keys[g] = fmt.Sprintf("gap=%g", gap)
	}
	return writeFinals(base, keys, panels, len(panels))
}

// ---------------------------------------------------------------- Experiment 3

// defineSS18Fig5 defines ss18-fig5's flags (figurePhases): Experiment 3.
func defineSS18Fig5(name string, fs *flag.FlagSet) func() (*figureRun, error) {
	var c ss18Common
	c.bind(fs)
	plain := fs.Bool("plain", false, "plain binary mechanism instead of the padded tree")
	var rhos int
	defaultOrVar(fs, &rhos, "rhos", 0, 2, maxRhos, "number of ρ_min values, 0: 6")
	return func() (*figureRun, error) {
		cfg := ss18fig.Exp3Config{Plain: *plain, RhoMins: rhos, Seed: c.seed, RunOptions: harness.RunOptions{Workers: c.workers, Progress: c.progressW()}}
		cfg.ApplyScale(c.scale())
		if c.n > 0 {
			cfg.Horizon = c.n
		}
		if c.runs > 0 {
			cfg.Reps = c.runs
		}
		if rhos > 0 {
			cfg.RhoMins = rhos
		}
		var res *ss18fig.Exp3Result
		return &figureRun{jobs: &c.jobs, memory: memEstimate{runsPart(c.workers, "", 1)},
			experiment: func(p *harness.Plan) (err error) {
				cfg.Plan = p
				res, err = ss18fig.Experiment3(cfg)
				return err
			},
			write: func(base string, wall float64) error { return writeSS18Fig5(name, base, res, wall) },
		}, nil
	}
}

// writeSS18Fig5 writes Figure 5's grid, its curves and its JSON.
func writeSS18Fig5(name, base string, res *ss18fig.Exp3Result, wall float64) error {
	cfg := res.Config
	fmt.Fprintf(os.Stderr, "experiment 3: n = %d, %d runs × %d gaps × %d policies in lockstep: wall %.1fs\n", cfg.Horizon, cfg.Reps, len(cfg.Gaps), 2*len(res.RhoMin), wall)
	grid, err := dpbplot.SS18Fig5(res)
	if err != nil {
		return err
	}
	if err := dpbplot.SaveGrid(grid, base, 6*vg.Inch, 4.5*vg.Inch); err != nil {
		return err
	}
	if err := writeCurvesCSV(base+".csv", "rho_min", res.Curves, res.Mechanisms); err != nil {
		return err
	}
	return writeMeta(base, harness.Meta{Name: name, Seed: cfg.Seed, Reps: cfg.Reps, Horizon: cfg.Horizon, Noise: noiseNames(noise.Simulated), Config: map[string]any{
		"experiment": cfg, "rho_min": res.RhoMin, "paper_rho_min": res.PaperRhoMin, "unshifted_rho_min": res.UnshiftedRhoMin,
		"wall_seconds": wall, "release_mode": map[bool]string{true: "plain", false: "padded"}[cfg.Plain],
		"shift": "Wishart: c = ρ_min(unshifted) − ρ_min; Gaussian: c = Υ + ρ_min",
	}})
}
