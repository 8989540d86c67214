package main

import (
	"fmt"
	"io"
	"os"

	"github.com/dpbandits/dpbandits/dpb/check"
)

func init() {
	register("check", "run a paper's proof checks and print the verdicts (dpb check ss18)", func(args []string) error {
		return runCheck(os.Stdout, args)
	})
}

func runCheck(w io.Writer, args []string) error {
	fs := newFlags("check", "ss18 [flags]", "Runs the proof checks of a paper (ss18) and prints the verdict table; exits 1 on any CHECK FAILED.")
	asJSON := fs.Bool("json", false, "print the verdicts as JSON")
	short := fs.Bool("short", false, "small, quick run (about a second)")
	seed := fs.Uint64("seed", 1, "random seed (an exact integer)")
	d, n, reps, trials, workers := new(int), new(int), new(int), new(int), new(int)
	countVar(fs, d, "d", 0, 0, maxCheckDim, "dimension, 0: 5")
	countVar(fs, n, "n", 0, 0, maxCheckN, "horizon of the tree checks, 0: 1024 (short 128)")
	countVar(fs, reps, "reps", 0, 0, maxCheckReps, "runs of each tree, 0: 100 (short 20)")
	countVar(fs, trials, "trials", 0, 0, maxCheckTrials, "draws per Monte-Carlo check, 0: 20000 (short 2000)")
	countVar(fs, workers, "workers", 0, 0, maxWorkers, "worker goroutines, 0: GOMAXPROCS")
	var jobs jobFlags
	jobs.bind(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("check: want a paper: dpb check ss18 [flags]")
	}
	if pos[0] != "ss18" {
		return usagef("check: unknown paper %q, want ss18", pos[0])
	}
	if err := noArgs(fs, pos[1:]); err != nil {
		return err
	}
	if err := ready(); err != nil {
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
		if err := writeSnakeJSON(w, struct {
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
