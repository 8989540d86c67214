package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/dpbandits/dpbandits/dpb/check"
	"github.com/dpbandits/dpbandits/dpb/experiment"
)

func init() {
	register("check", "run a paper's proof checks and print the verdicts (dpb check ss18|mt14|as17|all)", func(args []string) error {
		return runCheck(os.Stdout, args)
	})
}

// checkPapers lists the papers "dpb check all" runs, in order.
var checkPapers = []string{"ss18", "mt14", "as17"}

const checkUsage = "usage: dpb check ss18|mt14|as17|all [-json] [-short] [-seed S] [-workers W] [-reps R] [-trials T] [ss18 only: -d D -n N]"

func runCheck(w io.Writer, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf(checkUsage)
	}
	papers := []string{args[0]}
	switch args[0] {
	case "ss18", "mt14", "as17":
	case "all":
		papers = checkPapers
	default:
		return fmt.Errorf("unknown paper %q; %s", args[0], checkUsage)
	}
	fs := flag.NewFlagSet("check "+args[0], flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the verdicts as JSON")
	short := fs.Bool("short", false, "small, quick run (seconds)")
	seed := fs.Uint64("seed", 1, "random seed")
	d := fs.Int("d", 0, "ss18: dimension (default 5)")
	n := fs.Int("n", 0, "ss18: horizon of the tree checks (default 1024, short 128)")
	reps := fs.Int("reps", 0, "ss18: runs of each tree (default 100, short 20); mt14, as17: runs behind each regret mean (default 20 / 10, short 6 / 4)")
	trials := fs.Int("trials", 0, "ss18: draws per Monte-Carlo check (default 20000, short 2000); mt14, as17: trees of the counter and noise-law checks")
	workers := fs.Int("workers", 0, "worker goroutines (default GOMAXPROCS)")
	var jobs jobFlags
	jobs.bind(fs)
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if !slices.Equal(papers, []string{"ss18"}) && (jobs.store != "" || jobs.shard != "" || jobs.merge) {
		return fmt.Errorf("check %s: -store, -shard and -merge are supported by check ss18 only", args[0])
	}
	configs := map[string]any{}
	var all check.Verdicts
	for _, p := range papers {
		var vs check.Verdicts
		var err error
		switch p {
		case "ss18":
			plan, perr := jobs.plan("check ss18")
			if perr != nil {
				return perr
			}
			cfg := check.SS18CheckConfig{Seed: *seed, Short: *short, D: *d, N: *n, Reps: *reps, Trials: *trials, Workers: *workers, Plan: plan.Plan}
			if plan.Shard.N > 0 {
				// A shard runs its part of the tree checks (the part that grows
				// with n) into the store; -merge runs the rest and prints verdicts.
				_, err := check.CheckSS18Trees(cfg)
				_, err = plan.done(err)
				return err
			}
			configs[p] = cfg.WithDefaults()
			vs, err = check.CheckSS18(cfg)
			if stop, err := plan.done(err); stop {
				return err
			}
		case "mt14":
			cfg := check.MT14CheckConfig{Seed: *seed, Short: *short, Reps: *reps, Trials: *trials, Workers: *workers}
			configs[p] = cfg.WithDefaults()
			vs, err = check.CheckMT14(cfg)
		case "as17":
			cfg := check.AS17CheckConfig{Seed: *seed, Short: *short, Reps: *reps, Trials: *trials, Workers: *workers}
			configs[p] = cfg.WithDefaults()
			vs, err = check.CheckAS17(cfg)
		}
		if err != nil {
			return fmt.Errorf("check %s: %w", p, err)
		}
		if !*asJSON {
			if len(papers) > 1 {
				fmt.Fprintf(w, "== %s\n", p)
			}
			if err := vs.WriteText(w); err != nil {
				return err
			}
		}
		all = append(all, vs...)
	}
	if *asJSON {
		var cfg any = configs
		if len(papers) == 1 {
			cfg = configs[papers[0]]
		}
		if err := experiment.WriteJSON(w, struct {
			Config   any            `json:"config"`
			Verdicts check.Verdicts `json:"verdicts"`
		}{cfg, all}); err != nil {
			return err
		}
	}
	if f := all.Failed(); len(f) > 0 {
		return fmt.Errorf("%d checks failed (%s)", len(f), check.CheckFailedMarker)
	}
	return nil
}
