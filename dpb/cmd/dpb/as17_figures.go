package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/as17fig"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/noise"
	dpbplot "github.com/dpbandits/dpbandits/dpb/plot"
)

func parseKind(s string) (as17.LossKind, error) {
	for _, k := range []as17.LossKind{as17.Stochastic, as17.WorstCase, as17.Switching} {
		if k.String() == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown loss kind %q (stochastic, worst-case, switching)", s)
}

// runAS17Table runs "dpb reproduce as17-table1|2": the T sweep (regret vs T
// per row, log–log with fitted slopes and bounds), the paired excess over the
// non-private learner vs T, and the ε sweep at one T. It writes
// <name>.{svg,png,csv,json}, <name>-excess.{svg,png} and <name>-eps.{svg,png,csv}.
func runAS17Table(name, out string, args []string, table int) error {
	fs := figureFlags(name)
	def, quick := as17fig.Preset(harness.ScaleDefault), as17fig.Preset(harness.ScaleQuick)
	n, minN, runs, workers, dim, epsN := new(int), new(int), new(int), new(int), new(int), new(int)
	countVar(fs, n, "n", def.MaxHorizon, 1, maxAS17Horizon, "largest horizon T")
	countVar(fs, minN, "minn", 256, 3, maxAS17Horizon, "smallest horizon T, at least 3 (horizons grow by 4×)")
	countVar(fs, runs, "runs", def.Reps, 1, maxRuns, "independent runs per cell")
	seed := new(uint64)
	seedVar(fs, seed, "seed", 1, "experiment seed (an exact integer)")
	countVar(fs, workers, "workers", 0, 0, maxWorkers, "goroutines, 0: GOMAXPROCS")
	short := fs.Bool("short", false, "small quick defaults (n=2^12, runs=6, epsn=2^11)")
	countVar(fs, dim, "dim", 4, 2, maxAS17Dim, "dimension N (experts, arms)")
	eps := fs.String("eps", "1,0.1", "ε values of the T sweep (non-private is added)")
	defaultOrVar(fs, epsN, "epsn", def.EpsHorizon, 3, maxAS17Horizon, "horizon of the ε sweep, 0: none")
	sweep := fs.String("epssweep", "0.03,0.1,0.3,1,3,10", "ε values of the ε sweep")
	kind := fs.String("kind", "stochastic", "loss sequence: stochastic, worst-case, switching")
	progress := new(bool)
	progressVar(fs, progress)
	var jobs jobFlags
	jobs.bind(fs)
	if err := parseFigure(fs, args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *short {
		if !set["n"] {
			*n = quick.MaxHorizon
		}
		if !set["runs"] {
			*runs = quick.Reps
		}
		if !set["epsn"] {
			*epsN = quick.EpsHorizon
		}
	}
	if *n < *minN {
		return usagef("reproduce %s: -n %d is below -minn %d (want 3 <= minn <= n)", name, *n, *minN)
	}
	epsT, err := parseFloatList("eps", *eps, minEpsilon, maxEpsilon)
	if err != nil {
		return err
	}
	epsS, err := parseFloatList("epssweep", *sweep, minEpsilon, maxEpsilon)
	if err != nil {
		return err
	}
	k, err := parseKind(*kind)
	if err != nil {
		return err
	}
	cfg := as17fig.TableConfig{
		Table: table, Dim: *dim, Kind: k, Horizons: harness.HorizonGrid(*minN, *n, 4), Epsilons: epsT,
		EpsHorizon: *epsN, SweepEpsilons: epsS, Reps: *runs, Seed: *seed, RunOptions: harness.RunOptions{Workers: *workers},
	}
	if *progress {
		cfg.Progress = os.Stderr
	}
	if err := ready(as17Memory(*workers, *dim, 0)); err != nil {
		return err
	}
	plan, err := jobs.plan(name)
	if err != nil {
		return err
	}
	cfg.Plan = plan.Plan
	res, err := as17fig.Table(cfg)
	if stop, err := plan.done(err); stop {
		return err
	}
	base := filepath.Join(out, name)
	cols := 2
	if table == 2 {
		cols = 3
	}
	tiles, err := dpbplot.AS17RegretTiles(res.T, cols)
	if err != nil {
		return err
	}
	if err := dpbplot.SaveTiled(tiles, dpbplot.TileWidth, dpbplot.TileHeight, base); err != nil {
		return err
	}
	tiles, err = dpbplot.AS17ExcessTiles(res.T, cols)
	if err != nil {
		return err
	}
	if err := dpbplot.SaveTiled(tiles, dpbplot.TileWidth, dpbplot.TileHeight, base+"-excess"); err != nil {
		return err
	}
	if len(res.Eps) > 0 {
		tiles, err = dpbplot.AS17EpsilonTiles(res.Eps, 0, cols)
		if err != nil {
			return err
		}
		if err := dpbplot.SaveTiled(tiles, dpbplot.TileWidth, dpbplot.TileHeight, base+"-eps"); err != nil {
			return err
		}
		if err := writeCSV(base+"-eps.csv", "T", res.Eps, true); err != nil {
			return err
		}
	}
	if err := writeCSV(base+".csv", "T", res.T, false); err != nil {
		return err
	}
	if err := writeMeta(base, harness.Meta{Name: name, Seed: *seed, Reps: *runs, Horizon: *n, Noise: noiseNames(noise.Simulated), Config: res}); err != nil {
		return err
	}
	fmt.Print(res.Markdown())
	for _, r := range res.Eps {
		c := r.ByInverseEpsilon(0)
		fe := harness.FitLogLog(c.X, c.Mean[1])
		fmt.Printf("%s, T=%d: slope of excess regret vs 1/ε = %.2f ± %.2f\n", r.Row, r.Horizons[0], fe.Slope, fe.SlopeSE)
	}
	return nil
}

// writeCSV writes every row's regret curves as series "row/ε" (the ε sweep's
// x is 1/ε when byEps).
func writeCSV(path, xName string, rs []*as17fig.Result, byEps bool) error {
	all := &harness.Curves{}
	for _, r := range rs {
		c := r.Regret
		if byEps {
			c = r.ByInverseEpsilon(0)
			xName = "inv_epsilon"
		}
		all.X = c.X
		all.Reps = c.Reps
		for s, nm := range c.Names {
			all.Names = append(all.Names, r.Row+"/"+nm)
			all.Mean = append(all.Mean, c.Mean[s])
			all.StdErr = append(all.StdErr, c.StdErr[s])
		}
	}
	return createWith(path, func(w io.Writer) error { return all.WriteCSV(w, xName) })
}
