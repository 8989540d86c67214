package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/dpbandits/dpbandits/dpb/check"
	"github.com/dpbandits/dpbandits/dpb/harness"
)

func init() {
	register("check", "run a paper's proof checks and print the verdicts (dpb check ss18|mt14|as17|all)", func(args []string) error {
		return runCheck(os.Stdout, args)
	})
}

// checkPapers lists the papers "dpb check all" runs, in order.
var checkPapers = []string{"ss18", "mt14", "as17"}

// checkLeast are the smallest -reps and -trials other than 0 the MT14 and
// AS17 suites accept (check.MT14Config and check.AS17Config validate them).
var checkLeast = map[string]struct{ reps, trials int }{"mt14": {2, 10}, "as17": {2, 100}}

// The checks runCheck calls. The command's tests replace them to test its
// wiring (flags into configs, shards, output formats, exit status) in
// milliseconds; dpb/check's own tests run the checks themselves.
var (
	checkSS18       = check.SS18
	checkSS18Trees  = check.SS18Trees
	checkSS18Scaled = check.SS18Scaled
	checkSS18Prop4  = check.SS18Prop4
	checkMinEig     = check.MinEigCoverage
	checkMT14       = check.MT14
	checkAS17       = check.AS17
)

func runCheck(w io.Writer, args []string) error {
	fs := newFlags("check", "ss18|mt14|as17|all [flags]", "Runs the proof checks of a paper (or all three) and prints the verdict table; exits 1 on any CHECK FAILED.")
	asJSON := fs.Bool("json", false, "print the verdicts as JSON")
	short := fs.Bool("short", false, "small, quick run (seconds)")
	seed := new(uint64)
	seedVar(fs, seed, "seed", 1, "random seed (an exact integer)")
	d, n, reps, trials, workers := new(int), new(int), new(int), new(int), new(int)
	defaultOrVar(fs, d, "d", 0, 2, maxCheckDim, "ss18: dimension, 0: 5")
	defaultOrVar(fs, n, "n", 0, 2, maxCheckN, "ss18: horizon of the tree checks, 0: 1024 (short 128)")
	countVar(fs, reps, "reps", 0, 0, maxCheckReps, "ss18: runs of each tree, 0: 100 (short 20); mt14, as17: runs behind each regret mean, 0: 20 / 10 (short 6 / 4)")
	countVar(fs, trials, "trials", 0, 0, maxCheckTrials, "ss18: draws per Monte-Carlo check, 0: 20000 (short 2000); mt14, as17: trees of the counter and noise-law checks")
	countVar(fs, workers, "workers", 0, 0, maxWorkers, "worker goroutines, 0: GOMAXPROCS")
	policyN := new(int)
	defaultOrVar(fs, policyN, "policyn", 0, 2, maxCheckN, "ss18: horizon of the Proposition 4 (confidence-set) checks, which run Algorithm 1, 0: 2000 (short 300)")
	trees := fs.Bool("trees", false, "ss18: only the per-round checks of Props. 9 and 11 on the paper's trees (printed k and σ, plain and padded), the part that grows with n; needed above n = 65536")
	mineig := fs.Bool("mineig", false, "ss18: only the coverage checks of the RadiusMinEig variants at Fig. 4's setting (d = 5, K = 25, gaps 0 and 0.1), each playing its own radius; -policyn sets n (0: 20000, short 2000), -reps the runs (0: 10)")
	var jobs jobFlags
	jobs.bind(fs)
	progress := new(bool)
	progressVar(fs, progress)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("check: want a paper: dpb check ss18|mt14|as17|all [flags]")
	}
	papers := []string{pos[0]}
	switch pos[0] {
	case "ss18", "mt14", "as17":
	case "all":
		papers = checkPapers
	default:
		return usagef("check: unknown paper %q, want ss18, mt14, as17 or all", pos[0])
	}
	if err := noArgs(fs, pos[1:]); err != nil {
		return err
	}
	if !slices.Equal(papers, []string{"ss18"}) && (jobs.store != "" || jobs.shard != "" || jobs.merge || *trees || *mineig) {
		return usagef("check %s: -store, -shard, -merge, -trees and -mineig are supported by check ss18 only", pos[0])
	}
	for _, p := range papers {
		// MT14's and AS17's regret means need a standard error (2 runs) and
		// their counter checks enough trees for a test.
		least, ok := checkLeast[p]
		if !ok {
			continue
		}
		if *reps != 0 && *reps < least.reps {
			return usagef("check %s: invalid value %d for flag -reps: want 0 (the default) or at least %d (a regret mean needs a standard error)", p, *reps, least.reps)
		}
		if *trials != 0 && *trials < least.trials {
			return usagef("check %s: invalid value %d for flag -trials: want 0 (the default) or at least %d", p, *trials, least.trials)
		}
	}
	if *mineig && *trees {
		return usagef("check ss18: -mineig and -trees select different checks: give one")
	}
	if *n > check.TreeDenseMaxN && !*trees {
		// The counter checks keep every round's ratios (3n values a run):
		// only the paper's trees have the per-run test that scales.
		return usagef("check ss18: -n %d is above %d: add -trees (Props. 9 and 11 on the paper's trees, which scale to the paper's n); the other checks keep every round", *n, check.TreeDenseMaxN)
	}
	if err := ready(checkMemoryParts(papers, *d, *n, *reps, *trials, *policyN, *workers, *short, *trees, *mineig)); err != nil {
		return err
	}
	configs := map[string]any{}
	var all check.Verdicts
	var bw io.Writer
	if *progress {
		bw = progressOut
	}
	// The line names the paper running and, for ss18, shows the bar of the
	// job list under way (the tree and confidence-set checks, the parts that
	// grow with n and -reps).
	bar := newStageBar(bw, "papers", len(papers), progressEvery)
	stages := 0
	defer func() { bar.end(stages) }()
	for i, p := range papers {
		var vs check.Verdicts
		var err error
		bar.begin(i, "check "+p)
		switch p {
		case "ss18":
			plan, perr := jobs.plan("check ss18")
			if perr != nil {
				return perr
			}
			if bar != nil && !plan.Estimate {
				plan.Progress = bar
			}
			if *mineig {
				mc := check.MinEigCoverageConfig{D: *d, N: *policyN, Reps: *reps, Seed: *seed, RunOptions: harness.RunOptions{Workers: *workers, Plan: plan.Plan}}
				if *short && mc.N == 0 {
					mc.N = 2000
				}
				vs, err = checkMinEig(mc)
				if stop, err := plan.done(err); stop {
					return err
				}
				mc = mc.WithDefaults()
				configs[p] = withWorkers(mc, mc.Workers)
				break
			}
			cfg := check.SS18Config{Seed: *seed, Short: *short, D: *d, N: *n, Reps: *reps, Trials: *trials, RunOptions: harness.RunOptions{Workers: *workers, Plan: plan.Plan}, PolicyN: *policyN}
			if plan.Shard.N > 0 {
				// A shard runs its part of the tree checks (the part that grows
				// with n) into the store; -merge runs the rest and prints verdicts.
				if *trees {
					_, err = checkSS18Trees(cfg)
				} else if _, err = checkSS18Scaled(cfg); err == nil {
					_, err = checkSS18Prop4(cfg)
				}
				_, err = plan.done(err)
				return err
			}
			c := cfg.WithDefaults()
			configs[p] = withWorkers(c, c.Workers)
			if *trees {
				vs, err = checkSS18Trees(cfg)
			} else {
				vs, err = checkSS18(cfg)
			}
			if stop, err := plan.done(err); stop {
				return err
			}
		case "mt14":
			cfg := check.MT14Config{Seed: *seed, Short: *short, Reps: *reps, Trials: *trials, RunOptions: harness.RunOptions{Workers: *workers}}
			c := cfg.WithDefaults()
			configs[p] = withWorkers(c, c.Workers)
			vs, err = checkMT14(cfg)
		case "as17":
			cfg := check.AS17Config{Seed: *seed, Short: *short, Reps: *reps, Trials: *trials, RunOptions: harness.RunOptions{Workers: *workers}}
			c := cfg.WithDefaults()
			configs[p] = withWorkers(c, c.Workers)
			vs, err = checkAS17(cfg)
		}
		if err != nil {
			return fmt.Errorf("check %s: %w", p, err)
		}
		stages++
		if !*asJSON {
			bar.clear() // the table starts on a clean line; the bar redraws below it
			if len(papers) > 1 {
				fmt.Fprintf(w, "== %s\n", p)
			}
			if err := vs.WriteText(w); err != nil {
				return err
			}
		}
		all = append(all, vs...)
	}
	if !*asJSON && len(papers) > 1 {
		fmt.Fprintf(w, "== all\n%s\n", all.Summarise())
	}
	if *asJSON {
		var cfg any = configs
		if len(papers) == 1 {
			cfg = configs[papers[0]]
		}
		if err := writeSealedJSON(w, struct {
			provenanceJSON
			Noise    []string       `json:"noise"`
			Config   any            `json:"config"`
			Summary  check.Summary  `json:"summary"`
			Verdicts check.Verdicts `json:"verdicts"`
		}{provenance(), noiseNames(check.Noise), cfg, all.Summarise(), all}); err != nil {
			return err
		}
	}
	if f := all.Failed(); len(f) > 0 {
		return fmt.Errorf("%d checks failed (%s)", len(f), check.FailedMarker)
	}
	return nil
}

// withWorkers returns a check suite's configuration as the check JSON
// records it: its fields and the worker count it ran with, which the
// configuration's own JSON leaves out (harness.RunOptions changes no result).
func withWorkers(cfg any, workers int) any {
	b, err := json.Marshal(cfg)
	if err != nil {
		panic(err) // a configuration of plain fields always encodes
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		panic(err)
	}
	m["workers"] = workers
	return m
}
