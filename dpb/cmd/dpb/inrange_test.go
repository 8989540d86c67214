package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runDPB runs this test binary as "dpb args..." in a process of its own
// (a panic there cannot stop the test) and returns its exit status and
// stderr.
func runDPB(t *testing.T, args ...string) (int, string) {
	t.Helper()
	cmd := dpbCmd(args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	code := 0
	if err != nil {
		code = -1
		if cmd.ProcessState != nil {
			code = cmd.ProcessState.ExitCode()
		}
	}
	return code, stderr.String()
}

// noPanic fails when stderr shows a Go panic or a goroutine dump.
func noPanic(t *testing.T, args []string, stderr string) {
	t.Helper()
	if strings.Contains(stderr, "panic:") || strings.Contains(stderr, "goroutine ") {
		t.Errorf("dpb %s printed a panic:\n%s", strings.Join(args, " "), stderr)
	}
}

// The figures of MT14 Fig. 1's arms at the smallest horizon in range,
// -n 2, draw their figure, from a run and from a merge of its store: their
// log-scale regret axis holds one positive value, on which gonum/plot
// panicked (exit 2, like a usage error).
func TestTinyHorizonFigures(t *testing.T) {
	for _, fig := range []string{"mt14-fig1-k5", "mt14-fig1-k10", "private-mab-k5", "private-mab-k10"} {
		t.Run(fig, func(t *testing.T) {
			dir := t.TempDir()
			S, A, B := filepath.Join(dir, "S"), filepath.Join(dir, "A"), filepath.Join(dir, "B")
			for _, args := range [][]string{
				{"reproduce", fig, "-n", "2", "-runs", "2", "-store", S, "-out", A},
				{"reproduce", fig, "-n", "2", "-runs", "2", "-store", S, "-merge", "-out", B},
			} {
				code, stderr := runDPB(t, args...)
				noPanic(t, args, stderr)
				if code != 0 {
					t.Fatalf("dpb %s: exit %d: %s", strings.Join(args, " "), code, stderr)
				}
			}
			for _, d := range []string{A, B} {
				if fi, err := os.Stat(filepath.Join(d, fig+".svg")); err != nil || fi.Size() == 0 {
					t.Errorf("%s: no figure drawn (%v)", d, err)
				}
			}
		})
	}
}

// The smallest values of flags whose range used to start below what the
// figure or check accepts: each is a usage error (exit 2) naming the flag,
// not a failure (exit 1) after the work started with a library's message
// ("alpha defaults to 1/n = 1 … set Alpha" on a figure with no -alpha).
func TestFlagFloorsAreUsageErrors(t *testing.T) {
	out := t.TempDir()
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"reproduce", "ss18-fig4", "-short", "-n", "1"}, "flag -n: 1 is outside [2, 1000000000] (or 0: the default)"},
		{[]string{"reproduce", "ss18-fig5", "-short", "-n", "1"}, "flag -n: 1 is outside [2,"},
		{[]string{"reproduce", "ss18-fig5", "-short", "-rhos", "1"}, "flag -rhos: 1 is outside [2, 64]"},
		{[]string{"reproduce", "secure-regret", "-short", "-n", "1"}, "flag -n: 1 is outside [2,"},
		{[]string{"reproduce", "beyond-ss18", "-short", "-n", "1"}, "flag -n: 1 is outside [2,"},
		{[]string{"reproduce", "beyond-mt14", "-short", "-n", "1"}, "flag -n: 1 is outside [2,"},
		{[]string{"reproduce", "mt14-fig1-k5", "-short", "-n", "1"}, "flag -n: 1 is outside [2,"},
		{[]string{"reproduce", "private-mab-k5", "-short", "-n", "1"}, "flag -n: 1 is outside [2,"},
		{[]string{"reproduce", "private-mab-k5", "-short", "-algs", "dp-se"}, `flag -algs: unknown algorithm "dp-se"`},
		{[]string{"reproduce", "private-mab-k5", "-short", "-eps", "0.5"}, "flag -eps: the panels need ε = 0.1, 1 and 10"},
		{[]string{"reproduce", "ss18-fig1", "-gap", "1.5"}, "flag -gap: want a gap in [0, 1.5)"},
		{[]string{"reproduce", "as17-table1", "-short", "-dim", "1"}, "flag -dim: 1 is outside [2, 16]"},
		{[]string{"reproduce", "as17-table1", "-short", "-epsn", "1"}, "flag -epsn: 1 is outside [3,"},
		{[]string{"check", "ss18", "-short", "-n", "1"}, "flag -n: 1 is outside [2,"},
		{[]string{"check", "ss18", "-short", "-d", "1"}, "flag -d: 1 is outside [2, 64]"},
		{[]string{"check", "ss18", "-short", "-mineig", "-policyn", "1"}, "flag -policyn: 1 is outside [2,"},
		{[]string{"check", "mt14", "-short", "-reps", "1"}, "check mt14: invalid value 1 for flag -reps"},
		{[]string{"check", "mt14", "-short", "-trials", "9"}, "check mt14: invalid value 9 for flag -trials"},
		{[]string{"check", "as17", "-short", "-reps", "1"}, "check as17: invalid value 1 for flag -reps"},
		{[]string{"check", "as17", "-short", "-trials", "99"}, "check as17: invalid value 99 for flag -trials"},
		{[]string{"audit", "-short", "-trials", "1"}, "flag -trials: 1 is outside [2,"},
		{[]string{"bench", "-d", "1", "-rounds", "10"}, "flag -d: 1 is outside [2, 128]"},
		{[]string{"bench", "-fig4", "-rounds", "1", "-horizon", "1"}, "flag -horizon: 1 is outside [2,"},
	} {
		var stderr bytes.Buffer
		args := append(c.args, "-out", out)
		if c.args[0] != "reproduce" {
			args = c.args
		}
		code := runMain(args, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), c.msg) {
			t.Errorf("dpb %s: exit %d, stderr %q; want exit 2 and %q", strings.Join(c.args, " "), code, stderr.String(), c.msg)
		}
	}
}

// Flags at the edge of their range that made a figure fail or panic after
// its work: one dimension in ss18-fig2 (its JSON's fitted slope was NaN:
// "json: unsupported value: NaN", exit 1) and beyond-as17 with -sqrtn
// below every horizon (the square-root counter runs at no T: a nil pointer
// in the table).
func TestEdgeFlagsDrawTheirFigure(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"reproduce", "ss18-fig2", "-short", "-dims", "2", "-n", "2", "-runs", "1", "-out", dir},
		{"reproduce", "beyond-as17", "-short", "-sqrtn", "1", "-n", "256", "-minn", "64", "-runs", "2", "-out", dir},
	} {
		code, stderr := runDPB(t, args...)
		noPanic(t, args, stderr)
		if code != 0 {
			t.Errorf("dpb %s: exit %d: %s", strings.Join(args, " "), code, stderr)
		}
	}
}
