package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/internal/snap"
)

func init() {
	register("store", "list and verify a job store's job lists: done, missing and damaged jobs (dpb store DIR)", func(args []string) error {
		return runStore(os.Stdout, args)
	})
}

// runStore prints, per job list of the store, how many jobs are done and
// which are missing, and verifies every file (key.json and each job's
// SHA-256): a damaged file is listed and the command fails.
func runStore(w io.Writer, args []string) error {
	fs := newFlags("store", "[-clean] DIR", "Lists each job list of the job store DIR: done and missing jobs. Every file is verified against its SHA-256; damaged files are listed and the exit status is 1.")
	clean := fs.Bool("clean", false, "also remove the temporary files of killed writers (.*.tmp-*, untouched for 10 minutes)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 || pos[0] == "" {
		return usagef("store: want a directory: dpb store DIR")
	}
	if err := noArgs(fs, pos[1:]); err != nil {
		return err
	}
	args = pos
	if _, err := os.Stat(args[0]); err != nil {
		return err
	}
	if err := ready(nil); err != nil {
		return err
	}
	st, err := harness.OpenStore(args[0])
	if err != nil {
		return err
	}
	bins, err := st.Bins()
	if err != nil {
		return err
	}
	if len(bins) == 0 {
		fmt.Fprintf(w, "%s: no job lists\n", args[0])
	}
	damaged := 0
	for _, b := range bins {
		n, err := reportBin(w, b, *clean)
		if err != nil {
			return err
		}
		damaged += n
	}
	if damaged > 0 {
		return fmt.Errorf("store %s: %d damaged file(s); delete them to recompute their jobs", args[0], damaged)
	}
	return nil
}

// reportBin prints one job list of the store: its jobs done, the first ten
// missing, every damaged file (their number is returned) and, with clean,
// the temporary files it removed.
func reportBin(w io.Writer, b *harness.Bin, clean bool) (damaged int, err error) {
	done, err := b.Done()
	if err != nil {
		return 0, err
	}
	miss, err := b.Missing()
	if err != nil {
		return 0, err
	}
	sh := b.Shape()
	stale := ""
	if b.StreamVersion() != snap.StreamVersion {
		stale = fmt.Sprintf("  (stream version %d: not used by this binary, version %d)", b.StreamVersion(), snap.StreamVersion)
	}
	fmt.Fprintf(w, "%s  %d/%d jobs done (%d reps × %d series)%s\n", filepath.Base(b.Dir()), len(done), sh.Jobs(), sh.Reps, sh.Series, stale)
	for i, j := range miss {
		if i == 10 {
			fmt.Fprintf(w, "  … and %d more missing\n", len(miss)-i)
			break
		}
		fmt.Fprintf(w, "  missing r%06d-s%03d\n", j.Rep, j.Series)
	}
	for _, err := range b.Verify() {
		damaged++
		fmt.Fprintf(w, "  damaged: %v\n", err)
	}
	if clean {
		gone, err := b.CleanTemp(10 * time.Minute)
		for _, p := range gone {
			fmt.Fprintf(w, "  removed %s\n", filepath.Base(p))
		}
		if err != nil {
			return damaged, err
		}
	}
	return damaged, nil
}
