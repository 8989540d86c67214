package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/as17fig"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/noise"
	dpbplot "github.com/dpbandits/dpbandits/dpb/plot"
	"gonum.org/v1/plot"
)

func parseKind(s string) (as17.LossKind, error) {
	for _, k := range []as17.LossKind{as17.Stochastic, as17.WorstCase, as17.Switching} {
		if k.String() == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown loss kind %q (stochastic, worst-case, switching)", s)
}

// defineAS17Table defines the flags of "dpb reproduce as17-table1|2"
// (figurePhases): the T sweep (regret vs T per row, log–log with fitted
// slopes and bounds), the paired excess over the non-private learner vs T,
// and the ε sweep at one T. It writes <name>.{svg,png,csv,json},
// <name>-excess.{svg,png} and <name>-eps.{svg,png,csv}.
func defineAS17Table(table int) func(name string, fs *flag.FlagSet) func() (*figureRun, error) {
	return func(name string, fs *flag.FlagSet) func() (*figureRun, error) {
		var f as17TableFlags
		f.bind(fs)
		return func() (*figureRun, error) {
			cfg, err := f.config(name, fs, table)
			if err != nil {
				return nil, err
			}
			var res *as17fig.TableResult
			return &figureRun{jobs: &f.jobs, memory: as17Memory(*f.workers, *f.dim, 0),
				experiment: func(p *harness.Plan) (err error) {
					cfg.Plan = p
					res, err = as17fig.Table(cfg)
					return err
				},
				write: func(base string, _ float64) error {
					return writeAS17Table(name, base, res, table, *f.seed, *f.runs, *f.n)
				},
			}, nil
		}
	}
}

// as17TableFlags are the flags of the AS17 tables.
type as17TableFlags struct {
	n, minN, runs, workers, dim, epsN *int
	seed                              *uint64
	short, progress                   *bool
	eps, sweep, kind                  *string
	jobs                              jobFlags
}

func (f *as17TableFlags) bind(fs *flag.FlagSet) {
	def := as17fig.Preset(harness.ScaleDefault)
	f.n, f.minN, f.runs, f.workers, f.dim, f.epsN = new(int), new(int), new(int), new(int), new(int), new(int)
	countVar(fs, f.n, "n", def.MaxHorizon, 1, maxAS17Horizon, "largest horizon T")
	countVar(fs, f.minN, "minn", 256, 3, maxAS17Horizon, "smallest horizon T, at least 3 (horizons grow by 4×)")
	countVar(fs, f.runs, "runs", def.Reps, 1, maxRuns, "independent runs per cell")
	f.seed = new(uint64)
	seedVar(fs, f.seed, "seed", 1, "experiment seed (an exact integer)")
	countVar(fs, f.workers, "workers", 0, 0, maxWorkers, "goroutines, 0: GOMAXPROCS")
	f.short = fs.Bool("short", false, "small quick defaults (n=2^12, runs=6, epsn=2^11)")
	countVar(fs, f.dim, "dim", 4, 2, maxAS17Dim, "dimension N (experts, arms)")
	f.eps = fs.String("eps", "1,0.1", "ε values of the T sweep (non-private is added)")
	defaultOrVar(fs, f.epsN, "epsn", def.EpsHorizon, 3, maxAS17Horizon, "horizon of the ε sweep, 0: none")
	f.sweep = fs.String("epssweep", "0.03,0.1,0.3,1,3,10", "ε values of the ε sweep")
	f.kind = fs.String("kind", "stochastic", "loss sequence: stochastic, worst-case, switching")
	f.progress = new(bool)
	progressVar(fs, f.progress)
	f.jobs.bind(fs)
}

// config applies -short to the flags not set and checks them into the
// table's configuration.
func (f *as17TableFlags) config(name string, fs *flag.FlagSet, table int) (as17fig.TableConfig, error) {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if quick := as17fig.Preset(harness.ScaleQuick); *f.short {
		if !set["n"] {
			*f.n = quick.MaxHorizon
		}
		if !set["runs"] {
			*f.runs = quick.Reps
		}
		if !set["epsn"] {
			*f.epsN = quick.EpsHorizon
		}
	}
	if *f.n < *f.minN {
		return as17fig.TableConfig{}, usagef("reproduce %s: -n %d is below -minn %d (want 3 <= minn <= n)", name, *f.n, *f.minN)
	}
	epsT, err := parseFloatList("eps", *f.eps, minEpsilon, maxEpsilon)
	if err != nil {
		return as17fig.TableConfig{}, err
	}
	epsS, err := parseFloatList("epssweep", *f.sweep, minEpsilon, maxEpsilon)
	if err != nil {
		return as17fig.TableConfig{}, err
	}
	k, err := parseKind(*f.kind)
	if err != nil {
		return as17fig.TableConfig{}, err
	}
	cfg := as17fig.TableConfig{
		Table: table, Dim: *f.dim, Kind: k, Horizons: harness.HorizonGrid(*f.minN, *f.n, 4), Epsilons: epsT,
		EpsHorizon: *f.epsN, SweepEpsilons: epsS, Reps: *f.runs, Seed: *f.seed, RunOptions: harness.RunOptions{Workers: *f.workers},
	}
	if *f.progress {
		cfg.Progress = os.Stderr
	}
	return cfg, nil
}

// writeAS17Table writes the table's tiles (regret, excess, ε sweep), CSVs
// and JSON, and prints its Markdown table and the ε sweep's slopes.
func writeAS17Table(name, base string, res *as17fig.TableResult, table int, seed uint64, runs, n int) error {
	cols := 2
	if table == 2 {
		cols = 3
	}
	if err := saveAS17Tiles(base, dpbplot.AS17RegretTiles, res.T, cols); err != nil {
		return err
	}
	if err := saveAS17Tiles(base+"-excess", dpbplot.AS17ExcessTiles, res.T, cols); err != nil {
		return err
	}
	if len(res.Eps) > 0 {
		epsTiles := func(rs []*as17fig.Result, cols int) ([][]*plot.Plot, error) {
			return dpbplot.AS17EpsilonTiles(rs, 0, cols)
		}
		if err := saveAS17Tiles(base+"-eps", epsTiles, res.Eps, cols); err != nil {
			return err
		}
		if err := writeCSV(base+"-eps.csv", "T", res.Eps, true); err != nil {
			return err
		}
	}
	if err := writeCSV(base+".csv", "T", res.T, false); err != nil {
		return err
	}
	if err := writeMeta(base, harness.Meta{Name: name, Seed: seed, Reps: runs, Horizon: n, Noise: noiseNames(noise.Simulated), Config: res}); err != nil {
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

// saveAS17Tiles draws rs' tiles with tiles and saves them at base.
func saveAS17Tiles(base string, tiles func([]*as17fig.Result, int) ([][]*plot.Plot, error), rs []*as17fig.Result, cols int) error {
	ps, err := tiles(rs, cols)
	if err != nil {
		return err
	}
	return dpbplot.SaveTiled(ps, dpbplot.TileWidth, dpbplot.TileHeight, base)
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
