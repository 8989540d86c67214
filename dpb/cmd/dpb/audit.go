package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/dpbandits/dpbandits/dpb"
	"github.com/dpbandits/dpbandits/dpb/audit"
	"github.com/dpbandits/dpbandits/dpb/experiment"
)

func init() {
	register("audit", "audit every mechanism's privacy empirically and print the table (dpb audit [-short] [-json] [NAME...])", func(args []string) error {
		return runAudit(os.Stdout, args)
	})
}

func runAudit(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the table as JSON")
	short := fs.Bool("short", false, "small, quick run (a few seconds)")
	seed := fs.Uint64("seed", 1, "random seed (the secure rows draw from crypto/rand and ignore it)")
	trials := fs.Int("trials", 0, "runs on each input (default: each audit's own; half select, half evaluate)")
	workers := fs.Int("workers", 0, "worker goroutines (default GOMAXPROCS)")
	list := fs.Bool("list", false, "list the audits and exit")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *list {
		for _, n := range audit.Names() {
			fmt.Fprintln(w, n)
		}
		return nil
	}
	if *trials < 0 {
		return fmt.Errorf("audit: -trials is %d, must be >= 0 (0: each audit's default)", *trials)
	}
	opt := audit.Options{Trials: *trials, Short: *short, Seed: *seed, Workers: *workers}
	rs, err := audit.RunNamed(fs.Args(), opt)
	if err != nil {
		return err
	}
	table := audit.Results(rs)
	if *asJSON {
		if err := experiment.WriteJSON(w, struct {
			StreamVersion int           `json:"stream_version"`
			Seed          uint64        `json:"seed"`
			Short         bool          `json:"short"`
			Confidence    float64       `json:"confidence"`
			Results       audit.Results `json:"results"`
		}{dpb.StreamVersion, *seed, *short, audit.Confidence, table}); err != nil {
			return err
		}
	} else if err := table.WriteText(w); err != nil {
		return err
	}
	if f := table.Failed(); len(f) > 0 {
		return fmt.Errorf("%d audits show a privacy violation (first: %s, ε lower bound %.3f > claimed %g)", len(f), f[0].Name, f[0].Lower, f[0].Epsilon)
	}
	return nil
}
