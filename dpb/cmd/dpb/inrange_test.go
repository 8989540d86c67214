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
