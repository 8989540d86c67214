package main

import (
	"bytes"
	"encoding/json"
	"flag"
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

// checkOpts are the flags of "dpb check".
type checkOpts struct {
	asJSON, short, trees, mineig, progress *bool
	seed                                   *uint64
	d, n, reps, trials, workers, policyN   *int
	jobs                                   jobFlags
}

// bind defines the flags of "dpb check" on fs.
func (o *checkOpts) bind(fs *flag.FlagSet) {
	o.asJSON = fs.Bool("json", false, "print the verdicts as JSON")
	o.short = fs.Bool("short", false, "small, quick run (seconds)")
	o.seed = new(uint64)
	seedVar(fs, o.seed, "seed", 1, "random seed (an exact integer)")
	o.d, o.n, o.reps, o.trials, o.workers = new(int), new(int), new(int), new(int), new(int)
	defaultOrVar(fs, o.d, "d", 0, 2, maxCheckDim, "ss18: dimension, 0: 5")
	defaultOrVar(fs, o.n, "n", 0, 2, maxCheckN, "ss18: horizon of the tree checks, 0: 1024 (short 128)")
	countVar(fs, o.reps, "reps", 0, 0, maxCheckReps, "ss18: runs of each tree, 0: 100 (short 20); mt14, as17: runs behind each regret mean, 0: 20 / 10 (short 6 / 4)")
	countVar(fs, o.trials, "trials", 0, 0, maxCheckTrials, "ss18: draws per Monte-Carlo check, 0: 20000 (short 2000); mt14, as17: trees of the counter and noise-law checks")
	countVar(fs, o.workers, "workers", 0, 0, maxWorkers, "worker goroutines, 0: GOMAXPROCS")
	o.policyN = new(int)
	defaultOrVar(fs, o.policyN, "policyn", 0, 2, maxCheckN, "ss18: horizon of the Proposition 4 (confidence-set) checks, which run Algorithm 1, 0: 2000 (short 300)")
	o.trees = fs.Bool("trees", false, "ss18: only the per-round checks of Props. 9 and 11 on the paper's trees (printed k and σ, plain and padded), the part that grows with n; needed above n = 65536")
	o.mineig = fs.Bool("mineig", false, "ss18: only the coverage checks of the RadiusMinEig variants at Fig. 4's setting (d = 5, K = 25, gaps 0 and 0.1), each playing its own radius; -policyn sets n (0: 20000, short 2000), -reps the runs (0: 10)")
	o.jobs.bind(fs)
	o.progress = new(bool)
	progressVar(fs, o.progress)
}

// papers checks the positional arguments and the flags against each other
// and returns the papers to check.
func (o *checkOpts) papers(fs *flag.FlagSet, pos []string) ([]string, error) {
	if len(pos) == 0 {
		return nil, usagef("check: want a paper: dpb check ss18|mt14|as17|all [flags]")
	}
	papers := []string{pos[0]}
	switch pos[0] {
	case "ss18", "mt14", "as17":
	case "all":
		papers = checkPapers
	default:
		return nil, usagef("check: unknown paper %q, want ss18, mt14, as17 or all", pos[0])
	}
	if err := noArgs(fs, pos[1:]); err != nil {
		return nil, err
	}
	if !slices.Equal(papers, []string{"ss18"}) && (o.jobs.store != "" || o.jobs.shard != "" || o.jobs.merge || *o.trees || *o.mineig) {
		return nil, usagef("check %s: -store, -shard, -merge, -trees and -mineig are supported by check ss18 only", pos[0])
	}
	if err := o.checkLeast(papers); err != nil {
		return nil, err
	}
	if *o.mineig && *o.trees {
		return nil, usagef("check ss18: -mineig and -trees select different checks: give one")
	}
	if *o.n > check.TreeDenseMaxN && !*o.trees {
		// The counter checks keep every round's ratios (3n values a run):
		// only the paper's trees have the per-run test that scales.
		return nil, usagef("check ss18: -n %d is above %d: add -trees (Props. 9 and 11 on the paper's trees, which scale to the paper's n); the other checks keep every round", *o.n, check.TreeDenseMaxN)
	}
	return papers, nil
}

// checkLeast refuses -reps and -trials below what MT14's and AS17's suites
// need: their regret means need a standard error (2 runs) and their counter
// checks enough trees for a test.
func (o *checkOpts) checkLeast(papers []string) error {
	for _, p := range papers {
		least, ok := checkLeast[p]
		if !ok {
			continue
		}
		if *o.reps != 0 && *o.reps < least.reps {
			return usagef("check %s: invalid value %d for flag -reps: want 0 (the default) or at least %d (a regret mean needs a standard error)", p, *o.reps, least.reps)
		}
		if *o.trials != 0 && *o.trials < least.trials {
			return usagef("check %s: invalid value %d for flag -trials: want 0 (the default) or at least %d", p, *o.trials, least.trials)
		}
	}
	return nil
}

func runCheck(w io.Writer, args []string) error {
	fs := newFlags("check", "ss18|mt14|as17|all [flags]", "Runs the proof checks of a paper (or all three) and prints the verdict table; exits 1 on any CHECK FAILED.")
	var o checkOpts
	o.bind(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	papers, err := o.papers(fs, pos)
	if err != nil {
		return err
	}
	if err := ready(checkMemoryParts(papers, *o.d, *o.n, *o.reps, *o.trials, *o.policyN, *o.workers, *o.short, *o.trees, *o.mineig)); err != nil {
		return err
	}
	configs := map[string]any{}
	var all check.Verdicts
	var bw io.Writer
	if *o.progress {
		bw = progressOut
	}
	// The line names the paper running and, for ss18, shows the bar of the
	// job list under way (the tree and confidence-set checks, the parts that
	// grow with n and -reps).
	bar := newStageBar(bw, "papers", len(papers), progressEvery)
	stages := 0
	defer func() { bar.end(stages) }()
	for i, p := range papers {
		bar.begin(i, "check "+p)
		vs, stop, err := o.runPaper(p, bar, configs)
		if stop || err != nil {
			return err
		}
		stages++
		if !*o.asJSON {
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
	return o.finish(w, papers, configs, all)
}

// runPaper runs paper p's checks and records its configuration in configs;
// stop reports that the command ends there (with err, if any).
func (o *checkOpts) runPaper(p string, bar *stageBar, configs map[string]any) (vs check.Verdicts, stop bool, err error) {
	switch p {
	case "ss18":
		return o.runSS18(bar, configs)
	case "mt14":
		cfg := check.MT14Config{Seed: *o.seed, Short: *o.short, Reps: *o.reps, Trials: *o.trials, RunOptions: harness.RunOptions{Workers: *o.workers}}
		c := cfg.WithDefaults()
		configs[p] = withWorkers(c, c.Workers)
		vs, err = checkMT14(cfg)
	case "as17":
		cfg := check.AS17Config{Seed: *o.seed, Short: *o.short, Reps: *o.reps, Trials: *o.trials, RunOptions: harness.RunOptions{Workers: *o.workers}}
		c := cfg.WithDefaults()
		configs[p] = withWorkers(c, c.Workers)
		vs, err = checkAS17(cfg)
	}
	if err != nil {
		return nil, true, fmt.Errorf("check %s: %w", p, err)
	}
	return vs, false, nil
}

// runSS18 runs SS18's checks under the plan of -store, -shard and -merge:
// the λ_min coverage (-mineig), a shard's part of the tree checks, or the
// verdicts (all, or -trees).
func (o *checkOpts) runSS18(bar *stageBar, configs map[string]any) (check.Verdicts, bool, error) {
	plan, err := o.jobs.plan("check ss18")
	if err != nil {
		return nil, true, err
	}
	if bar != nil && !plan.Estimate {
		plan.Progress = bar
	}
	if *o.mineig {
		mc := check.MinEigCoverageConfig{D: *o.d, N: *o.policyN, Reps: *o.reps, Seed: *o.seed, RunOptions: harness.RunOptions{Workers: *o.workers, Plan: plan.Plan}}
		if *o.short && mc.N == 0 {
			mc.N = 2000
		}
		vs, err := checkMinEig(mc)
		if stop, err := plan.done(err); stop {
			return nil, true, err
		}
		mc = mc.WithDefaults()
		configs["ss18"] = withWorkers(mc, mc.Workers)
		return vs, false, nil
	}
	cfg := check.SS18Config{Seed: *o.seed, Short: *o.short, D: *o.d, N: *o.n, Reps: *o.reps, Trials: *o.trials, RunOptions: harness.RunOptions{Workers: *o.workers, Plan: plan.Plan}, PolicyN: *o.policyN}
	if plan.Shard.N > 0 {
		// A shard runs its part of the tree checks (the part that grows
		// with n) into the store; -merge runs the rest and prints verdicts.
		if *o.trees {
			_, err = checkSS18Trees(cfg)
		} else if _, err = checkSS18Scaled(cfg); err == nil {
			_, err = checkSS18Prop4(cfg)
		}
		_, err = plan.done(err)
		return nil, true, err
	}
	c := cfg.WithDefaults()
	configs["ss18"] = withWorkers(c, c.Workers)
	var vs check.Verdicts
	if *o.trees {
		vs, err = checkSS18Trees(cfg)
	} else {
		vs, err = checkSS18(cfg)
	}
	if stop, err := plan.done(err); stop {
		return nil, true, err
	}
	return vs, false, nil
}

// finish prints the summary (text) or the sealed JSON of every verdict, and
// fails when a check failed.
func (o *checkOpts) finish(w io.Writer, papers []string, configs map[string]any, all check.Verdicts) error {
	if !*o.asJSON && len(papers) > 1 {
		fmt.Fprintf(w, "== all\n%s\n", all.Summarise())
	}
	if *o.asJSON {
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
		}{provenance(), noiseNames(check.Noise, check.SecureNoise), cfg, all.Summarise(), all}); err != nil {
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
