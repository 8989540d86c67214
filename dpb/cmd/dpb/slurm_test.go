package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/harness"
)

// The printed script submits N shards as an array and the merge after them,
// with the figure's flags, estimated limits, overrides, and valid bash.
func TestSlurmScript(t *testing.T) {
	lists, _, err := estimateJobs("ss18-fig4", []string{"-short", "-seed", "7"})
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
	big := []harness.JobList{{Label: "ss18-exp2", Shape: harness.Shape{Reps: 35, Series: 2, Points: 1000}, Rounds: 50_000_000, RoundCost: 4}}
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

// No flag value can inject a command into the script: control characters
// are refused in every value, -time must be a Slurm time, -partition and
// -account plain names (issue 40, item 3). A stub sbatch used to run
// "touch PWNED" from a newline in -partition.
func TestSlurmRefusesInjection(t *testing.T) {
	dir := t.TempDir()
	pwned := filepath.Join(dir, "PWNED")
	base := []string{"ss18-fig4", "-short", "-shards", "2", "-dpb", "/opt/dpb", "-store", filepath.Join(dir, "S")}
	for _, extra := range [][]string{
		{"-partition", "debug\ntouch " + pwned},
		{"-account", "acct\ntouch " + pwned},
		{"-store", dir + "/S\ntouch " + pwned},
		{"-out", dir + "/B\rtouch " + pwned},
		{"-dpb", "/opt/dpb\x00"},
		{"-seed", "7\nDPB_SHARDS\ntouch " + pwned},
		{"-partition", "a b"},
		{"-partition", "debug;touch"},
		{"-time", "1:00:00\ntouch " + pwned},
		{"-time", "soon"},
		{"-time", "0"},
		{"-time", "1-2:3:4:5"},
	} {
		err := runSlurm(append(append([]string{}, base...), extra...))
		if err == nil || exitCode(err, io.Discard) != 2 {
			t.Errorf("dpb slurm %q: err = %v, want a usage error", extra, err)
		}
	}
	for _, ok := range []string{"90", "30:00", "12:30:00", "2-00", "2-12:00", "1-00:00:00"} {
		if err := checkSlurmValues(slurmFlags{wall: ok, partition: "gpu,cpu", account: "proj-1_x"}, []string{"-seed", "7"}); err != nil {
			t.Errorf("-time %s: %v", ok, err)
		}
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Fatal("PWNED exists")
	}
}

// The script, run by bash with a stub sbatch, passes every value as one
// argument, submits the merge with --kill-on-invalid-dep=yes (a failed shard
// cancels it instead of leaving it pending; item 9), and runs nothing else.
func TestSlurmScriptStubSbatch(t *testing.T) {
	lists, _, err := estimateJobs("ss18-fig4", []string{"-short"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	calls := filepath.Join(dir, "calls")
	stub := "#!/bin/bash\n{ for a in \"$@\"; do printf '[%s]' \"$a\"; done; echo; cat; echo END; } >> " + shellQuote(calls) + "\necho 42\n"
	os.WriteFile(filepath.Join(bin, "sbatch"), []byte(stub), 0o755)
	sf := slurmFlags{shards: 2, cpus: 1, store: filepath.Join(dir, "my store's"), out: filepath.Join(dir, "B $HOME `x`"), dpb: "/opt/d p b", partition: "debug", account: "a-1"}
	var b bytes.Buffer
	if err := writeSlurmScript(&b, "ss18-fig4", []string{"-seed", "$(touch PWNED)"}, sf, lists, []string{"slurm", "ss18-fig4"}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-c", b.String())
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("script: %v\n%s", err, out)
	}
	got, _ := os.ReadFile(calls)
	for _, want := range []string{
		"[--parsable][--partition=debug][--account=a-1][--output=" + sf.store + "/slurm-logs/%x-%A_%a.out]",
		"[--parsable][--dependency=afterok:42][--kill-on-invalid-dep=yes][--partition=debug]",
		"exec '/opt/d p b' reproduce ss18-fig4 -seed '$(touch PWNED)' -store '" + strings.ReplaceAll(sf.store, "'", `'\''`) + "' -shard auto",
		"-merge -out '" + sf.out + "'",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("sbatch calls lack %q:\n%s", want, got)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "PWNED")); err == nil {
		t.Error("PWNED exists")
	}
}

// A % in the store path is a literal in sbatch's --output pattern (%%):
// "100%x" would otherwise have become the job name, and %A, %j the job ids.
// A backslash, which turns sbatch's patterns off, is refused.
func TestSlurmStorePathPercent(t *testing.T) {
	lists, _, err := estimateJobs("ss18-fig4", []string{"-short"})
	if err != nil {
		t.Fatal(err)
	}
	store := filepath.Join(t.TempDir(), "100%x")
	sf := slurmFlags{shards: 2, cpus: 1, store: store, out: "/o", dpb: "/d"}
	var b bytes.Buffer
	if err := writeSlurmScript(&b, "ss18-fig4", nil, sf, lists, []string{"slurm", "ss18-fig4"}); err != nil {
		t.Fatal(err)
	}
	esc := strings.ReplaceAll(store, "%", "%%")
	for _, want := range []string{
		"--output=" + esc + "/slurm-logs/%x-%A_%a.out",
		"--output=" + esc + "/slurm-logs/%x-%j.out",
		"mkdir -p " + store + "/slurm-logs\n",
		"-store " + store + " -shard auto",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("script lacks %q:\n%s", want, b.String())
		}
	}
	var stderr bytes.Buffer
	if code := runMain([]string{"slurm", "ss18-fig4", "-short", "-shards", "2", "-store", `/tmp/a\b`}, &stderr); code != 2 || !strings.Contains(stderr.String(), "holds a backslash") {
		t.Errorf("-store with a backslash: exit %d, %q", code, stderr.String())
	}
}

// Under go run, os.Executable is a temporary binary deleted at exit: dpb
// slurm refuses it and names the go build command (issue 40, item 8).
func TestSlurmGoRunBinary(t *testing.T) {
	for path, want := range map[string]bool{
		"/tmp/go-build1234567/b001/exe/dpb":  true,
		"/var/tmp/go-build99/b001/exe/dpb":   true,
		"/shared/bin/dpb":                    false,
		"/home/u/go/bin/dpb":                 false,
		"/tmp/go-build1234567/b001/dpb.test": false,
	} {
		if goRunBinary(path) != want {
			t.Errorf("goRunBinary(%s) = %v", path, !want)
		}
	}
}

// FuzzSlurmScript: for any flag values, the script writer either refuses
// them (a usage error) or prints a script of the fixed number of lines in
// which each sbatch and exec line splits into exactly the intended words.
func FuzzSlurmScript(f *testing.F) {
	lists := []harness.JobList{{Label: "ss18-exp2", Shape: harness.Shape{Reps: 2, Series: 2, Points: 10}, Rounds: 100, RoundCost: 1}}
	f.Add("/s/S", "/s/B", "/opt/dpb", "debug", "acct", "1:00:00", "-seed", "7")
	f.Add("/s/S\ntouch PWNED", "/s/B", "/opt/dpb", "debug\nx", "", "", "-seed", "7\nDPB_SHARDS")
	f.Add("/s/it's", "/s/$HOME", "/opt/d p b", "", "", "2-00", "-name", "`id`")
	f.Fuzz(func(t *testing.T, store, out, dpb, part, acct, wall, a1, a2 string) {
		sf := slurmFlags{shards: 3, cpus: 1, store: "/" + store, out: "/" + out, dpb: "/" + dpb, partition: part, account: acct, wall: wall}
		fig := []string{a1, a2}
		if err := checkSlurmValues(sf, fig); err != nil {
			if exitCode(err, io.Discard) != 2 {
				t.Fatalf("not a usage error: %v", err)
			}
			return
		}
		var b bytes.Buffer
		if err := writeSlurmScript(&b, "ss18-fig4", fig, sf, lists, []string{"slurm", "ss18-fig4", a1, a2}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(b.String(), "\n")
		if len(lines) != 30 {
			t.Fatalf("%d lines:\n%s", len(lines), b.String())
		}
		var execs int
		for _, l := range lines {
			if !strings.HasPrefix(l, "exec ") {
				continue
			}
			execs++
			words, ok := shellWords(l)
			if !ok || len(words) < 9 || words[1] != sf.dpb || words[4] != a1 || words[5] != a2 || words[7] != sf.store {
				t.Fatalf("exec line %q splits into %q", l, words)
			}
		}
		if execs != 2 {
			t.Fatalf("%d exec lines:\n%s", execs, b.String())
		}
	})
}

// shellWords splits a line of bare words, single-quoted strings and
// backslash-escaped characters (all that shellQuote writes; a double-quoted "${…}" word is kept as written) into
// words; ok is false on anything else.
func shellWords(line string) (words []string, ok bool) {
	var w strings.Builder
	in, started := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case in && c == '\'':
			in = false
		case in:
			w.WriteByte(c)
		case c == '\'':
			in, started = true, true
		case c == '\\' && i+1 < len(line):
			w.WriteByte(line[i+1])
			i++
			started = true
		case c == ' ':
			if started {
				words = append(words, w.String())
				w.Reset()
				started = false
			}
		case c == '"' || c == '$' || c == '`' || c == '\\' || c == ';' || c == '&' || c == '|' || c == '<' || c == '>' || c == '(' || c == ')':
			if strings.HasPrefix(line[i:], `"${SLURM_CPUS_PER_TASK:-1}"`) {
				w.WriteString(`"${SLURM_CPUS_PER_TASK:-1}"`)
				i += len(`"${SLURM_CPUS_PER_TASK:-1}"`) - 1
				started = true
				continue
			}
			return words, false
		default:
			w.WriteByte(c)
			started = true
		}
	}
	if in {
		return words, false
	}
	if started {
		words = append(words, w.String())
	}
	return words, true
}
