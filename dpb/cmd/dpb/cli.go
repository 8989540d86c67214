package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
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
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// flag.Parse writes its message and the usage to Output on any error;
	// parseArgs shows that text only for -h (errors are returned and printed
	// once by main).
	fs.SetOutput(new(bytes.Buffer))
	memoryVar(fs)
	readyCmd = name
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "usage: dpb %s %s\n", name, synopsis)
		if doc != "" {
			fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(doc))
		}
		fmt.Fprintln(w, "\nflags:")
		fs.PrintDefaults()
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
			buf, _ := fs.Output().(*bytes.Buffer)
			if errors.Is(err, flag.ErrHelp) {
				if buf != nil {
					os.Stdout.Write(buf.Bytes())
				}
				return nil, flag.ErrHelp
			}
			if buf != nil {
				buf.Reset()
			}
			return nil, usageError{fmt.Errorf("%s: %w (dpb %s -h)", fs.Name(), err, fs.Name())}
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
		return usagef("%s: unexpected argument %q (flags start with -; dpb %s -h)", fs.Name(), pos[0], fs.Name())
	}
	return nil
}

// intFlag is an integer flag in [min, max] that also accepts an exact
// integer in floating-point notation (2e4, 1.5e3); 2.7 or 1e30 is refused
// with the flag's name, its value and the allowed range.
type intFlag struct {
	p        *int
	min, max int
	// orZero accepts 0 too: the flag's "use the default" value, below a
	// range that starts higher (-n 0 or 2..: a horizon of 1 is not one).
	orZero bool
}

func (f intFlag) String() string {
	if f.p == nil {
		return "0"
	}
	return strconv.Itoa(*f.p)
}

func (f intFlag) Set(s string) error {
	lo := float64(f.min)
	if f.orZero {
		lo = 0
	}
	v, err := parseCount(s, lo, float64(f.max))
	if err == nil && f.orZero && v != 0 && v < int64(f.min) {
		err = fmt.Errorf("%s is outside [%d, %s] (or 0: the default)", s, f.min, fmtCount(float64(f.max)))
	}
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
	if !plainNumber(s) {
		return 0, fmt.Errorf("%q is not a decimal number", s)
	}
	if v != math.Trunc(v) {
		return 0, fmt.Errorf("%s is not an integer", s)
	}
	if !(v >= lo && v <= hi) {
		return 0, fmt.Errorf("%s is outside [%s, %s]", s, fmtCount(lo), fmtCount(hi))
	}
	return int64(v), nil
}

// plainNumber reports whether s avoids the forms strconv accepts beside
// decimal notation: digit separators (ParseFloat reads "1_0" as 10) and
// hexadecimal ("0x1p-2"; ParseUint with base 0, as flag.Uint64 calls it,
// also reads "010" as 8, where seedVar, parsing base 10, reads 10).
func plainNumber(s string) bool { return !strings.ContainsAny(s, "_xXpP") }

// floatFlag is a float flag parsed strictly (see plainNumber); NaN and ±Inf
// parse, for the command's own finiteness check to name.
type floatFlag struct{ p *float64 }

func (f floatFlag) String() string {
	if f.p == nil {
		return "0"
	}
	return strconv.FormatFloat(*f.p, 'g', -1, 64)
}

func (f floatFlag) Set(s string) error {
	if !plainNumber(s) {
		return fmt.Errorf("%q is not a decimal number", s)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("%q is not a number", s)
	}
	*f.p = v
	return nil
}

// floatVar defines a float flag parsed strictly (fs.Float64 reads "1_0" as
// 10).
func floatVar(fs *flag.FlagSet, name string, value float64, usage string) *float64 {
	p := new(float64)
	*p = value
	fs.Var(floatFlag{p}, name, usage)
	return p
}

// seedFlag is a seed: an exact decimal integer (fs.Uint64 parses with base
// 0: "010" is 8, "0x10" 16 and "1_0" 10).
type seedFlag struct{ p *uint64 }

func (f seedFlag) String() string {
	if f.p == nil {
		return "0"
	}
	return strconv.FormatUint(*f.p, 10)
}

func (f seedFlag) Set(s string) error {
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return fmt.Errorf("%q is not an integer in [0, 2^64): a seed is an exact decimal integer", s)
	}
	*f.p = v
	return nil
}

// seedVar defines the seed flag -name (decimal digits only).
func seedVar(fs *flag.FlagSet, p *uint64, name string, value uint64, usage string) {
	*p = value
	fs.Var(seedFlag{p}, name, usage)
}

func fmtCount(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e16 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// countVar defines an integer flag in [min, max] accepting 2e4-style values.
func countVar(fs *flag.FlagSet, p *int, name string, value, min, max int, usage string) {
	*p = value
	fs.Var(intFlag{p: p, min: min, max: max}, name, fmt.Sprintf("%s (%s..%s)", usage, fmtCount(float64(min)), fmtCount(float64(max))))
}

// defaultOrVar defines an integer flag that is 0 (the default, or "none")
// or in [min, max], accepting 2e4-style values.
func defaultOrVar(fs *flag.FlagSet, p *int, name string, value, min, max int, usage string) {
	*p = value
	fs.Var(intFlag{p: p, min: min, max: max, orZero: true}, name, fmt.Sprintf("%s (0 or %s..%s)", usage, fmtCount(float64(min)), fmtCount(float64(max))))
}

// exitCode maps a command's error to the process status and prints it once.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	if errors.Is(err, flag.ErrHelp) || errors.Is(err, errDryRun) {
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

// Resource limits of the command line, stated in every -h: each bounds a
// flag before anything proportional to it is allocated.
const (
	maxHorizon     = 1_000_000_000 // n, T, delays: rounds of one run
	maxRuns        = 100_000       // independent runs
	maxWorkers     = 1024          // goroutines
	maxFig1Actions = 100_000       // SS18 Fig. 1: K points in R³
	maxExp1Dim     = 128           // SS18 Exp. 1: d, with K = d² actions of d numbers
	maxRhos        = 64            // SS18 Fig. 5: ρ_min values
	maxAS17Horizon = 1 << 26       // AS17 horizons
	maxAS17Dim     = 16            // AS17 N (EXP2 and the cube enumerate up to 2^N actions)
	maxBenchDim    = 128           // dpb bench d
	maxBenchK      = 1 << 16       // dpb bench K
	maxBenchCells  = 1 << 22       // dpb bench d·K (the decision set's numbers)
	maxCheckDim    = 64            // dpb check d
	maxCheckN      = 100_000_000   // dpb check n (tree horizon; the paper's 5e7 runs sharded, -store)
	maxCheckReps   = 100_000       // dpb check reps
	maxCheckTrials = 10_000_000    // dpb check trials
	maxBoundsDim   = 1_000_000     // dpb bounds d (formulas only)
	maxBoundsN     = 100_000_000   // dpb bounds n (2× the paper's; the counter calibrations are O(n): 1e10 ran for minutes)
	maxAuditTrials = 100_000_000   // dpb audit trials
	maxShards      = 100_000       // dpb slurm shards
	maxSlurmMemMB  = 10_000_000    // dpb slurm memory per job
	minEpsilon     = 1e-6          // ε lists
	maxEpsilon     = 1e6
)

// figureFlags returns the flag set of "dpb reproduce NAME": -out is handled
// by reproduce and listed here for -h.
func figureFlags(name string) *flag.FlagSet {
	fs := newFlags("reproduce "+name, "[flags]", figures[name].Summary)
	fs.String("out", defaultOut, "output directory: NAME.svg, .png, .csv, .json go there; -out figures replaces the committed figures")
	return fs
}

// parseFigure parses a figure's flags and refuses positional arguments.
func parseFigure(fs *flag.FlagSet, args []string) error {
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	return noArgs(fs, pos)
}

// progressVar defines -progress: a progress bar on stderr, by default only
// when stderr is a terminal (never into a redirected file).
func progressVar(fs *flag.FlagSet, p *bool) {
	fs.BoolVar(p, "progress", isTerminal(os.Stderr), "progress bar on stderr (default: when stderr is a terminal)")
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// splitList splits the list flag -name at commas: at most 1000 entries.
func splitList(name, s string) ([]string, error) {
	parts := strings.Split(s, ",")
	if len(parts) > 1000 {
		return nil, usagef("invalid value for flag -%s: %d entries, at most 1000", name, len(parts))
	}
	return parts, nil
}

// parseFloatList parses the list flag -name, "0.1,1,10": each entry a
// finite number in [lo, hi]; at most 1000 entries.
func parseFloatList(name, s string, lo, hi float64) ([]float64, error) {
	parts, err := splitList(name, s)
	if err != nil {
		return nil, err
	}
	v := make([]float64, 0, len(parts))
	for _, f := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !plainNumber(f) || !(x >= lo && x <= hi) {
			return nil, usagef("invalid value %q for flag -%s: entry %q, want a number in [%g, %g]", s, name, strings.TrimSpace(f), lo, hi)
		}
		v = append(v, x)
	}
	return v, nil
}

// parseCountList parses the list flag -name, "0,100,1000": each entry an
// exact integer in [lo, hi] (2.7 is refused, not truncated).
func parseCountList(name, s string, lo, hi int) ([]int, error) {
	parts, err := splitList(name, s)
	if err != nil {
		return nil, err
	}
	v := make([]int, 0, len(parts))
	for _, f := range parts {
		x, err := parseCount(strings.TrimSpace(f), float64(lo), float64(hi))
		if err != nil {
			return nil, usagef("invalid value %q for flag -%s: %v", s, name, err)
		}
		v = append(v, int(x))
	}
	return v, nil
}

// finiteFlags refuses NaN and ±Inf values of fs's float flags, naming the
// flag.
func finiteFlags(fs *flag.FlagSet, vals map[string]float64) error {
	names := make([]string, 0, len(vals))
	for n := range vals {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if v := vals[n]; math.IsNaN(v) || math.IsInf(v, 0) {
			return usagef("%s: invalid value %v for flag -%s: want a finite number", fs.Name(), v, n)
		}
	}
	return nil
}

// errDryRun ends a command after its flags are parsed and checked, when
// dryRun is set (the fuzz test of the command line runs every command
// in-process without doing its work).
var (
	dryRun    bool
	errDryRun = errors.New("dry run: flags accepted")
)

// ready is called by every command just before its work starts, with the
// memory its flags need: above the limit it refuses (see checkMemory). A
// figure run to estimate its jobs (runEstimate: reproduce and slurm plan
// with it) records its parts instead, to be checked with its job lists.
func ready(est memEstimate) error {
	switch {
	case runEstimate != nil:
		estimateParts = append(estimateParts, est...)
	case dryRun:
		// A flag check (reproduce checks every figure's flags first, then
		// their memory with their job lists).
		return errDryRun
	default:
		if err := checkMemory(readyCmd, est); err != nil {
			return err
		}
	}
	return nil
}

// readyCmd names the command running, for checkMemory's message.
var readyCmd = "dpb"
