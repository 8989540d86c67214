package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

func init() {
	register("reproduce", "regenerate a paper figure (dpb reproduce -list)", runReproduce)
}

// defaultOut is where figures go unless -out says otherwise: an ignored
// directory, so a quick run never replaces the committed paper-scale
// figures (written only with -out figures).
var defaultOut = filepath.Join("out", "figures")

// listFigures prints the figure names and summaries.
func listFigures(w io.Writer) {
	fmt.Fprintf(w, "usage: dpb reproduce NAME [flags]   (NAME: a figure, or a paper prefix such as ss18 for all its figures)\n\n")
	fmt.Fprintf(w, "Figures go to %s/NAME.{svg,png,csv,json} (an ignored directory); -out figures replaces the committed ones.\n", defaultOut)
	fmt.Fprintf(w, "Flags follow the name (-n=2e4 and --n 2e4 work alike); dpb reproduce NAME -h lists a figure's flags and limits.\n\n")
	for _, n := range figureNames("") {
		fmt.Fprintf(w, "  %-18s %s\n", n, figures[n].Summary)
	}
}

// splitOut removes -out DIR (any of -out DIR, -out=DIR, --out DIR,
// --out=DIR) from args and returns DIR.
func splitOut(args []string) (string, []string, error) {
	out := defaultOut
	rest := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "out" {
			rest = append(rest, a)
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return "", nil, usagef("reproduce: flag needs an argument: -out")
			}
			i++
			val = args[i]
		}
		if val == "" {
			return "", nil, usagef("reproduce: invalid value \"\" for flag -out: want a directory")
		}
		out = val
	}
	return out, rest, nil
}

func runReproduce(args []string) error {
	if done, err := reproduceList(args); done {
		return err
	}
	name := args[0]
	out, rest, err := splitOut(args[1:])
	if err != nil {
		return err
	}
	var run []string
	if _, ok := figures[name]; ok {
		run = []string{name}
	} else if run = figureNames(name + "-"); len(run) == 0 {
		return usagef("reproduce: unknown figure %q (dpb reproduce -list)", name)
	}
	// SIGINT and SIGTERM stop the experiments cleanly (see jobPlan.done);
	// a second signal kills as usual.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); stop() }()
	runCtx, runCmdline = ctx, append([]string{"reproduce"}, args...)
	defer func() { runCtx = context.Background() }()
	if !wantsHelp(rest) && !dryRun {
		if err := preflightFigures(run, out, rest); err != nil {
			return err
		}
	}
	return runFigures(run, out, rest)
}

// reproduceList handles what comes before a figure name: nothing, -list,
// -h, or a flag in its place; done reports that the command ends (with err).
func reproduceList(args []string) (done bool, err error) {
	if len(args) == 0 {
		listFigures(os.Stderr)
		return true, usagef("reproduce: want a figure name (dpb reproduce -list)")
	}
	switch strings.TrimLeft(args[0], "-") {
	case "list", "h", "help":
		if len(args) > 1 {
			return true, usagef("reproduce: unexpected argument %q after %s", args[1], args[0])
		}
		listFigures(os.Stdout)
		if args[0] == "-list" || args[0] == "--list" || args[0] == "list" {
			return true, nil
		}
		return true, flag.ErrHelp
	}
	if strings.HasPrefix(args[0], "-") {
		return true, usagef("reproduce: the figure name comes first, then flags (dpb reproduce NAME %s ...)", args[0])
	}
	return false, nil
}

// preflightFigures checks every figure's flags (and data) first: a dry run
// stops each figure after its checks, so a bad flag fails before any work
// and before the output directory is created. Then each figure's memory:
// its job lists (found by running it under an estimate plan, which runs no
// job) and the parts its flags size, against -max-memory, before anything
// is allocated for them. Last, it creates the output directory.
func preflightFigures(run []string, out string, rest []string) error {
	dryRun = true
	for _, n := range run {
		if err := figures[n].run(n, out, rest); err != nil && !errors.Is(err, errDryRun) {
			dryRun = false
			return figureErr(n, len(run), err)
		}
	}
	dryRun = false
	limit, _ := memoryLimit()
	for _, n := range run {
		// (The lists' values count 32 bytes each in figureMemory: past
		// limit/32 of them the figure is refused whatever else it holds.)
		lists, parts, err := estimateJobsUpTo(n, rest, float64(limit)/32)
		if err == nil {
			err = checkMemory("reproduce "+n, figureMemory(lists, parts))
		}
		if err != nil {
			return figureErr(n, len(run), err)
		}
	}
	return os.MkdirAll(out, 0o755)
}

// runFigures runs the figures in turn; a merge goes on past a figure with
// missing jobs so that the error lists every figure's.
func runFigures(run []string, out string, rest []string) error {
	var missing []error
	for _, n := range run {
		if len(run) > 1 {
			fmt.Fprintf(os.Stderr, "== %s\n", n)
		}
		if err := figures[n].run(n, out, rest); err != nil {
			if errors.As(err, new(missingJobsError)) {
				missing = append(missing, figureErr(n, len(run), err))
				continue
			}
			return figureErr(n, len(run), err)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%d of %d figures have missing jobs:\n%w", len(missing), len(run), errors.Join(missing...))
	}
	return nil
}

// figureErr names the figure in err when a group of figures runs, keeping a
// usage error one.
func figureErr(name string, group int, err error) error {
	if group < 2 || errors.Is(err, flag.ErrHelp) || errors.Is(err, errDryRun) {
		return err
	}
	var ue usageError
	if errors.As(err, &ue) {
		return usageError{fmt.Errorf("%s: %w", name, err)}
	}
	return fmt.Errorf("%s: %w", name, err)
}

// wantsHelp reports whether args ask for -h (nothing is written then).
func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		switch a {
		case "-h", "--h", "-help", "--help":
			return true
		}
	}
	return false
}

func figureNames(prefix string) []string {
	var names []string
	for n := range figures {
		if strings.HasPrefix(n, prefix) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}
