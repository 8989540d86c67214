package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/dpbandits/dpbandits/dpb/check"
	"github.com/dpbandits/dpbandits/dpb/experiment"
)

func init() {
	register("check", "run a paper's proof checks and print the verdicts (dpb check ss18)", func(args []string) error {
		return runCheck(os.Stdout, args)
	})
}

func runCheck(w io.Writer, args []string) error {
	if len(args) == 0 || args[0] != "ss18" {
		return fmt.Errorf("usage: dpb check ss18 [-json] [-short] [-seed S] [-d D] [-n N] [-reps R] [-trials T]")
	}
	fs := flag.NewFlagSet("check ss18", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the verdicts as JSON")
	short := fs.Bool("short", false, "small, quick run (about a second)")
	seed := fs.Uint64("seed", 1, "random seed")
	d := fs.Int("d", 0, "dimension (default 5)")
	n := fs.Int("n", 0, "horizon of the tree checks (default 1024, short 128)")
	reps := fs.Int("reps", 0, "runs of each tree (default 100, short 20)")
	trials := fs.Int("trials", 0, "draws per Monte-Carlo check (default 20000, short 2000)")
	workers := fs.Int("workers", 0, "worker goroutines (default GOMAXPROCS)")
	var jobs jobFlags
	jobs.bind(fs)
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	plan, err := jobs.plan("check ss18")
	if err != nil {
		return err
	}
	cfg := check.SS18CheckConfig{Seed: *seed, Short: *short, D: *d, N: *n, Reps: *reps, Trials: *trials, Workers: *workers, Plan: plan.Plan}
	if plan.Shard.N > 0 {
		// A shard runs its part of the tree checks (the part that grows
		// with n) into the store; -merge runs the rest and prints verdicts.
		_, err := check.CheckSS18Trees(cfg)
		_, err = plan.done(err)
		return err
	}
	vs, err := check.CheckSS18(cfg)
	if stop, err := plan.done(err); stop {
		return err
	}
	if *asJSON {
		if err := experiment.WriteJSON(w, struct {
			Config   check.SS18CheckConfig `json:"config"`
			Verdicts check.Verdicts        `json:"verdicts"`
		}{cfg.WithDefaults(), vs}); err != nil {
			return err
		}
	} else if err := vs.WriteText(w); err != nil {
		return err
	}
	if f := vs.Failed(); len(f) > 0 {
		return fmt.Errorf("%d checks failed (%s)", len(f), check.CheckFailedMarker)
	}
	return nil
}
