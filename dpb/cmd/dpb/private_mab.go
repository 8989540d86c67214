package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/internal/snap"
	"github.com/dpbandits/dpbandits/dpb/mabfig"
	"github.com/dpbandits/dpbandits/dpb/noise"
	dpbplot "github.com/dpbandits/dpbandits/dpb/plot"
)

// privateMABPanels are the ε of the regret-over-time panels.
var privateMABPanels = []float64{0.1, 1, 10}

func privateMAB(name, out string, k int, args []string) error {
	fs := figureFlags(name)
	var f privateMABFlags
	f.bind(fs)
	if err := parseFigure(fs, args); err != nil {
		return err
	}
	cfg, err := f.config(name, k)
	if err != nil {
		return err
	}
	if err := ready(memEstimate{runsPart(*f.workers, "", 1)}); err != nil {
		return err
	}
	plan, err := f.jobs.plan(name)
	if err != nil {
		return err
	}
	cfg.Plan = plan.Plan
	if *f.order {
		return privateMABOrder(name, out, cfg)
	}
	start := time.Now()
	res, err := mabfig.Run(cfg)
	if stop, err := plan.done(err); stop {
		return err
	}
	return writePrivateMAB(name, filepath.Join(out, name), res, time.Since(start))
}

// privateMABFlags are the flags of the private K-armed bandit figures.
type privateMABFlags struct {
	n, runs, workers                 *int
	seed                             *uint64
	short, bestLast, order, progress *bool
	eps, algs                        *string
	jobs                             jobFlags
}

func (f *privateMABFlags) bind(fs *flag.FlagSet) {
	f.n, f.runs, f.workers = new(int), new(int), new(int)
	defaultOrVar(fs, f.n, "n", 0, 2, maxHorizon, "horizon T, 0: 1e6")
	countVar(fs, f.runs, "runs", 0, 0, maxRuns, "repetitions, 0: 20")
	countVar(fs, f.workers, "workers", 0, 0, maxWorkers, "goroutines, 0: GOMAXPROCS")
	f.seed = new(uint64)
	seedVar(fs, f.seed, "seed", 1, "experiment seed (an exact integer)")
	f.short = fs.Bool("short", false, "small quick run")
	f.eps = fs.String("eps", "", "comma-separated ε values (default 0.1,0.3,1,3,10; must include 0.1, 1 and 10)")
	f.algs = fs.String("algs", "", "comma-separated algorithms (default: all of "+strings.Join(mabfig.Algorithms, ",")+")")
	f.bestLast = fs.Bool("best-last", false, "list the best arm last instead of first")
	f.order = fs.Bool("order", false, "instead of the figure, run the order test: best arm first and last, -runs each (0: 40), and write NAME-order.md with z of each difference")
	f.progress = new(bool)
	progressVar(fs, f.progress)
	f.jobs.bind(fs)
}

// config checks the flags into the figure's configuration for k arms.
func (f *privateMABFlags) config(name string, k int) (mabfig.Config, error) {
	eps, err := floats("eps", *f.eps, minEpsilon, maxEpsilon)
	if err != nil {
		return mabfig.Config{}, err
	}
	cfg := mabfig.Config{Arms: k, Horizon: 1_000_000, Reps: 20, Seed: *f.seed, Epsilons: eps, BestLast: *f.bestLast, RunOptions: harness.RunOptions{Workers: *f.workers}}
	if *f.order {
		cfg.Reps = 40
	}
	if *f.progress {
		cfg.Progress = os.Stderr
	}
	if *f.algs != "" {
		cfg.Algorithms = strings.Split(*f.algs, ",")
		for _, a := range cfg.Algorithms {
			if !slices.Contains(mabfig.Algorithms, a) {
				return cfg, usagef("reproduce %s: invalid value %q for flag -algs: unknown algorithm %q (want names of %s)", name, *f.algs, a, strings.Join(mabfig.Algorithms, ","))
			}
		}
	}
	for _, e := range privateMABPanels {
		if eps != nil && !slices.Contains(eps, e) {
			return cfg, usagef("reproduce %s: invalid value %q for flag -eps: the panels need ε = 0.1, 1 and 10 among the values", name, *f.eps)
		}
	}
	if *f.short {
		cfg.Horizon, cfg.Reps = 20_000, 4
	}
	if *f.n > 0 {
		cfg.Horizon = *f.n
	}
	if *f.runs > 0 {
		cfg.Reps = *f.runs
	}
	return cfg, nil
}

// writePrivateMAB writes the figure's tiles, curves, Markdown table (also
// to stdout) and JSON.
func writePrivateMAB(name, base string, res *mabfig.Result, took time.Duration) error {
	tiles, err := dpbplot.PrivateMAB(res, privateMABPanels, 3)
	if err != nil {
		return err
	}
	if err := dpbplot.SaveTiled(tiles, dpbplot.TileWidth, dpbplot.TileHeight, base); err != nil {
		return err
	}
	if err := createWith(base+".csv", func(w io.Writer) error { return res.Curves.WriteCSV(w, "round") }); err != nil {
		return err
	}
	if err := createWith(base+".md", res.WriteTable); err != nil {
		return err
	}
	if err := writePrivateMABFinals(base, res); err != nil {
		return err
	}
	if err := res.WriteTable(os.Stdout); err != nil {
		return err
	}
	res.Config.Progress = nil
	fmt.Fprintf(os.Stderr, "%s: T=%d runs=%d in %v\n", name, res.Config.Horizon, res.Config.Reps, took.Round(time.Millisecond))
	return writeMeta(base, harness.Meta{Name: name, Seed: res.Config.Seed, Reps: res.Config.Reps, Horizon: res.Config.Horizon, Noise: noiseNames(noise.Simulated),
		Config: map[string]any{"private_mab": res.Config, "table": res.Table(), "stream_version": snap.StreamVersion, "seconds": took.Seconds()}})
}

// writePrivateMABFinals writes the final regret of each run (writeFinals):
// one panel per ε of the run, two a row.
func writePrivateMABFinals(base string, res *mabfig.Result) error {
	panels, err := dpbplot.PrivateMABFinals(res)
	if err != nil {
		return err
	}
	keys := make([]string, len(res.Config.Epsilons))
	for i, eps := range res.Config.Epsilons {
		keys[i] = fmt.Sprintf("eps=%g", eps)
	}
	return writeFinals(base, keys, panels, 2)
}

// privateMABOrder runs mabfig.OrderTest on cfg and writes its z table to
// OUT/NAME-order.md (and stdout), under a line naming the code version and
// the run time.
func privateMABOrder(name, out string, cfg mabfig.Config) error {
	if cfg.BestLast {
		return usagef("%s: -order runs both orders; drop -best-last", name)
	}
	start := time.Now()
	rows, ran, err := mabfig.OrderTest(cfg)
	if err != nil {
		return err
	}
	took := time.Since(start)
	var b strings.Builder
	fmt.Fprintf(&b, "Order test of %s (dpb reproduce %s -order; code %s, %v): the regret at T with the best arm listed first and last; the policies of dpb/mab break ties at random, MT14's DP-UCB toward the lowest index.\n\n",
		name, name, codeVersion(), took.Round(time.Second))
	if err := mabfig.WriteOrderTable(&b, ran, rows); err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if err := createWith(filepath.Join(out, name+"-order.md"), func(w io.Writer) error {
		_, err := io.WriteString(w, b.String())
		return err
	}); err != nil {
		return err
	}
	_, err = io.WriteString(os.Stdout, b.String())
	return err
}
