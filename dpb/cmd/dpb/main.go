// Command dpb runs the experiments, bounds, benchmarks and proof checks of
// package dpb from the command line.
//
//	dpb reproduce NAME [flags]   regenerate a paper figure into figures/
//	dpb bounds [flags]           print SS18's constants for a setting
//	dpb bench [flags]            time the bandit loop on one core
//	dpb check PAPER [flags]      run the proof checks and print verdicts
//	dpb data fetch [obd|uci|all] download the public data (checksums pinned)
//
// Run "dpb COMMAND -h" for a command's flags.
package main

import (
	"fmt"
	"os"
	"sort"
	"strings"
)

// command is one subcommand; each lives in its own file and registers itself.
type command struct {
	summary string
	run     func(args []string) error
}

var commands = map[string]command{}

func register(name, summary string, run func(args []string) error) {
	if _, dup := commands[name]; dup {
		panic("dpb: command registered twice: " + name)
	}
	commands[name] = command{summary: summary, run: run}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: dpb COMMAND [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-10s %s\n", n, commands[n].summary)
	}
}

func main() {
	if len(os.Args) < 2 || strings.HasPrefix(os.Args[1], "-") {
		usage()
		os.Exit(2)
	}
	c, ok := commands[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "dpb: unknown command %q\n", os.Args[1])
		usage()
		os.Exit(2)
	}
	os.Exit(exitCode(c.run(os.Args[2:]), os.Stderr))
}
