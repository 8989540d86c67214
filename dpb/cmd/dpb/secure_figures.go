package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/internal/snap"
	dpbplot "github.com/dpbandits/dpbandits/dpb/plot"
	"github.com/dpbandits/dpbandits/dpb/ss18"
	"github.com/dpbandits/dpbandits/dpb/ss18fig"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// The regret of secure noise against simulated noise at SS18 Fig. 4's
// setting (ss18fig.SecureRegret).

// defineSecureRegret defines secure-regret's flags (figurePhases).
func defineSecureRegret(name string, fs *flag.FlagSet) func() (*figureRun, error) {
	var c ss18Common
	c.bind(fs)
	plain := fs.Bool("plain", false, "plain binary mechanism instead of the padded tree")
	algs := fs.String("algs", "", "comma-separated SS18 variants with a secure sampler (default: "+algNames(ss18fig.SecureRegretAlgs)+")")
	return func() (*figureRun, error) {
		cfg := ss18fig.SecureRegretConfig{Plain: *plain, Seed: c.seed, RunOptions: harness.RunOptions{Workers: c.workers, Progress: c.progressW()}}
		if *algs != "" {
			for _, s := range strings.Split(*algs, ",") {
				a, err := ss18.ParseAlg(strings.TrimSpace(s))
				if err != nil {
					return nil, usagef("reproduce %s: invalid value %q for flag -algs: %v", name, *algs, err)
				}
				cfg.Algs = append(cfg.Algs, a)
			}
		}
		switch {
		case c.short:
			cfg.Horizon, cfg.Reps = 5000, 3
		default: // -paper too: Fig. 4's n = 10⁶ and 10 runs are this experiment's full size
			cfg.Horizon, cfg.Reps = 1000000, 10
		}
		cfg.Horizon, cfg.Reps = orPositive(c.n, cfg.Horizon), orPositive(c.runs, cfg.Reps)
		if cfg.Reps < 2 {
			return nil, usagef("reproduce %s: -runs %d: the paired interval needs at least 2 runs", name, cfg.Reps)
		}
		var res *ss18fig.SecureRegretResult
		return &figureRun{jobs: &c.jobs, memory: memEstimate{runsPart(c.workers, "", 1)},
			experiment: func(p *harness.Plan) (err error) {
				cfg.Plan = p
				res, err = ss18fig.SecureRegret(cfg)
				return err
			},
			write: func(base string, wall float64) error { return writeSecureRegret(name, base, res, wall) },
		}, nil
	}
}

// writeSecureRegret writes secure-regret's plot, its regret and CPU tables
// and its JSON.
func writeSecureRegret(name, base string, res *ss18fig.SecureRegretResult, wall float64) error {
	cfg := res.Config
	// The regrets (a function of the seed) and the CPU times (measurements)
	// go to separate tables.
	rows := [][]string{{"gap", "alg", "regret_simulated", "se_simulated", "regret_secure", "se_secure",
		"diff_pct", "ci95_pct", "paired_sd", "paired_sd_pct", "runs_for_2pct", "runs"}}
	cpu := [][]string{{"gap", "alg", "cpu_us_per_round_simulated", "cpu_us_per_round_secure", "ratio", "runs"}}
	for _, r := range res.Rows {
		g, a, runs := fmtF(r.Gap), r.Alg.String(), strconv.Itoa(cfg.Reps)
		rows = append(rows, []string{g, a, fmtF(r.Simulated), fmtF(r.SimulatedSE), fmtF(r.Secure), fmtF(r.SecureSE),
			fmtF(r.DiffPct), fmtF(r.CIPct), fmtF(r.PairedSD), fmtF(r.PairedSDPct), strconv.Itoa(r.RunsFor2Pct), runs})
		cpu = append(cpu, []string{g, a, fmtF(r.CPU.SimulatedMicros), fmtF(r.CPU.SecureMicros), fmtF(r.CPU.Ratio), runs})
		fmt.Fprintf(os.Stderr, "  Δ=%-4g %-16s simulated %9.0f  secure %9.0f  diff %+6.2f %% ± %5.2f %%  paired s.d. %5.2f %%  runs for ±2 %%: %6d  CPU µs/round %6.2f vs %6.2f (×%.2f)\n",
			r.Gap, a, r.Simulated, r.Secure, r.DiffPct, r.CIPct, r.PairedSDPct, r.RunsFor2Pct, r.CPU.SimulatedMicros, r.CPU.SecureMicros, r.CPU.Ratio)
	}
	p, err := dpbplot.SecureRegret(res)
	if err != nil {
		return err
	}
	if err := dpbplot.SaveGrid([][]*plot.Plot{{p}}, base, 7*vg.Inch, 4.5*vg.Inch); err != nil {
		return err
	}
	if err := writeTable(base+".csv", rows); err != nil {
		return err
	}
	if err := writeTable(base+"-cpu.csv", cpu); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%s: n = %d, %d paired runs × %d gaps × %d variants, wall %.1fs\n", name, cfg.Horizon, cfg.Reps, len(cfg.Gaps), len(cfg.Algs), wall)
	release := "padded"
	if cfg.Plain {
		release = "plain"
	}
	return writeMeta(base, harness.Meta{Name: name, Seed: cfg.Seed, Reps: cfg.Reps, Horizon: cfg.Horizon,
		Noise: noiseNames(res.Modes[:]...), Config: map[string]any{
			"experiment": cfg, "result": res, "wall_seconds": wall, "release_mode": release,
			"rewards": "rademacher (L̃² = 2), α = 1/n", "stream_version": snap.StreamVersion,
			"cpu_note": "thread CPU time per round (environment draw, Choose, Update), both modes interleaved in chunks of rounds in each job: a measurement, not a function of the seed",
		}})
}

// algNames joins the variants' names with commas.
func algNames(algs []ss18.Alg) string {
	s := make([]string, len(algs))
	for i, a := range algs {
		s[i] = a.String()
	}
	return strings.Join(s, ",")
}
