// Command dpb runs the experiments, bounds, benchmarks and proof checks of
// package dpb from the command line.
//
//	dpb reproduce NAME [flags]   regenerate a paper figure (into out/figures; -out figures for the committed ones)
//	dpb slurm NAME [flags]       print an sbatch script: the figure's shards as a job array, then the merge
//	dpb store [-clean] DIR       list a job store's done and missing jobs, verifying every file's SHA-256
//	dpb verify FILE.json ...     check result JSONs: a figure set's files (SHA-256, inside its folder), a check or audit JSON's verdicts, every JSON's content hash
//	dpb check PAPER [flags]      run the proof checks and print verdicts
//	dpb audit [NAME...] [flags]  audit every mechanism's privacy empirically and print the table
//	dpb bounds [flags]           print SS18's constants and bounds for a setting
//	dpb bench [flags]            time the bandit loop on one core
//	dpb data fetch [obd|uci|all] download the public data (checksums pinned)
//	dpb data dir                 print the data directory the commands and notebooks read
//	dpb course [NOTEBOOK...]     write the student versions of the notebooks (-out DIR), the index (-index FILE)
//	dpb version                  the version, and the commit of a stamped build (also -version)
//
//	dpb help [COMMAND]           the commands, or one command's flags
//
// Run "dpb COMMAND -h" for a command's flags and limits.
package main

import (
	"fmt"
	"io"
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

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: dpb COMMAND [NAMES] [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nConventions: Go flag syntax (-x v, -x=v, --x); names first, flags after them; counts accept 2e4")
	fmt.Fprintln(w, "when exact; -h exits 0, usage errors exit 2, failures exit 1. \"dpb help COMMAND\" or \"dpb COMMAND -h\".")
}

func init() {
	register("help", "show the commands, or a command's usage (dpb help COMMAND)", runHelp)
}

func runHelp(args []string) error {
	switch len(args) {
	case 0:
		usage(os.Stdout)
		return nil
	case 1:
		switch args[0] {
		case "help", "-h", "--h", "-help", "--help":
			usage(os.Stdout)
			return nil
		}
		c, ok := commands[args[0]]
		if !ok {
			return usagef("help: unknown command %q%s", args[0], suggest(args[0]))
		}
		return c.run([]string{"-h"})
	}
	return usagef("help: unexpected argument %q (dpb help COMMAND)", args[1])
}

func main() {
	os.Exit(runMain(os.Args[1:], os.Stderr))
}

// runMain runs the command line args (without the program name) and returns
// the exit status: 0 success or -h, 1 failure, 2 usage error.
func runMain(args []string, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "--h", "-help", "--help":
		usage(os.Stdout)
		return 0
	case "-version", "--version":
		args[0] = "version"
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "dpb: unknown command %q%s\n", args[0], suggest(args[0]))
		usage(stderr)
		return 2
	}
	maxMemory, readyCmd = 0, args[0] // -max-memory is each command line's own
	return exitCode(runCommand(c, args[1:]), stderr)
}

// runCommand runs c and turns a panic of the command's goroutine into an
// error (exit status 1), the last resort: inputs in range must not panic,
// and the causes found are fixed where they are. A panic in a worker
// goroutine still ends the process.
func runCommand(c command, args []string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v (a bug in dpb: please report it with the command line)", r)
		}
	}()
	return c.run(args)
}

// suggest returns "; did you mean X?" for the command nearest to name (a
// prefix of it, or at most two edits away), or "".
func suggest(name string) string {
	best, bestD := "", 3
	for c := range commands {
		d := editDistance(name, c)
		if strings.HasPrefix(c, name) && len(name) >= 3 {
			d = min(d, 1)
		}
		if d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}

// editDistance is the Levenshtein distance of a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
