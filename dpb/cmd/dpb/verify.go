package main

import (
	"fmt"
	"io"
	"os"

	"github.com/dpbandits/dpbandits/dpb/harness"
)

func init() {
	register("verify", "check that the files of figure sets belong together (dpb verify FIGURE.json ...)", func(args []string) error {
		return runVerify(os.Stdout, args)
	})
}

// runVerify checks each figure JSON's set: every file it lists must be
// beside it with the recorded SHA-256 (a run killed while writing a set
// leaves a mixed one).
func runVerify(w io.Writer, args []string) error {
	fs := newFlags("verify", "FIGURE.json ...", "Checks that every file a figure JSON lists (CSV, SVG, PNG, …) is beside it with the SHA-256 it records, so that the set is one run's. Exit status 1 when a set is mixed or incomplete.")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("verify: want one or more figure JSON files")
	}
	if err := ready(nil); err != nil {
		return err
	}
	bad := 0
	for _, p := range pos {
		if err := harness.VerifyFigureSet(p); err != nil {
			bad++
			fmt.Fprintf(w, "MIXED  %v\n", err)
			continue
		}
		fmt.Fprintf(w, "ok     %s\n", p)
	}
	if bad > 0 {
		return fmt.Errorf("verify: %d of %d figure sets are mixed or incomplete", bad, len(pos))
	}
	return nil
}
