package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// FuzzCommandLine runs random command lines of every subcommand in-process
// with dryRun set (each command stops after its flags are parsed and
// checked): no input may panic, the exit status is 0, 1 or 2, an error is
// printed once with one "dpb: " prefix, and a usage error names something.
func FuzzCommandLine(f *testing.F) {
	for _, s := range []string{
		"bounds -n 5e7 -eps 1 -delta 0.1 -Lt2 2 -json",
		"bounds -eps 1e-8",
		"bounds -n=2.5",
		"bench -alg wishart -d 1e6 -K 25",
		"bench --d=5 --K=25 --rounds=2e5 --env=false",
		"check ss18 -short -n 1e18",
		"check ss18 -d 64 -trials 2e4 -json",
		"check mt14",
		"reproduce ss18-fig1 -k 2e3 -azimuth NaN",
		"reproduce ss18-fig2 -dims 4,8,1000000",
		"reproduce ss18-fig4 -n -5 -runs 0 -plotto 2e7 -paper",
		"reproduce ss18-fig5 -rhos 8 -short",
		"reproduce ss18 -short -out=/nonexistent/x",
		"reproduce mt14-fig1-k5 -delay 10 -eps 0.1,1,10",
		"reproduce mt14-fig2-shuttle -delays 2.7 -data /nonexistent",
		"reproduce mt14-fig2-obd -campaign kids",
		"reproduce as17-table1 -short -minn 0",
		"reproduce as17-table2 -dim 1000000 -kind worst-case -epssweep 0.1,NaN",
		"reproduce as17 -n 4096 -minn 256 -- -stray",
		"data fetch uci -dir /nonexistent -manifest /nonexistent.json",
		"data dir extra",
		"help reproduce",
		"check all -reps 1e9",
		"store /nonexistent extra",
		"reproduce private-mab-k5 -eps 0.1,1,10 -algs x",
		"audit -short -trials 2e3 laplace-tree-plain",
		"slurm ss18-fig4 -short -shards 4 -store /nonexistent -mem -1",
		"reproduce beyond-counters -maxlog 99 -eps NaN",
		"reproduce mt14-fig2-obd-bts -pmin NaN",
		"nope -h",
	} {
		f.Add(s)
	}
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		f.Fatal(err)
	}
	defer devnull.Close()
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		if len(args) > 64 {
			args = args[:64]
		}
		dryRun = true
		stdout := os.Stdout
		os.Stdout = devnull
		var stderr bytes.Buffer
		code := runMain(args, &stderr)
		os.Stdout = stdout
		dryRun = false
		msg := stderr.String()
		if code < 0 || code > 2 {
			t.Fatalf("dpb %q: exit status %d", args, code)
		}
		if strings.Count(msg, "dpb: ") > 1 {
			t.Fatalf("dpb %q: more than one prefix in %q", args, msg)
		}
		if code == 2 && strings.TrimSpace(msg) == "" {
			t.Fatalf("dpb %q: usage error with no message", args)
		}
	})
}
