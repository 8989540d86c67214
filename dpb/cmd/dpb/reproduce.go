package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
)

// figure is one reproducible figure: "dpb reproduce NAME" runs it. Each
// paper's figures live in their own file and register themselves in init.
type figure struct {
	summary string
	// run parses its own flags from args and writes figures/<name>.* under out.
	run func(name, out string, args []string) error
}

var figures = map[string]figure{}

func registerFigure(name, summary string, run func(name, out string, args []string) error) {
	if _, dup := figures[name]; dup {
		panic("dpb: figure registered twice: " + name)
	}
	figures[name] = figure{summary: summary, run: run}
}

func init() {
	register("reproduce", "regenerate a paper figure (dpb reproduce -list)", runReproduce)
}

func runReproduce(args []string) error {
	out := "figures"
	if len(args) == 0 || args[0] == "-list" || args[0] == "--list" || args[0] == "-h" || args[0] == "--help" {
		fmt.Println("usage: dpb reproduce NAME [-out DIR] [flags]   (NAME may be a paper prefix such as ss18)")
		names := figureNames("")
		for _, n := range names {
			fmt.Printf("  %-14s %s\n", n, figures[n].summary)
		}
		return nil
	}
	name, rest := args[0], args[1:]
	for i := 0; i < len(rest); i++ {
		if (rest[i] == "-out" || rest[i] == "--out") && i+1 < len(rest) {
			out = rest[i+1]
			rest = append(rest[:i:i], rest[i+2:]...)
			break
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	// SIGINT and SIGTERM stop the experiments cleanly (see jobPlan.done);
	// a second signal kills as usual.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); stop() }()
	runCtx, runCmdline = ctx, append([]string{"reproduce"}, args...)
	defer func() { runCtx = context.Background() }()
	if f, ok := figures[name]; ok {
		return f.run(name, out, rest)
	}
	group := figureNames(name + "-")
	if len(group) == 0 {
		return fmt.Errorf("unknown figure %q (dpb reproduce -list)", name)
	}
	for _, n := range group {
		fmt.Fprintf(os.Stderr, "== %s\n", n)
		if err := figures[n].run(n, out, rest); err != nil {
			return fmt.Errorf("%s: %w", n, err)
		}
	}
	return nil
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
