package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// Flags in range whose run would not fit in memory are refused before the
// work starts, with a usage error (exit 2) naming the flags, the estimate
// and the limit: dpb check ss18 -reps 2000 -n 65536 allocated 37.7 GB up
// front, dpb audit -trials 1e8 ran out of memory. -max-memory sets the
// limit (its default is machine-dependent, so the test gives it).
func TestMemoryBudgetRefuses(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	many := strings.Repeat("0.5,", 996) + "1"
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"check", "ss18", "-reps", "2000", "-n", "65536", "-max-memory", "4G"}, "-n × -reps: the tree checks' ratios"},
		{[]string{"check", "ss18", "-trees", "-n", "1e8", "-reps", "1e5", "-max-memory", "64MiB"}, "-reps: the tree checks' per-run summaries"},
		{[]string{"check", "mt14", "-trials", "1e7", "-max-memory", "256MiB"}, "-trials: the counter checks' trees"},
		{[]string{"audit", "-trials", "1e8", "-max-memory", "4G"}, "-trials: each audit's scores"},
		{[]string{"reproduce", "beyond-counters", "-maxlog", "30", "-max-memory", "4G", "-out", out}, "-maxlog: the counters' exact variance profiles"},
		{[]string{"reproduce", "mt14-fig1-k5", "-n", "1e9", "-delay", "1e9", "-max-memory", "4G", "-out", out}, "-delay, -n, -workers: each worker's delay buffer"},
		{[]string{"reproduce", "ss18-fig2", "-dims", "128", "-workers", "1024", "-max-memory", "4G", "-out", out}, "-dims, -workers: each worker's decision set"},
		{[]string{"reproduce", "ss18-fig4", "-runs", "1e5", "-max-memory", "256MiB", "-out", out}, "-runs: the runs' recorded values"},
		{[]string{"reproduce", "private-mab-k5", "-runs", "1e5", "-eps", many + ",0.1,10", "-max-memory", "1G", "-out", out}, "-runs: the runs' recorded values"},
		{[]string{"reproduce", "as17-table1", "-dim", "16", "-workers", "1024", "-max-memory", "4G", "-out", out}, "-dim, -sqrtn, -workers"},
		{[]string{"reproduce", "ss18-fig1", "-k", "1e5", "-max-memory", "64MiB", "-out", out}, "-k: the decision set"},
		{[]string{"bench", "-d", "128", "-K", "32768", "-max-memory", "64MiB"}, "-d, -K: the decision set"},
	} {
		var stderr bytes.Buffer
		code := runMain(c.args, &stderr)
		msg := stderr.String()
		if code != 2 || !strings.Contains(msg, c.msg) || !strings.Contains(msg, "of memory, above the limit of") || !strings.Contains(msg, "(-max-memory)") {
			t.Errorf("dpb %s: exit %d, stderr %q; want exit 2 naming %q, the estimate and the limit", strings.Join(c.args, " "), code, msg, c.msg)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused reproduce created its output directory")
	}
}

// A refused command allocates nothing in proportion to its flags first but
// a few bytes a job: the reproduce refusal sizes the figure's job lists
// under an estimate plan, whose jobs share one row of values (100,000 runs
// of 8 series at 1000 points would be 6.4 GB; the figure's own slice
// headers, 24 bytes a job, are the 26 MB left).
func TestMemoryRefusalAllocatesLittle(t *testing.T) {
	out := t.TempDir()
	for _, args := range [][]string{
		{"reproduce", "ss18-fig4", "-paper", "-runs", "1e5", "-max-memory", "256MiB", "-out", out},
		{"check", "ss18", "-reps", "1e5", "-n", "65536", "-max-memory", "4G"},
		{"audit", "-trials", "1e8", "-max-memory", "4G"},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		var stderr bytes.Buffer
		code := runMain(args, &stderr)
		runtime.ReadMemStats(&after)
		if code != 2 || !strings.Contains(stderr.String(), "above the limit") {
			t.Errorf("dpb %s: exit %d, %q; want a refusal", strings.Join(args, " "), code, stderr.String())
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 32<<20 {
			t.Errorf("dpb %s: allocated %d MB before refusing", strings.Join(args, " "), got>>20)
		}
	}
}

// Under an address-space limit (ulimit -v) the default budget follows it:
// a run that would exceed it is refused with exit 2 and the limit named,
// not killed by the runtime's "fatal error: out of memory" (which also
// exits 2, with a goroutine dump), and a small run still runs.
func TestMemoryBudgetUnderUlimit(t *testing.T) {
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("no bash for ulimit")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	const ulimitKB = 3 << 20 // 3 GiB: the default budget is then 1 GiB
	run := func(args ...string) (int, string) {
		cmd := dpbCmd()
		cmd.Path = "/bin/bash"
		cmd.Args = append([]string{"bash", "-c", "ulimit -v " + strconv.Itoa(ulimitKB) + " && exec \"$0\" \"$@\"", self}, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		cmd.Run()
		return cmd.ProcessState.ExitCode(), stderr.String()
	}
	for _, args := range [][]string{
		{"check", "ss18", "-reps", "2000", "-n", "65536"},
		{"audit", "-trials", "1e8"},
		{"reproduce", "beyond-counters", "-maxlog", "28", "-out", t.TempDir()},
	} {
		code, msg := run(args...)
		noPanic(t, args, msg)
		if code != 2 || !strings.Contains(msg, "above the limit of") || !strings.Contains(msg, "(-max-memory's default: the address-space limit (ulimit -v) less 2 GiB)") {
			t.Errorf("ulimit -v %d; dpb %s: exit %d, stderr %q; want exit 2 and the budget's refusal", ulimitKB, strings.Join(args, " "), code, msg)
		}
	}
	if code, msg := run("check", "ss18", "-short", "-trials", "200", "-policyn", "100", "-reps", "4", "-n", "64"); code != 0 {
		t.Errorf("ulimit -v %d; a small check: exit %d: %s", ulimitKB, code, msg)
	}
}
