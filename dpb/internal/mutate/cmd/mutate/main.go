// Command mutate plants the defects of the catalogue
// (dpb/internal/mutate/catalogue.txt) one at a time in scratch copies of
// the repository and reports which the proof checks, the privacy audit and
// the tests catch, with the mutation score (package dpb/internal/mutate).
//
//	go run ./dpb/internal/mutate/cmd/mutate [-only ID,...] [-subset ci] [-out DIR] [-expect]
//
// It runs from anywhere inside the repository (the root is git's). It
// writes DIR/mutation.md (score and table) and DIR/mutation.json, prints
// the score, and exits 1 when a mutant does not build or does not run, when
// an equivalent defect is caught, or, with -expect, when a defect the
// catalogue marks "ci-expect: caught" is missed (the CI step .ci/mutants).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/dpbandits/dpbandits/dpb/internal/mutate"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(1)
	}
}

func run() error {
	only := flag.String("only", "", "comma-separated ids: run these defects only")
	subset := flag.String("subset", "", "run the defects of this subset only (ci)")
	out := flag.String("out", ".ci/out/mutants", "directory for mutation.md and mutation.json (relative to the repository root)")
	catalogue := flag.String("catalogue", "", "catalogue file (default: the committed one, embedded)")
	jobs := flag.Int("jobs", 2, "defects run at once")
	workers := flag.Int("workers", 2, "-workers of dpb check and dpb audit")
	check := flag.Bool("check", true, "run dpb check all -short on every defect (off: to triage the tests quickly)")
	audit := flag.Bool("audit", true, "run dpb audit -short on defects the checks miss")
	tests := flag.Bool("tests", true, "run go test -short of the mutated package for algorithmic defects")
	expect := flag.Bool("expect", false, "exit 1 when a defect marked ci-expect: caught is missed")
	keep := flag.Bool("keep", false, "keep the scratch copies")
	list := flag.Bool("list", false, "list the selected defects and exit")
	timeout := flag.Duration("timeout", 20*time.Minute, "limit on each build, check, audit or test command")
	flag.Parse()
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", flag.Args())
	}

	all, err := load(*catalogue)
	if err != nil {
		return err
	}
	var ids []string
	if *only != "" {
		ids = strings.Split(*only, ",")
	}
	ds, err := mutate.Select(all, ids, *subset)
	if err != nil {
		return err
	}
	if *list {
		for _, d := range ds {
			fmt.Printf("%-40s %-11s %-18s %s\n", d.ID, d.Class, d.Category, d.Desc)
		}
		return nil
	}
	root, err := gitRoot()
	if err != nil {
		return err
	}
	outDir := *out
	if !filepath.IsAbs(outDir) {
		outDir = filepath.Join(root, outDir)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(os.Stderr, "mutate: %d defects from %s, %d at a time\n", len(ds), root, *jobs)
	rep, err := mutate.Run(ctx, mutate.Config{
		Root: root, Jobs: *jobs, Workers: *workers, Check: *check, Audit: *audit, Tests: *tests,
		Keep: *keep, Timeout: *timeout, Log: os.Stderr,
	}, ds)
	if err != nil {
		return err
	}
	rep.Command = "go run ./dpb/internal/mutate/cmd/mutate " + strings.Join(os.Args[1:], " ")
	if err := write(outDir, rep); err != nil {
		return err
	}
	fmt.Printf("mutation score: privacy %v (checks alone %d), algorithmic %v; %.0f s; %s\n",
		rep.Score.Privacy, rep.Score.Privacy.ByCheck, rep.Score.Algorithmic, rep.Seconds, filepath.Join(outDir, "mutation.md"))
	var missed []string
	for _, o := range rep.Outcomes {
		if o.Class == mutate.Privacy && o.Equivalent == "" && o.Status == mutate.StatusMissed {
			missed = append(missed, o.ID)
		}
	}
	if len(missed) > 0 {
		fmt.Printf("privacy defects missed by every instrument: %s\n", strings.Join(missed, ", "))
	}
	problems := rep.Problems()
	failures, surprises := rep.ExpectationFailures()
	for _, s := range surprises {
		fmt.Println("note:", s)
	}
	if *expect {
		problems = append(problems, failures...)
	}
	if len(problems) > 0 {
		return errors.New("\n  " + strings.Join(problems, "\n  "))
	}
	return nil
}

func load(path string) ([]mutate.Defect, error) {
	if path == "" {
		return mutate.Catalogue()
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return mutate.Parse(f)
}

func gitRoot() (string, error) {
	b, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return "", fmt.Errorf("not inside a git repository: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

func write(dir string, rep *mutate.Report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	md, err := os.Create(filepath.Join(dir, "mutation.md"))
	if err != nil {
		return err
	}
	if err := rep.WriteMarkdown(md); err != nil {
		md.Close()
		return err
	}
	if err := md.Close(); err != nil {
		return err
	}
	js, err := os.Create(filepath.Join(dir, "mutation.json"))
	if err != nil {
		return err
	}
	if err := rep.WriteJSON(js); err != nil {
		js.Close()
		return err
	}
	return js.Close()
}
