package main

import (
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

	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/as17fig"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/internal/snap"
	"github.com/dpbandits/dpbandits/dpb/mt14fig"
	"github.com/dpbandits/dpbandits/dpb/noise"
	dpbplot "github.com/dpbandits/dpbandits/dpb/plot"
	"github.com/dpbandits/dpbandits/dpb/ss18"
	"github.com/dpbandits/dpbandits/dpb/ss18fig"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// Figures beyond the papers: the continual counters at equal
// privacy, and SS18's Figure 4 setting with exactly calibrated variants.

func runBeyondCounters(name, out string, args []string) error {
	fs := figureFlags(name)
	eps := floatVar(fs, "eps", 1, "target ε")
	delta := floatVar(fs, "delta", 0.1, "target δ")
	maxLog := new(int)
	countVar(fs, maxLog, "maxlog", 24, 10, 30, "largest horizon 2^maxlog (n = 2^10, 2^12, …)")
	short := fs.Bool("short", false, "quick run (n up to 2^16)")
	if err := parseFigure(fs, args); err != nil {
		return err
	}
	if err := finiteFlags(fs, map[string]float64{"eps": *eps, "delta": *delta}); err != nil {
		return err
	}
	if *short {
		*maxLog = 16
	}
	// The exact calibrations keep a few values a round up to n = 2^maxlog
	// (about 9 bytes a round measured at 2^22).
	if err := ready(memEstimate{{"the counters' exact variance profiles (about 12 bytes a round up to n = 2^maxlog)", "-maxlog", 12 * math.Exp2(float64(*maxLog))}}); err != nil {
		return err
	}
	if runEstimate != nil {
		return nil // no job list: an exact computation
	}
	var ns []int
	for e := 10; e <= *maxLog; e += 2 {
		ns = append(ns, 1<<e)
	}
	start := time.Now()
	res, err := ss18fig.CounterNoise(*eps, *delta, ns)
	if err != nil {
		return err
	}
	wall := time.Since(start).Seconds()
	return writeBeyondCounters(name, filepath.Join(out, name), res, *eps, *delta, ns, wall)
}

// writeBeyondCounters writes beyond-counters' two panels (largest and mean
// per-round noise s.d. against n), its table of every counter's profile
// and its JSON.
func writeBeyondCounters(name, base string, res *ss18fig.CounterNoiseResult, eps, delta float64, ns []int, wall float64) error {
	row, err := plotRow([]*harness.Curves{res.MaxStd, res.MeanStd}, func(i int) dpbplot.CurveOptions {
		return dpbplot.CurveOptions{LogX: true, LogY: true, LegendBottom: true, LegendRight: true,
			Title:  fmt.Sprintf("%s per-round noise s.d. at (ε, δ) = (%g, %g)\nunit ℓ2 sensitivity, Gaussian noise calibrated exactly", [2]string{"largest", "mean"}[i], eps, delta),
			XLabel: "horizon n (log scale)", YLabel: "noise standard deviation (log scale)"}
	}, func(p *plot.Plot) {
		p.X.Tick.Marker, p.Y.Tick.Marker = dpbplot.Pow2Ticks{}, dpbplot.NiceLogTicks{}
		p.Y.Min /= 6 // room for the legend (bottom right) below the curves
	})
	if err != nil {
		return err
	}
	if err := dpbplot.SaveGrid([][]*plot.Plot{row}, base, 6*vg.Inch, 4.5*vg.Inch); err != nil {
		return err
	}
	rows := [][]string{{"counter", "n", "max_var", "mean_var", "cost_l2sq", "cost_l1", "max_std_at_privacy", "mean_std_at_privacy", "max_ratio_to_tree", "mean_ratio_to_tree"}}
	for i, k := range res.Kinds {
		for j, p := range res.Profiles[i] {
			r := res.Ratio[k.String()][j]
			rows = append(rows, []string{k.String(), strconv.Itoa(p.N), fmtF(p.MaxVar), fmtF(p.MeanVar), fmtF(p.Cost.L2Sq), fmtF(p.Cost.L1),
				fmtF(res.MaxStd.Mean[i][j]), fmtF(res.MeanStd.Mean[i][j]), fmtF(r[0]), fmtF(r[1])})
		}
	}
	if err := writeTable(base+".csv", rows); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%s: %d counters × %d horizons, exact, wall %.1fs\n", name, len(res.Kinds), len(ns), wall)
	return writeMeta(base, harness.Meta{Name: name, Reps: 0, Horizon: ns[len(ns)-1], Noise: []string{harness.NoNoise}, Config: map[string]any{
		"epsilon": eps, "delta": delta, "mu": res.Mu, "horizons": ns, "result": res, "wall_seconds": wall,
		"stream_version": snap.StreamVersion, "note": "exact computation, no randomness (seed unused)",
	}})
}

func defineBeyondSS18(name string, fs *flag.FlagSet) func() (*figureRun, error) {
	var c ss18Common
	c.bind(fs)
	algs := fs.String("algs", "", "comma-separated variants, NonPrivate first (default: all of the figure's)")
	var dim, k int
	defaultOrVar(fs, &dim, "dim", 0, 1, 64, "dimension d, 0: the paper's 5")
	defaultOrVar(fs, &k, "k", 0, 2, 4096, "actions per round, 0: d²")
	return func() (*figureRun, error) {
		list, err := parseSS18Algs(*algs, ss18.BeyondAlgs)
		if err != nil {
			return nil, err
		}
		cfg := ss18fig.Exp2Config{Algs: list, Dim: dim, K: k, Seed: c.seed, RunOptions: harness.RunOptions{Workers: c.workers, Progress: c.progressW()}, Points: 50}
		switch {
		case c.paper:
			cfg.Horizon, cfg.Reps = 5000000, 10
		case c.short:
			cfg.Horizon, cfg.Reps = 20000, 2
		default:
			cfg.Horizon, cfg.Reps = 1000000, 10
		}
		cfg.Horizon, cfg.Reps = orPositive(c.n, cfg.Horizon), orPositive(c.runs, cfg.Reps)
		var res *ss18fig.Exp2Result
		return &figureRun{jobs: &c.jobs, memory: memEstimate{runsPart(c.workers, "", 1)},
			experiment: func(p *harness.Plan) (err error) {
				cfg.Plan = p
				res, err = ss18fig.Experiment2(cfg)
				return err
			},
			write: func(base string, wall float64) error { return writeBeyondSS18(name, base, res, wall) },
		}, nil
	}
}

// writeBeyondSS18 writes beyond-ss18's panels, curves and JSON (with the
// exact calibrations and the regret ratios).
func writeBeyondSS18(name, base string, res *ss18fig.Exp2Result, wall float64) error {
	cfg := res.Config
	ratios, err := ss18fig.RegretRatios(res)
	if err != nil {
		return err
	}
	row, err := plotRow(res.Curves, func(g int) dpbplot.CurveOptions {
		return dpbplot.CurveOptions{LogY: true, Band: 2, LegendAbove: true,
			Title: fmt.Sprintf("%s, exact accounting and counters, Δ = %g\nd = %d, K = %d, ε = %g, δ = %g; n = %s, %d runs",
				beyondSetting(cfg), cfg.Gaps[g], cfg.Dim, cfg.K, cfg.Epsilon, cfg.Delta, dpbplot.FormatCount(cfg.Horizon), cfg.Reps),
			XLabel: "round t", YLabel: "pseudo-regret (mean ± 2 s.e., log)"}
	}, func(p *plot.Plot) {
		p.X.Min = 0
		p.X.Tick.Marker, p.Y.Tick.Marker = dpbplot.GTicks{}, dpbplot.NiceLogTicks{}
	})
	if err != nil {
		return err
	}
	// Each panel taller by its legend band (LegendAbove), so the data area
	// keeps its 6 inches.
	if err := dpbplot.SaveGrid([][]*plot.Plot{row}, base, 6*vg.Inch, 6*vg.Inch+row[0].Legend.YOffs); err != nil {
		return err
	}
	prefixes := make([]string, len(cfg.Gaps))
	for g, gap := range cfg.Gaps {
		prefixes[g] = fmt.Sprintf("gap=%g", gap)
	}
	if err := writeCurvesCSV(base+".csv", "round", res.Curves, prefixes); err != nil {
		return err
	}
	if err := writeExp2Finals(base, beyondSetting(cfg)+", exact accounting and counters", res); err != nil {
		return err
	}
	st := cfg.Setting()
	cals, err := beyondCalibrations(st, cfg.Algs)
	if err != nil {
		return err
	}
	paired, err := leverPairs(res)
	if err != nil {
		return err
	}
	kt, err := st.WishartKTight()
	if err != nil {
		return err
	}
	for _, r := range ratios {
		fmt.Fprintf(os.Stderr, "  Δ=%-4g %-16s regret %9.0f ± %-7.0f ratio %7.2f ± %.2f\n", r.Gap, r.Alg, r.Regret, r.SE, r.Ratio, r.RatioSE)
	}
	fmt.Fprintf(os.Stderr, "%s: n = %d, %d runs × %d gaps × %d variants, wall %.1fs\n", name, cfg.Horizon, cfg.Reps, len(cfg.Gaps), len(cfg.Algs), wall)
	return writeMeta(base, harness.Meta{Name: name, Seed: cfg.Seed, Reps: cfg.Reps, Horizon: cfg.Horizon, Noise: noiseNames(noise.Simulated), Config: map[string]any{
		"experiment": cfg, "wall_seconds": wall, "ratios": ratios, "gaussian_calibrations": cals,
		"finals": res.Finals, "paired_vs_" + ss18.GaussianBLTRoundMinEig.String(): paired,
		"wishart_k_printed": st.WishartK(), "wishart_k_tight": kt, "gaussian_sigma_printed": st.GaussianSigma(),
		"release_mode": "padded", "rewards": "rademacher (L̃² = 2), α = 1/n", "stream_version": snap.StreamVersion,
	}})
}

// beyondCalibrations returns the exact Gaussian calibration of every
// variant of algs on a continual counter, by its name.
func beyondCalibrations(st ss18.Setting, algs []ss18.Alg) (map[string]any, error) {
	cals := map[string]any{}
	for _, a := range algs {
		if kind, ok := a.GaussianCounter(counter.Padded); ok {
			calibrate := ss18.GaussianCounterCalibration
			if a == ss18.GaussianBLTSharp {
				calibrate = ss18.GaussianCounterCalibrationSharp
			}
			cal, err := calibrate(st, kind)
			if err != nil {
				return nil, err
			}
			cals[a.String()] = cal
		}
		if lv, ok := a.Levers(); ok {
			if lv.Split {
				lv.XBound, lv.YBound = 1, 1 // as ss18fig.Experiment2 runs it
			}
			cal, err := ss18.LeverCalibration(st, counter.BLT, lv)
			if err != nil {
				return nil, err
			}
			cals[a.String()] = cal
		}
	}
	return cals, nil
}

// beyondSetting names the setting of a beyond-ss18 run: Fig. 4's (d = 5,
// K = 25) or another one (-dim, -k).
func beyondSetting(cfg ss18fig.Exp2Config) string {
	if cfg.Dim == 5 && cfg.K == 25 {
		return "SS18 Fig. 4's setting"
	}
	return "SS18 Appendix D's environment"
}

// leverPairs returns the paired differences of res's variants to
// GaussianBLTRoundMinEig (none when it is not among them) and prints the
// lever variants'.
func leverPairs(res *ss18fig.Exp2Result) ([]ss18fig.PairedDiff, error) {
	if !slices.Contains(res.Config.Algs, ss18.GaussianBLTRoundMinEig) {
		return nil, nil
	}
	paired, err := ss18fig.PairedDiffs(res, ss18.GaussianBLTRoundMinEig)
	if err != nil {
		return nil, err
	}
	for _, p := range paired {
		if _, lever := mustParseAlg(p.Alg).Levers(); lever {
			fmt.Fprintf(os.Stderr, "  Δ=%-4g %-16s − %s: %9.1f ± %.1f (%+.1f%%)\n", p.Gap, p.Alg, p.Baseline, p.Diff, p.SE, 100*p.RelDiff)
		}
	}
	return paired, nil
}

// parseSS18Algs parses a comma-separated list of SS18 variants (def when
// empty); NonPrivate must come first (the ratios are to it).
func parseSS18Algs(list string, def []ss18.Alg) ([]ss18.Alg, error) {
	if list == "" {
		return def, nil
	}
	var out []ss18.Alg
	for _, f := range strings.Split(list, ",") {
		a, err := ss18.ParseAlg(strings.TrimSpace(f))
		if err != nil {
			return nil, err
		}
		if slices.Contains(out, a) {
			return nil, fmt.Errorf("-algs: %v listed twice", a)
		}
		out = append(out, a)
	}
	if out[0] != ss18.NonPrivate {
		return nil, fmt.Errorf("-algs: the first variant must be NonPrivate (the regret ratios are to it), not %v", out[0])
	}
	return out, nil
}

// mustParseAlg parses a name ss18 itself printed.
func mustParseAlg(name string) ss18.Alg {
	a, err := ss18.ParseAlg(name)
	if err != nil {
		panic(err)
	}
	return a
}

// plotRow draws one panel per curve set with the options opt(i), then
// applies adjust to each.
func plotRow(cs []*harness.Curves, opt func(i int) dpbplot.CurveOptions, adjust func(p *plot.Plot)) ([]*plot.Plot, error) {
	row := make([]*plot.Plot, len(cs))
	for i, c := range cs {
		p, err := dpbplot.Curves(c, opt(i))
		if err != nil {
			return nil, err
		}
		adjust(p)
		row[i] = p
	}
	return row, nil
}

// orPositive returns v if it is > 0, else def (a flag's 0 means "default").
func orPositive(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// defineBeyondMT14 defines beyond-mt14's flags (figurePhases): MT14 Fig. 1
// (k = 5, ε = 1) with DP-UCB on the continual counters beside the tree.
func defineBeyondMT14(name string, fs *flag.FlagSet) func() (*figureRun, error) {
	var c ss18Common
	c.bind(fs)
	return func() (*figureRun, error) {
		cfg := mt14fig.Fig1Config{Arms: 5, Horizon: 1_000_000, Reps: 20, Seed: c.seed, RunOptions: harness.RunOptions{Workers: c.workers, Progress: c.progressW()},
			Epsilons: []float64{1}, NoRelaxation: []float64{1}, Counters: []counter.Kind{counter.Honaker, counter.Smooth, counter.Kary}}
		if c.short {
			cfg.Horizon, cfg.Reps = 20_000, 4
		}
		cfg.Horizon, cfg.Reps = orPositive(c.n, cfg.Horizon), orPositive(c.runs, cfg.Reps)
		var cv *harness.Curves
		return &figureRun{jobs: &c.jobs, memory: memEstimate{runsPart(c.workers, "", 1)},
			experiment: func(p *harness.Plan) (err error) {
				cfg.Plan = p
				cv, err = mt14fig.RunFig1(cfg)
				return err
			},
			write: func(base string, wall float64) error { return writeBeyondMT14(name, base, cfg, cv, wall) },
		}, nil
	}
}

// writeBeyondMT14 writes beyond-mt14's panel, curves and JSON with each
// series' final regret.
func writeBeyondMT14(name, base string, cfg mt14fig.Fig1Config, cv *harness.Curves, wall float64) error {
	row, err := plotRow([]*harness.Curves{cv}, func(int) dpbplot.CurveOptions {
		return dpbplot.CurveOptions{LogX: true, LogY: true, LegendBottom: true, LegendRight: true,
			Title:  fmt.Sprintf("MT14 Fig. 1 with modern counters: k=%d, means 0.9 / 0.4; ε = 1, T=%s, %d runs", cfg.Arms, dpbplot.FormatCount(cfg.Horizon), cfg.Reps),
			XLabel: "round t (log scale)", YLabel: "pseudo-regret (log scale)"}
	}, func(p *plot.Plot) {
		p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1} // powers of ten: six decades
		p.Y.Min /= 1e4                                                                      // four free decades below the curves for the legend (bottom right)
	})
	if err != nil {
		return err
	}
	if err := dpbplot.SaveGrid([][]*plot.Plot{row}, base, 7*vg.Inch, 5*vg.Inch); err != nil {
		return err
	}
	if err := writeCurvesCSV(base+".csv", "round", []*harness.Curves{cv}, []string{"k=5"}); err != nil {
		return err
	}
	last := len(cv.X) - 1
	final := map[string][2]float64{}
	for s, n := range cv.Names {
		final[n] = [2]float64{cv.Mean[s][last], cv.StdErr[s][last]}
		fmt.Fprintf(os.Stderr, "  %-34s regret %9.0f ± %.0f\n", n, cv.Mean[s][last], cv.StdErr[s][last])
	}
	cfg.Progress = nil
	fmt.Fprintf(os.Stderr, "%s: T=%d runs=%d, wall %.1fs\n", name, cfg.Horizon, cfg.Reps, wall)
	return writeMeta(base, harness.Meta{Name: name, Seed: cfg.Seed, Reps: cfg.Reps, Horizon: cfg.Horizon, Noise: noiseNames(noise.Simulated), Config: map[string]any{
		"fig1": cfg, "final_regret_mean_se": final, "wall_seconds": wall, "stream_version": snap.StreamVersion}})
}

// defineBeyondAS17 defines the flags of "dpb reproduce beyond-as17"
// (figurePhases): DP-FTRL on AS17 Table 1's experts, sphere and cube
// settings, non-private, on AS17's Laplace tree (pure ε) and on every
// continual counter with Gaussian noise calibrated to (ε, δ); regret against
// T on log–log axes with fitted slopes and each variant's bound
// (as17.FTRLCounterBound for the counters). It writes
// <name>.{svg,png,csv,json} and prints the table at the largest T.
func defineBeyondAS17(name string, fs *flag.FlagSet) func() (*figureRun, error) {
	var f beyondAS17Flags
	f.bind(fs)
	return func() (*figureRun, error) {
		cfg, err := f.config(name, fs)
		if err != nil {
			return nil, err
		}
		var res *as17fig.BeyondResult
		return &figureRun{jobs: &f.jobs, memory: as17Memory(*f.workers, *f.dim, *f.sqrtN),
			experiment: func(p *harness.Plan) (err error) {
				cfg.Plan = p
				res, err = as17fig.Beyond(cfg)
				return err
			},
			write: func(base string, wall float64) error { return writeBeyondAS17(name, base, res, *f.n, wall) },
		}, nil
	}
}

// beyondAS17Flags are beyond-as17's flags.
type beyondAS17Flags struct {
	n, minN, runs, workers, dim, sqrtN *int
	seed                               *uint64
	short, paper, progress             *bool
	eps, delta                         *float64
	kind                               *string
	jobs                               jobFlags
}

func (f *beyondAS17Flags) bind(fs *flag.FlagSet) {
	defN, defRuns := as17fig.BeyondPreset(harness.ScaleDefault)
	f.n, f.minN, f.runs, f.workers, f.dim, f.sqrtN = new(int), new(int), new(int), new(int), new(int), new(int)
	countVar(fs, f.n, "n", defN, 4, maxAS17Horizon, "largest horizon T")
	countVar(fs, f.minN, "minn", 256, 4, maxAS17Horizon, "smallest horizon T (horizons grow by 4×)")
	countVar(fs, f.runs, "runs", defRuns, 2, maxRuns, "independent runs per cell")
	f.seed = new(uint64)
	seedVar(fs, f.seed, "seed", 1, "experiment seed (an exact integer)")
	countVar(fs, f.workers, "workers", 0, 0, maxWorkers, "goroutines, 0: GOMAXPROCS")
	countVar(fs, f.dim, "dim", 4, 2, maxAS17Dim, "dimension N (experts)")
	countVar(fs, f.sqrtN, "sqrtn", as17.SqrtMaxHorizon, 0, counter.MaxSqrtHorizon, "largest T of the exact square-root counter (O(T²) per run)")
	f.short = fs.Bool("short", false, "quick run (n=2^12, runs=4)")
	f.paper = fs.Bool("paper", false, "the AS17 tables' scale (n=2^20, runs=20; minutes)")
	f.eps = floatVar(fs, "eps", 1, "ε of every private variant")
	f.delta = floatVar(fs, "delta", 0, "δ of the Gaussian variants, in (0, 1); 0: δ = 1/T at each T")
	f.kind = fs.String("kind", "stochastic", "loss sequence: stochastic, worst-case, switching")
	f.progress = new(bool)
	progressVar(fs, f.progress)
	f.jobs.bind(fs)
}

// config checks the flags, applies -short or -paper to -n and -runs when
// not set, and returns the experiment's configuration.
func (f *beyondAS17Flags) config(name string, fs *flag.FlagSet) (as17fig.BeyondConfig, error) {
	var none as17fig.BeyondConfig
	if err := finiteFlags(fs, map[string]float64{"eps": *f.eps, "delta": *f.delta}); err != nil {
		return none, err
	}
	if *f.short && *f.paper {
		return none, usagef("reproduce %s: -short and -paper exclude each other", name)
	}
	if !(*f.eps >= minEpsilon && *f.eps <= maxEpsilon) {
		return none, usagef("reproduce %s: -eps %v out of range [%g, %g]", name, *f.eps, minEpsilon, maxEpsilon)
	}
	if !(*f.delta >= 0 && *f.delta < 1) {
		return none, usagef("reproduce %s: -delta %v out of range: want 0 (δ = 1/T) or a value in (0, 1)", name, *f.delta)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	sn, sr := as17fig.BeyondPreset(harness.ScaleOf(*f.short, *f.paper))
	if !set["n"] {
		*f.n = sn
	}
	if !set["runs"] {
		*f.runs = sr
	}
	if *f.n < *f.minN {
		return none, usagef("reproduce %s: -n %d is below -minn %d (want 4 <= minn <= n)", name, *f.n, *f.minN)
	}
	k, err := parseKind(*f.kind)
	if err != nil {
		return none, err
	}
	cfg := as17fig.BeyondConfig{Dim: *f.dim, Kind: k, Horizons: harness.HorizonGrid(*f.minN, *f.n, 4), Epsilon: *f.eps, Delta: *f.delta,
		SqrtMaxHorizon: *f.sqrtN, Reps: *f.runs, Seed: *f.seed, RunOptions: harness.RunOptions{Workers: *f.workers}}
	if *f.progress {
		cfg.Progress = os.Stderr
	}
	return cfg, nil
}

// writeBeyondAS17 writes beyond-as17's tiles, its curves with each
// variant's bound, and its JSON, and prints the table at the largest T.
func writeBeyondAS17(name, base string, res *as17fig.BeyondResult, n int, wall float64) error {
	cfg := res.Config
	tiles, err := dpbplot.BeyondAS17Tiles(res)
	if err != nil {
		return err
	}
	if err := dpbplot.SaveTiled(tiles, dpbplot.TileWidth, dpbplot.TileHeight*1.35, base); err != nil {
		return err
	}
	all := &harness.Curves{}
	for _, p := range res.Panels {
		all.X, all.Reps = p.Regret.X, p.Regret.Reps
		for v, nm := range p.Regret.Names {
			all.Names = append(all.Names, p.Row+"/"+nm)
			all.Mean = append(all.Mean, p.Regret.Mean[v])
			all.StdErr = append(all.StdErr, p.Regret.StdErr[v])
		}
		for v, nm := range p.Regret.Names {
			all.Names = append(all.Names, p.Row+"/"+nm+"/bound")
			all.Mean = append(all.Mean, p.Bound[v])
			all.StdErr = append(all.StdErr, p.BoundSE[v])
		}
	}
	if err := createWith(base+".csv", func(w io.Writer) error { return all.WriteCSV(w, "T") }); err != nil {
		return err
	}
	fmt.Print(res.Markdown())
	fmt.Fprintf(os.Stderr, "%s: T ≤ %d, %d runs × %d sets × %d variants, wall %.1fs\n", name, n, cfg.Reps, len(cfg.Sets), len(res.Variants), wall)
	return writeMeta(base, harness.Meta{Name: name, Seed: cfg.Seed, Reps: cfg.Reps, Horizon: n, Noise: noiseNames(noise.Simulated), Config: map[string]any{
		"experiment": res, "wall_seconds": wall, "stream_version": snap.StreamVersion,
		"delta_rule": deltaRule(cfg.Delta), "laplace": "AS17 TreeBasedAgg (padded), λ = 2‖𝒴‖₁m/ε (dpb.FTRLLambda, the privacy-correct scale)",
	}})
}

func deltaRule(d float64) string {
	if d == 0 {
		return "δ = 1/T at each T"
	}
	return fmt.Sprintf("δ = %g", d)
}
