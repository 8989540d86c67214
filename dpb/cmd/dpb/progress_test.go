package main

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dpbandits/dpbandits/dpb/check"
	"github.com/dpbandits/dpbandits/dpb/harness"
)

// lockedBuffer is a bytes.Buffer safe for the stage bar's ticker and the
// test reading it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// captureProgress sends the progress lines of check and audit to a buffer,
// redrawn every millisecond, for the test's duration.
func captureProgress(t *testing.T) *lockedBuffer {
	t.Helper()
	out, every := progressOut, progressEvery
	t.Cleanup(func() { progressOut, progressEvery = out, every })
	buf := &lockedBuffer{}
	progressOut, progressEvery = buf, time.Millisecond
	return buf
}

// TestProgressDefault: -progress defaults to whether stderr is a terminal,
// so a redirected run never gets bar lines in its log.
func TestProgressDefault(t *testing.T) {
	fs := newFlags("x", "", "")
	p := new(bool)
	progressVar(fs, p)
	if *p != isTerminal(os.Stderr) || fs.Lookup("progress").DefValue != map[bool]string{true: "true", false: "false"}[isTerminal(os.Stderr)] {
		t.Errorf("-progress default %v, stderr a terminal: %v", *p, isTerminal(os.Stderr))
	}
}

// TestAuditProgress: with -progress, dpb audit draws a line that names each
// audit as it runs and ends at n/n, and prints the same table as without;
// without -progress it draws nothing.
func TestAuditProgress(t *testing.T) {
	args := []string{"-json", "-trials", "2000", "laplace-tree-plain", "fp-attack-default"}
	var tables [2]string
	for i, progress := range []bool{false, true} {
		buf := captureProgress(t)
		var b bytes.Buffer
		if err := runAudit(&b, append([]string{"-progress=" + map[bool]string{true: "true", false: "false"}[progress]}, args...)); err != nil {
			t.Fatal(err)
		}
		tables[i] = b.String()
		got := buf.String()
		drawn := strings.Contains(got, "2/2 audits") && strings.Contains(got, ": laplace-tree-plain") &&
			strings.Contains(got, "1/2 audits") && strings.Contains(got, ": fp-attack-default")
		if drawn != progress || (!progress && got != "") {
			t.Errorf("-progress=%v: progress output %q", progress, got)
		}
	}
	if tables[0] != tables[1] {
		t.Errorf("the table differs with -progress:\n%s\nwithout:\n%s", tables[1], tables[0])
	}
}

// TestCheckProgress: with -progress, dpb check draws a line naming the
// paper under way, with the bar of the job list the ss18 checks run under
// the plan (so it moves within the paper, and within a job through
// Job.Advance); without -progress nothing is drawn and the plan has no
// Progress.
func TestCheckProgress(t *testing.T) {
	for _, progress := range []bool{false, true} {
		useFakeChecks(t)
		buf := captureProgress(t)
		var during string
		checkSS18 = func(c check.SS18Config) (check.Verdicts, error) {
			_, err := harness.RunTrials(harness.TrialConfig{Reps: 1, Series: 1, Points: 1, RunOptions: harness.RunOptions{Workers: 1, Plan: c.Plan}, Label: "stub-list", Rounds: 10},
				func(job harness.Job, out []float64) error {
					job.Advance(5)
					// Wait for a redraw showing the job half done (at most 10 s;
					// without -progress there is none to wait for).
					for i := 0; progress && i < 10000; i++ {
						if during = buf.String(); strings.Contains(during, "stub-list [") {
							break
						}
						time.Sleep(time.Millisecond)
					}
					return nil
				})
			return check.Verdicts{{Name: "stub", Reference: "stub", Trials: 1, Pass: true}}, err
		}
		var b bytes.Buffer
		arg := "-progress=" + map[bool]string{true: "true", false: "false"}[progress]
		if err := runCheck(&b, []string{"all", arg}); err != nil {
			t.Fatal(err)
		}
		got := buf.String()
		inJob := strings.Contains(during, "check ss18 · stub-list [") && strings.Contains(during, "0/1 jobs, 50 %")
		drawn := inJob && strings.Contains(got, ": check mt14") && strings.Contains(got, ": check as17") && strings.Contains(got, "3/3 papers")
		if drawn != progress || (!progress && got != "") {
			t.Errorf("-progress=%v: during the job …%q, in all …%q", progress, tail(during), tail(got))
		}
	}
}

// tail is the end of a progress log, for failure messages.
func tail(s string) string { return s[max(0, len(s)-400):] }
