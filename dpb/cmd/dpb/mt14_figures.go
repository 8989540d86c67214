package main

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/dpbandits/dpbandits/dpb/data"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/mt14fig"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ope"
	dpbplot "github.com/dpbandits/dpbandits/dpb/plot"
)

// mt14Flags are the flags every MT14 figure accepts (the group's common ones
// plus its own).
type mt14Flags struct {
	fs                             *flag.FlagSet
	n, runs, workers               *int
	seed                           *uint64
	short                          *bool
	eps, delays, dataDir, campaign *string
	alpha                          *float64
	delay                          *int
	progress                       *bool
	jobs                           jobFlags
}

func newMT14Flags(name string) *mt14Flags { return bindMT14Flags(figureFlags(name)) }

// bindMT14Flags defines the MT14 figures' flags on fs.
func bindMT14Flags(fs *flag.FlagSet) *mt14Flags {
	fl := &mt14Flags{
		fs:       fs,
		n:        new(int),
		runs:     new(int),
		workers:  new(int),
		delay:    new(int),
		progress: new(bool),
		seed:     new(uint64),
		short:    fs.Bool("short", false, "small quick run"),
		eps:      fs.String("eps", "", "comma-separated ε values (default: the figure's)"),
		delays:   fs.String("delays", "0,100,1000", "comma-separated delays τ (fig2)"),
		dataDir:  fs.String("data", data.Dir(), "folder holding obd/ and uci/ (fig2; dpb data fetch puts them in the default, see dpb data -h)"),
		campaign: fs.String("campaign", "men", "OBD campaign: men or women (fig2 obd)"),
		alpha:    floatVar(fs, "alpha", 1, "exploration α of contextual UCB (fig2)"),
	}
	defaultOrVar(fs, fl.n, "n", 0, 2, maxHorizon, "horizon T (fig1) or events kept from the log (fig2), 0: the default (fig2: all)")
	seedVar(fs, fl.seed, "seed", 1, "experiment seed (an exact integer)")
	countVar(fs, fl.runs, "runs", 0, 0, maxRuns, "repetitions, 0: the figure's default")
	countVar(fs, fl.workers, "workers", 0, 0, maxWorkers, "goroutines, 0: GOMAXPROCS")
	countVar(fs, fl.delay, "delay", 0, 0, maxHorizon, "feedback delay τ for every policy (fig1)")
	progressVar(fs, fl.progress)
	fl.jobs.bind(fs)
	return fl
}

// progressW is where the progress bar goes (nil: none).
func (fl *mt14Flags) progressW() io.Writer {
	if *fl.progress {
		return os.Stderr
	}
	return nil
}

// floats parses the list flag -name ("" is nil): each entry a finite number
// in [lo, hi].
func floats(name, s string, lo, hi float64) ([]float64, error) {
	if s == "" {
		return nil, nil
	}
	return parseFloatList(name, s, lo, hi)
}

// defineMT14Fig1 defines the flags of MT14 Fig. 1 with k arms
// (figurePhases).
func defineMT14Fig1(k int) func(name string, fs *flag.FlagSet) func() (*figureRun, error) {
	return func(name string, fs *flag.FlagSet) func() (*figureRun, error) {
		fl := bindMT14Flags(fs)
		return func() (*figureRun, error) {
			eps, err := floats("eps", *fl.eps, minEpsilon, maxEpsilon)
			if err != nil {
				return nil, err
			}
			cfg := mt14fig.Fig1Config{Arms: k, Seed: *fl.seed, Epsilons: eps, RunOptions: harness.RunOptions{Workers: *fl.workers, Progress: fl.progressW()},
				NoRelaxation: []float64{0.1, 1}, Delay: *fl.delay}
			cfg.ApplyScale(harness.ScaleOf(*fl.short, false))
			if *fl.n > 0 {
				cfg.Horizon = *fl.n
			}
			if *fl.runs > 0 {
				cfg.Reps = *fl.runs
			}
			var res *mt14fig.Fig1Result
			// A delayed policy buffers each round's observation until the next
			// synchronisation: min(τ, T) of them, 64 bytes each, doubled by append.
			return &figureRun{jobs: &fl.jobs,
				memory: memEstimate{runsPart(*fl.workers, "", 1), {"each worker's delay buffer (min(-delay, -n) observations)", "-delay, -n, -workers",
					workersOf(*fl.workers) * 128 * float64(min(*fl.delay, cfg.Horizon))}},
				experiment: func(p *harness.Plan) (err error) {
					cfg.Plan = p
					res, err = mt14fig.RunFig1Finals(cfg)
					return err
				},
				write: func(base string, wall float64) error { return writeMT14Fig1(name, base, cfg, res, wall) },
			}, nil
		}
	}
}

// writeMT14Fig1 writes MT14 Fig. 1, its curves, the final regret of each
// run (writeFinals) and its JSON (with the defaults the run resolved).
func writeMT14Fig1(name, base string, cfg mt14fig.Fig1Config, res *mt14fig.Fig1Result, wall float64) error {
	k, c := cfg.Arms, res.Curves
	p, err := dpbplot.Curves(c, dpbplot.CurveOptions{
		Title:  fmt.Sprintf("MT14 Fig. 1: k=%d, means 0.9 / 0.4 (Δ=0.5); T=%d, %d runs (s.e. in the csv)", k, cfg.Horizon, cfg.Reps),
		XLabel: "round t", YLabel: "pseudo-regret", LogY: true, LegendAbove: true,
	})
	if err != nil {
		return err
	}
	dpbplot.RoomForLastXTick(p, 0.08)
	if err := dpbplot.Save(p, base); err != nil {
		return err
	}
	if err := createWith(base+".csv", func(w io.Writer) error { return c.WriteCSV(w, "round") }); err != nil {
		return err
	}
	T := int(c.X[len(c.X)-1])
	fin := dpbplot.FinalsPanel{Title: fmt.Sprintf("MT14 Fig. 1, k=%d, means 0.9 / 0.4 (Δ=0.5): final regret at T=%s, %d runs", k, dpbplot.FormatCount(T), c.Reps),
		Names: c.Names, Finals: res.Finals}
	if err := writeFinals(base, []string{fmt.Sprintf("k=%d", k)}, []dpbplot.FinalsPanel{fin}, 1); err != nil {
		return err
	}
	cfg.Progress = nil
	if cfg, err = cfg.Resolved(); err != nil { // the JSON records the defaults used
		return err
	}
	took := time.Duration(wall * float64(time.Second))
	fmt.Fprintf(os.Stderr, "%s: T=%d runs=%d in %v\n", name, cfg.Horizon, cfg.Reps, took.Round(time.Millisecond))
	return writeMeta(base, harness.Meta{Name: name, Seed: cfg.Seed, Reps: cfg.Reps, Horizon: cfg.Horizon, Noise: noiseNames(noise.Simulated),
		Config: map[string]any{"fig1": cfg, "gamma_relaxation": mt14.Gamma(k, cfg.Horizon, 1, 1/float64(cfg.Horizon)), "seconds": wall}})
}

// MT14Fig2Data loads the log of one Fig. 2 panel: "shuttle" (a fresh
// simulated uniform logger and row order per repetition) or "obd" (the
// real log, the same for every repetition).
func mt14Fig2Log(which, dataDir, campaign string, maxEvents int, seed uint64) (func(rep int) (ope.Log, error), string, error) {
	switch which {
	case "shuttle":
		path, err := data.Locate(dataDir, "uci/shuttle.csv")
		if err != nil {
			return nil, "", err
		}
		ds, err := data.LoadShuttle(path)
		if err != nil {
			return nil, "", err
		}
		return mt14fig.SupervisedLogs(ds, data.SupervisedLogConfig{Dim: 6, MaxEvents: maxEvents}, seed), path, nil
	case "obd":
		if campaign != "men" && campaign != "women" {
			return nil, "", usagef("reproduce: invalid value %q for flag -campaign: want men or women", campaign)
		}
		path, err := data.Locate(dataDir, "obd/random/"+campaign+"/"+campaign+".csv")
		if err != nil {
			return nil, "", err
		}
		l, err := data.LoadOBD(path)
		if err != nil {
			return nil, "", err
		}
		return func(int) (ope.Log, error) { return l, nil }, path, nil
	}
	return nil, "", fmt.Errorf("unknown data set %q", which)
}

func mt14Fig2(name, out, which string, args []string) error {
	fl := newMT14Flags(name)
	if err := parseFigure(fl.fs, args); err != nil {
		return err
	}
	in, err := fig2Flags(name, which, fl)
	if err != nil {
		return err
	}
	if err := ready(append(memEstimate{runsPart(*fl.workers, "", 1)}, dataMemory(*fl.dataDir, in.rel, *fl.workers, slices.Max(in.delays))...)); err != nil {
		return err
	}
	newLog, path, err := mt14Fig2Log(which, *fl.dataDir, *fl.campaign, in.maxEvents, *fl.seed)
	if err != nil {
		return err
	}
	cfg := mt14fig.Fig2Config{NewLog: newLog, Epsilons: in.eps, Delays: in.delays, Reps: in.reps, Seed: *fl.seed,
		Alpha: *fl.alpha, Disjoint: which == "shuttle", RunOptions: harness.RunOptions{Workers: *fl.workers, Progress: fl.progressW()},
		Mechanisms: []mt14.ContextMechanism{mt14.ContextEntryTrees, mt14.ContextSS18Tree}}
	plan, err := fl.jobs.plan(name)
	if err != nil {
		return err
	}
	if plan.Store != nil {
		sum, err := fileSHA256(path)
		if err != nil {
			return err
		}
		cfg.Plan = plan.Plan
		cfg.DataKey = fmt.Sprintf("%s sha256=%s events=%d campaign=%s", which, sum, in.maxEvents, *fl.campaign)
	}
	if plan.Estimate {
		cfg.Plan = plan.Plan
	}
	start := time.Now()
	res, err := mt14fig.RunFig2(cfg)
	if stop, err := plan.done(err); stop {
		return err
	}
	return writeMT14Fig2(name, filepath.Join(out, name), which, res, cfg, path, time.Since(start))
}

// fig2Inputs are MT14 Fig. 2's checked flags.
type fig2Inputs struct {
	eps             []float64
	delays          []int
	reps, maxEvents int
	rel             string // the data file under the data directory
}

// fig2Flags checks MT14 Fig. 2's flags on data set which (shuttle or obd)
// and that its data file is there.
func fig2Flags(name, which string, fl *mt14Flags) (fig2Inputs, error) {
	var in fig2Inputs
	var err error
	if in.eps, err = floats("eps", *fl.eps, minEpsilon, maxEpsilon); err != nil {
		return in, err
	}
	if in.delays, err = parseCountList("delays", *fl.delays, 0, maxHorizon); err != nil {
		return in, err
	}
	if which == "obd" && *fl.n != 0 {
		// The OBD log is replayed whole (its rows are one fixed log); an
		// ignored -n would still have keyed the store.
		return in, usagef("reproduce %s: -n %d: the OBD log is replayed whole; -n (events kept) is for mt14-fig2-shuttle", name, *fl.n)
	}
	scale := harness.ScaleOf(*fl.short, false)
	var preset mt14fig.Fig2Config
	preset.ApplyScale(scale)
	in.reps, in.maxEvents = preset.Reps, *fl.n
	if which == "shuttle" && in.maxEvents == 0 {
		in.maxEvents = mt14fig.Fig2ShuttleRows(scale)
	}
	if *fl.runs > 0 {
		in.reps = *fl.runs
	}
	in.rel = "uci/shuttle.csv"
	if which == "obd" {
		in.rel = "obd/random/" + *fl.campaign + "/" + *fl.campaign + ".csv"
	}
	if _, err := data.Locate(*fl.dataDir, in.rel); err != nil && *fl.campaign != "" {
		if which == "obd" && *fl.campaign != "men" && *fl.campaign != "women" {
			return in, usagef("reproduce %s: invalid value %q for flag -campaign: want men or women", name, *fl.campaign)
		}
		return in, err
	}
	return in, nil
}

// writeMT14Fig2 writes MT14 Fig. 2 on data set which, its table and its
// JSON; a series without a matched event is an error (nothing to plot).
func writeMT14Fig2(name, base, which string, res *mt14fig.Fig2Result, cfg mt14fig.Fig2Config, path string, took time.Duration) error {
	reps := cfg.Reps
	for _, r := range res.Rows {
		if math.IsNaN(r.NormCTR) || math.IsInf(r.NormCTR, 0) || math.IsNaN(r.NormSE) || math.IsInf(r.NormSE, 0) {
			// No matched event (a tiny -n): nothing to plot for the series.
			return fmt.Errorf("reproduce %s: series %s has normalised CTR %v ± %v (%.1f matched events on average, of %d): too few events; raise -n", name, r.Name, r.NormCTR, r.NormSE, r.Matched, res.Events)
		}
	}
	model := "shared model"
	if cfg.Disjoint {
		model = "per-class models"
	}
	spread := "±2 s.e."
	if which == "obd" {
		spread = "±2 s.e. of the noise (fixed log)"
	}
	title := fmt.Sprintf("MT14 Fig. 2 on %s: d=%d, K=%d, %s, %d log events, %d runs, %s", which, res.Dim, res.Arms, model, res.Events, reps, spread)
	p, err := dpbplot.MT14Fig2(res, title, 2)
	if err != nil {
		return err
	}
	if err := dpbplot.Save(p, base); err != nil {
		return err
	}
	rows := [][]string{{"series", "mechanism", "epsilon", "delay", "norm_ctr", "norm_se", "ctr", "ctr_se", "matched_mean", "reps", "rep0_ctr", "rep0_wilson_lo", "rep0_wilson_hi", "rep0_matched"}}
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	for _, r := range res.Rows {
		rows = append(rows, []string{r.Name, r.Mech, g(r.Epsilon), strconv.Itoa(r.Delay), g(r.NormCTR), g(r.NormSE), g(r.CTR), g(r.CTRSE), g(r.Matched), strconv.Itoa(reps),
			g(r.First.CTR), g(r.First.Lo), g(r.First.Hi), strconv.Itoa(r.First.Matched)})
	}
	if err := writeTable(base+".csv", rows); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%s: uniform policy %v; %d runs in %v\n", name, res.Random, reps, took.Round(time.Millisecond))
	for _, r := range res.Rows {
		fmt.Fprintf(os.Stderr, "  τ=%-5d %-24s norm CTR %.3f ± %.3f  (rep 0: %v)\n", r.Delay, r.Name, r.NormCTR, r.NormSE, r.First)
	}
	cfg.NewLog, cfg.Progress = nil, nil
	return writeMeta(base, harness.Meta{Name: name, Seed: cfg.Seed, Reps: reps, Horizon: res.Events, Noise: noiseNames(noise.Simulated),
		Config: map[string]any{"fig2": cfg, "data": path, "dim": res.Dim, "arms": res.Arms, "random": res.Random, "rows": res.Rows, "seconds": took.Seconds()}})
}

// fileSHA256 returns the hex SHA-256 of the file at path (a data set's
// identity in the job store key).
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
