package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/dpbandits/dpbandits/dpb/data"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/mt14fig"
	"github.com/dpbandits/dpbandits/dpb/noise"
	dpbplot "github.com/dpbandits/dpbandits/dpb/plot"
)

func mt14Fig2BTS(name, out string, args []string) error {
	fl := newMT14Flags(name)
	pmin := floatVar(fl.fs, "pmin", 0, "rejection threshold PMin on the BTS log, 0 (1/K) or in [10/events, 1]: about PMin·events are accepted")
	if err := parseFigure(fl.fs, args); err != nil {
		return err
	}
	eps, reps, err := btsFlags(name, fl, *pmin)
	if err != nil {
		return err
	}
	c := *fl.campaign
	logs, err := loadBTSLogs(name, fl, c, *pmin)
	if err != nil {
		return err
	}
	cfg := mt14fig.Fig2BTSConfig{Logged: logs.logged, Uniform: logs.uniform, Epsilons: eps, Alpha: *fl.alpha, PMin: *pmin,
		Reps: reps, Seed: *fl.seed, RunOptions: harness.RunOptions{Workers: *fl.workers, Progress: fl.progressW()}}
	plan, err := fl.jobs.plan(name)
	if err != nil {
		return err
	}
	cfg.Plan = plan.Plan
	if plan.Store != nil {
		if cfg.DataKey, err = logs.dataKey(c); err != nil {
			return err
		}
	}
	start := time.Now()
	res, err := mt14fig.RunFig2BTS(cfg)
	if stop, err := plan.done(err); stop {
		return err
	}
	return writeMT14Fig2BTS(name, filepath.Join(out, name), res, cfg, logs, c, time.Since(start))
}

// btsFlags checks mt14-fig2-obd-bts's flags and returns its ε list and
// number of runs.
func btsFlags(name string, fl *mt14Flags, pmin float64) ([]float64, int, error) {
	if err := finiteFlags(fl.fs, map[string]float64{"pmin": pmin, "alpha": *fl.alpha}); err != nil {
		return nil, 0, err
	}
	if !(pmin >= 0 && pmin <= 1) {
		return nil, 0, usagef("reproduce %s: invalid value %v for flag -pmin: want 0 (1/K) or a threshold in (0, 1]", name, pmin)
	}
	if *fl.n != 0 {
		return nil, 0, usagef("reproduce %s: -n %d: the OBD logs are replayed whole; -n (events kept) is for mt14-fig2-shuttle", name, *fl.n)
	}
	eps, err := floats("eps", *fl.eps, minEpsilon, maxEpsilon)
	if err != nil {
		return nil, 0, err
	}
	var preset mt14fig.Fig2BTSConfig
	preset.ApplyScale(harness.ScaleOf(*fl.short, false))
	reps := preset.Reps
	if *fl.runs > 0 {
		reps = *fl.runs
	}
	if c := *fl.campaign; c != "men" && c != "women" {
		return nil, 0, usagef("reproduce %s: invalid value %q for flag -campaign: want men or women", name, c)
	}
	return eps, reps, nil
}

// btsLogs are the two OBD logs of campaign c the figure reads: the
// Bernoulli-TS log and the uniform one.
type btsLogs struct {
	btsPath, uniPath string
	logged, uniform  *data.OBDLog
}

// loadBTSLogs locates and loads the logs of campaign c (after ready on
// their memory) and checks -pmin against the BTS log's length.
func loadBTSLogs(name string, fl *mt14Flags, c string, pmin float64) (*btsLogs, error) {
	var l btsLogs
	var err error
	if l.btsPath, err = data.Locate(*fl.dataDir, "obd/bts/"+c+"/"+c+".csv"); err != nil {
		return nil, err
	}
	if l.uniPath, err = data.Locate(*fl.dataDir, "obd/random/"+c+"/"+c+".csv"); err != nil {
		return nil, err
	}
	if err := ready(append(dataMemory(*fl.dataDir, "obd/bts/"+c+"/"+c+".csv", *fl.workers, 0), dataMemory(*fl.dataDir, "obd/random/"+c+"/"+c+".csv", 0, 0)...)); err != nil {
		return nil, err
	}
	if l.logged, err = data.LoadOBDWith(l.btsPath, data.OBDOptions{AnyPropensity: true}); err != nil {
		return nil, err
	}
	if l.uniform, err = data.LoadOBD(l.uniPath); err != nil {
		return nil, err
	}
	if least := 10 / float64(l.logged.Len()); pmin != 0 && pmin < least {
		// The rejection sampler accepts about PMin·events events (the sum of
		// 1{match}/p over the log has mean events): fewer than 10 on average
		// leaves the estimate resting on nothing (NaN with none accepted).
		return nil, usagef("reproduce %s: invalid value %v for flag -pmin: the rejection replay accepts about PMin × %d events = %.3g; want 0 (1/K) or at least 10/%d = %.3g", name, pmin, l.logged.Len(), pmin*float64(l.logged.Len()), l.logged.Len(), least)
	}
	return &l, nil
}

// dataKey names the two logs by their SHA-256s in the job store's keys.
func (l *btsLogs) dataKey(c string) (string, error) {
	b, err := fileSHA256(l.btsPath)
	if err != nil {
		return "", err
	}
	u, err := fileSHA256(l.uniPath)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("obd-bts sha256=%s uniform sha256=%s campaign=%s", b, u, c), nil
}

// writeMT14Fig2BTS writes the figure, its table of every estimate and its
// JSON.
func writeMT14Fig2BTS(name, base string, res *mt14fig.Fig2BTSResult, cfg mt14fig.Fig2BTSConfig, logs *btsLogs, c string, took time.Duration) error {
	reps := cfg.Reps
	title := fmt.Sprintf("MT14 Fig. 2 on OBD %s, Bernoulli-TS log: d=%d, K=%d, %d runs (means; whiskers: mean 95%% interval)", c, res.Dim, res.Arms, reps)
	p, err := dpbplot.MT14Fig2BTS(res, title)
	if err != nil {
		return err
	}
	if err := dpbplot.SaveSized(p, base, 10*72, 4.5*72); err != nil {
		return err
	}
	if err := writeTable(base+".csv", btsRows(res, reps)); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%s: %d runs in %v\n%s", name, reps, took.Round(time.Millisecond), res.Markdown())
	cfg.Logged, cfg.Uniform, cfg.Progress = nil, nil, nil
	return writeMeta(base, harness.Meta{Name: name, Seed: cfg.Seed, Reps: reps, Horizon: res.Events, Noise: noiseNames(noise.Simulated),
		Config: map[string]any{"fig2_bts": cfg, "data": logs.btsPath, "uniform_data": logs.uniPath, "result": res, "seconds": took.Seconds()}})
}

// btsRows is the figure's table: every series' three estimates, the
// uniform policy's and the logger's values.
func btsRows(res *mt14fig.Fig2BTSResult, reps int) [][]string {
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	rows := [][]string{{"series", "mechanism", "epsilon", "estimator", "log", "value", "se", "lo", "hi", "events", "ess", "clipped", "reps"}}
	for _, r := range res.Rows {
		for _, e := range []struct {
			est, log string
			v        mt14fig.OPEValue
			clipped  float64
		}{{"replay", "uniform", r.Replay, 0}, {"rejection", "bts", r.Rejection, r.Clipped}, {"dr", "bts", r.DR, 0}} {
			rows = append(rows, []string{r.Name, r.Mech, g(r.Epsilon), e.est, e.log, g(e.v.Value), g(e.v.SE), g(e.v.Lo), g(e.v.Hi), g(e.v.Events), g(e.v.ESS), g(e.clipped), strconv.Itoa(reps)})
		}
	}
	for _, e := range res.UniformPolicy {
		rows = append(rows, []string{"uniform policy", "", "0", e.Estimator.String(), "bts", g(e.Value), g(e.SE), g(e.Lo), g(e.Hi), strconv.Itoa(e.Events), g(e.ESS), "0", "1"})
	}
	u := res.UniformOnUniform
	rows = append(rows, []string{"uniform policy", "", "0", "on-policy", "uniform", g(u.CTR), "", g(u.Lo), g(u.Hi), strconv.Itoa(u.Events), "", "0", "1"})
	lo := res.Logger
	return append(rows, []string{"BTS logger", "", "0", "on-policy", "bts", g(lo.CTR), "", g(lo.Lo), g(lo.Hi), strconv.Itoa(lo.Events), "", "0", "1"})
}
