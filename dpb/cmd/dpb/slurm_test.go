package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/experiment"
)

// The printed script submits N shards as an array and the merge after them,
// with the figure's flags, estimated limits, overrides, and valid bash.
func TestSlurmScript(t *testing.T) {
	lists, err := estimateJobs("ss18-fig4", []string{"-short", "-seed", "7"})
	if err != nil {
		t.Fatal(err)
	}
	if len(lists) != 1 || lists[0].Label != "ss18-exp2" || lists[0].Shape.Jobs() != 4 || lists[0].Rounds != 20000 {
		t.Fatalf("estimate of ss18-fig4 -short: %+v", lists)
	}
	dir := t.TempDir()
	sf := slurmFlags{shards: 4, cpus: 2, store: filepath.Join(dir, "S"), out: filepath.Join(dir, "B"), dpb: "/opt/dpb"}
	var b bytes.Buffer
	if err := writeSlurmScript(&b, "ss18-fig4", []string{"-short", "-seed", "7"}, sf, lists, []string{"slurm", "ss18-fig4"}); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, want := range []string{
		"#SBATCH --array=0-3",
		"--dependency=afterok:\"$shards\"",
		"#SBATCH --cpus-per-task=2",
		"exec /opt/dpb reproduce ss18-fig4 -short -seed 7 -store " + sf.store + " -shard auto",
		"exec /opt/dpb reproduce ss18-fig4 -short -seed 7 -store " + sf.store + " -merge -out " + sf.out,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("script lacks %q:\n%s", want, s)
		}
	}
	if !regexp.MustCompile(`#SBATCH --time=0-00:0[5-9]:00`).MatchString(s) || !regexp.MustCompile(`#SBATCH --mem=\d+M`).MatchString(s) {
		t.Errorf("no estimated time or memory:\n%s", s)
	}
	if out, err := exec.Command("bash", "-n", "-c", s).CombinedOutput(); err != nil {
		t.Errorf("bash -n: %v\n%s", err, out)
	}
	// Overrides, and a cost estimate that grows with the work.
	sf.wall, sf.memMB = "2-00:00:00", 1500
	b.Reset()
	writeSlurmScript(&b, "ss18-fig4", nil, sf, lists, nil)
	if !strings.Contains(b.String(), "--time=2-00:00:00") || !strings.Contains(b.String(), "--mem=1500M") {
		t.Errorf("-time/-mem not applied:\n%s", b.String())
	}
	big := []experiment.JobList{{Label: "ss18-exp2", Shape: experiment.Shape{Reps: 35, Series: 2, Points: 1000}, Rounds: 50_000_000, RoundCost: 4}}
	s1, _ := shardCost(big, 1, 1)
	s7, _ := shardCost(big, 7, 1)
	if !(s7 < s1/6 && s7 > s1/8) {
		t.Errorf("70 jobs: 1 shard %.0f s, 7 shards %.0f s; want about a seventh", s1, s7)
	}
}

func TestSlurmRejectsOwnFlags(t *testing.T) {
	for _, args := range [][]string{
		{"ss18-fig4", "-short", "-store", "S"},                        // no -shards
		{"ss18-fig4", "-shards", "2"},                                 // no -store
		{"ss18-fig4", "-shards", "2", "-store", "S", "-shard", "0/2"}, // set by the script
		{"nope", "-shards", "2", "-store", "S"},
	} {
		if err := runSlurm(args); err == nil {
			t.Errorf("dpb slurm %v: no error", args)
		}
	}
	if _, err := os.Stat("S"); err == nil {
		t.Error("dpb slurm created the store directory while printing a script")
	}
}

func TestSlurmTime(t *testing.T) {
	for secs, want := range map[float64]string{1: "0-00:01:00", 3600: "0-01:00:00", 3601: "0-01:01:00", 90000: "1-01:00:00"} {
		if got := slurmTime(secs); got != want {
			t.Errorf("slurmTime(%v) = %s, want %s", secs, got, want)
		}
	}
}
