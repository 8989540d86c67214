package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// The command-line convention every subcommand follows:
//
//   - Go's flag syntax: -x v, -x=v, --x, --x=v; names (the figure, the paper,
//     the data set) come first, and flags after them work too;
//   - -h/-help prints the usage to stdout and exits 0; a usage error (unknown
//     flag, bad value, stray argument) exits 2; a failure exits 1;
//   - every error is printed once with the prefix "dpb: ".
//
// newFlags returns a FlagSet for the command "dpb NAME" whose -h prints
// usage (one line: the synopsis), doc and the flags.
func newFlags(name, synopsis, doc string) *flag.FlagSet {
	fs := flag.NewFlagSet("dpb "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are returned and printed once by main
	fs.Usage = func() {
		w := os.Stdout
		fmt.Fprintf(w, "usage: dpb %s %s\n", name, synopsis)
		if doc != "" {
			fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(doc))
		}
		fmt.Fprintln(w, "\nflags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	return fs
}

// usageError marks an error in the command line (exit status 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usagef returns a usage error.
func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// parseArgs parses flags anywhere in args (names first, flags after them, or
// mixed; "--" ends the flags) and returns the positional arguments. -h
// prints the usage and returns flag.ErrHelp; other flag errors are usage
// errors.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, flag.ErrHelp // Parse printed the usage
			}
			return nil, usageError{fmt.Errorf("%s: %w (dpb %s -h)", fs.Name(), err, strings.TrimPrefix(fs.Name(), "dpb "))}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// noArgs refuses stray positional arguments.
func noArgs(fs *flag.FlagSet, pos []string) error {
	if len(pos) > 0 {
		return usagef("%s: unexpected argument %q (flags start with -; dpb %s -h)", fs.Name(), pos[0], strings.TrimPrefix(fs.Name(), "dpb "))
	}
	return nil
}

// intFlag is an integer flag in [min, max] that also accepts an exact
// integer in floating-point notation (2e4, 1.5e3); 2.7 or 1e30 is refused
// with the flag's name, its value and the allowed range.
type intFlag struct {
	p        *int
	min, max int
}

func (f intFlag) String() string {
	if f.p == nil {
		return "0"
	}
	return strconv.Itoa(*f.p)
}

func (f intFlag) Set(s string) error {
	v, err := parseCount(s, float64(f.min), float64(f.max))
	if err != nil {
		return err
	}
	*f.p = int(v)
	return nil
}

// parseCount parses an exact integer (decimal or like 2e4) in [lo, hi].
func parseCount(s string, lo, hi float64) (int64, error) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		if !(float64(i) >= lo && float64(i) <= hi) {
			return 0, fmt.Errorf("%s is outside [%s, %s]", s, fmtCount(lo), fmtCount(hi))
		}
		return i, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not an integer", s)
	}
	if v != math.Trunc(v) {
		return 0, fmt.Errorf("%s is not an integer", s)
	}
	if !(v >= lo && v <= hi) {
		return 0, fmt.Errorf("%s is outside [%s, %s]", s, fmtCount(lo), fmtCount(hi))
	}
	return int64(v), nil
}

func fmtCount(v float64) string {
	if v >= 1e6 && v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// countVar defines an integer flag in [min, max] accepting 2e4-style values.
func countVar(fs *flag.FlagSet, p *int, name string, value, min, max int, usage string) {
	*p = value
	fs.Var(intFlag{p, min, max}, name, fmt.Sprintf("%s (%s..%s)", usage, fmtCount(float64(min)), fmtCount(float64(max))))
}

// exitCode maps a command's error to the process status and prints it once.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	fmt.Fprintln(stderr, "dpb: "+oneError(err))
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

// oneError drops the "dpb: " prefixes the package's errors carry, so the
// message shows one.
func oneError(err error) string {
	return strings.ReplaceAll(err.Error(), "dpb: ", "")
}
