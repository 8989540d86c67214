package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dpbandits/dpbandits/dpb/internal/atomicfile"
)

// TestMain lets the kill tests run this test binary as the dpb command.
func TestMain(m *testing.M) {
	if os.Getenv("DPB_TEST_AS_DPB") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// dpbCmd returns this test binary set up to run as "dpb args...".
func dpbCmd(args ...string) *exec.Cmd {
	c := exec.Command(os.Args[0], args...)
	c.Env = append(os.Environ(), "DPB_TEST_AS_DPB=1")
	return c
}

// sameFiles fails unless every .csv, .svg and .png file of dir a has a
// byte-identical copy in dir b (the .json may differ in timings).
func sameFiles(t *testing.T, a, b string) {
	t.Helper()
	ents, err := os.ReadDir(a)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if ext := filepath.Ext(e.Name()); ext != ".csv" && ext != ".svg" && ext != ".png" {
			continue
		}
		x, _ := os.ReadFile(filepath.Join(a, e.Name()))
		y, err := os.ReadFile(filepath.Join(b, e.Name()))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s: not byte-identical in %s (%v)", e.Name(), b, err)
		}
		n++
	}
	if n == 0 {
		t.Fatalf("no figure files in %s", a)
	}
}

func reproduce(t *testing.T, args ...string) {
	t.Helper()
	if err := runReproduce(args); err != nil {
		t.Fatalf("dpb reproduce %s: %v", strings.Join(args, " "), err)
	}
}

// Three shards, then a merge, write the same bytes as one process, for one
// figure of each paper; a merge of an incomplete store fails naming the
// missing jobs.
func TestShardsMergeByteIdentical(t *testing.T) {
	for _, fig := range [][]string{
		{"ss18-fig4", "-short", "-seed", "7", "-progress=false"},
		{"beyond-ss18", "-short", "-seed", "7", "-n", "3000", "-runs", "3", "-progress=false"},
		{"beyond-mt14", "-short", "-seed", "7", "-n", "3000", "-runs", "3", "-progress=false"},
		{"mt14-fig1-k5", "-short", "-seed", "7"},
		{"as17-table1", "-short", "-seed", "7", "-n", "1024", "-epsn", "512", "-progress=false"},
	} {
		t.Run(fig[0], func(t *testing.T) {
			dir := t.TempDir()
			A, B, S, X := filepath.Join(dir, "A"), filepath.Join(dir, "B"), filepath.Join(dir, "S"), filepath.Join(dir, "X")
			reproduce(t, append(fig, "-out", A)...)
			for _, sh := range []string{"0/3", "2/3"} {
				reproduce(t, append(fig, "-store", S, "-shard", sh, "-out", X)...)
			}
			if ents, _ := os.ReadDir(X); len(ents) != 0 {
				t.Errorf("a shard wrote figure files: %v", ents)
			}
			err := runReproduce(append(fig, "-store", S, "-merge", "-out", B))
			if err == nil || !strings.Contains(err.Error(), "missing") || !strings.Contains(err.Error(), "r0000") {
				t.Fatalf("merge of an incomplete store: err = %v, want the missing jobs listed", err)
			}
			if _, err := os.Stat(filepath.Join(B, fig[0]+".csv")); err == nil {
				t.Error("an incomplete merge wrote the figure")
			}
			reproduce(t, append(fig, "-store", S, "-shard", "1/3", "-out", X)...)
			reproduce(t, append(fig, "-store", S, "-merge", "-out", B)...)
			sameFiles(t, A, B)
		})
	}
}

// jobFiles counts the finished jobs in store dir S.
func jobFiles(S string) int {
	m, _ := filepath.Glob(filepath.Join(S, "*", "r*-s*"))
	n := 0
	for _, p := range m {
		if !atomicfile.IsTemp(filepath.Base(p)) {
			n++
		}
	}
	return n
}

// startUntil starts cmd and waits until the store holds at least jobs jobs.
func startUntil(t *testing.T, cmd *exec.Cmd, S string, jobs int) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for jobFiles(S) < jobs {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no %d jobs in the store after a minute", jobs)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A run killed midway (SIGKILL) or stopped (SIGINT) and then resumed with
// the same command writes the same bytes as an uninterrupted run.
func TestKillAndResume(t *testing.T) {
	if testing.Short() && os.Getenv("CI") == "" {
		// Runs in CI (about 3 s with -short, 10 s without); locally with
		// -short it is skipped.
		t.Skip("kill-and-resume runs in CI or without -short")
	}
	// 24 lockstep jobs of about 0.1 s each on one worker; with -short 16
	// of about 0.03 s (the signal comes after the third job, so either
	// leaves most of the run to resume).
	n, runs := "20000", 12
	if testing.Short() {
		n, runs = "6000", 8
	}
	fig := []string{"reproduce", "ss18-fig4", "-seed", "7", "-n", n, "-runs", strconv.Itoa(runs), "-workers", "1", "-progress=false"}
	dir := t.TempDir()
	A := filepath.Join(dir, "A")
	reproduce(t, append(fig[1:], "-out", A)...)
	total := 2 * runs
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			S, C := filepath.Join(dir, sig.String(), "S"), filepath.Join(dir, sig.String(), "C")
			args := append(append([]string{}, fig...), "-store", S, "-out", C)
			cmd := dpbCmd(args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			startUntil(t, cmd, S, 3)
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			if err == nil {
				t.Fatalf("the run finished before the %v: nothing tested", sig)
			}
			done := jobFiles(S)
			if done >= total {
				t.Fatalf("all %d jobs were done at the %v: nothing tested", done, sig)
			}
			if sig != syscall.SIGKILL && !strings.Contains(stderr.String(), "resume with") {
				t.Errorf("after %v the run did not say how to resume:\n%s", sig, stderr.String())
			}
			if _, err := os.Stat(filepath.Join(C, "ss18-fig4.csv")); err == nil {
				t.Error("the interrupted run wrote the figure")
			}
			out, err := dpbCmd(args...).CombinedOutput()
			if err != nil {
				t.Fatalf("resume: %v\n%s", err, out)
			}
			if !strings.Contains(string(out), "read from") {
				t.Errorf("resume did not report reading the store:\n%s", out)
			}
			t.Logf("%v after %d of %d jobs; resumed: %s", sig, done, total, strings.TrimSpace(string(out)))
			sameFiles(t, A, C)
		})
	}
}

// A run killed while it writes its figure files leaves at every final path
// either the old complete file or the new complete one.
func TestKillWhileWritingFigures(t *testing.T) {
	fig := []string{"reproduce", "ss18-fig1", "-k", "3000", "-progress=false"}
	dir := t.TempDir()
	old, nu, O := filepath.Join(dir, "old"), filepath.Join(dir, "new"), filepath.Join(dir, "O")
	reproduce(t, append(fig[1:], "-seed", "1", "-out", old)...)
	start := time.Now()
	if out, err := dpbCmd(append(fig, "-seed", "2", "-out", nu)...).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	wall := time.Since(start)
	names := []string{"ss18-fig1.csv", "ss18-fig1.svg", "ss18-fig1.png", "ss18-fig1.json"}
	read := func(d, n string) []byte {
		b, _ := os.ReadFile(filepath.Join(d, n))
		return b
	}
	const tries = 12
	var oldN, newN int
	for i := range tries {
		os.RemoveAll(O)
		os.MkdirAll(O, 0o755)
		for _, n := range names {
			os.WriteFile(filepath.Join(O, n), read(old, n), 0o644)
		}
		cmd := dpbCmd(append(fig, "-seed", "2", "-out", O)...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill times spread over the whole run, start-up to the last file.
		time.Sleep(wall * time.Duration(i+1) / tries)
		cmd.Process.Kill()
		cmd.Wait()
		for _, n := range names {
			got := read(O, n)
			switch {
			case bytes.Equal(got, read(old, n)):
				oldN++
			case n == "ss18-fig1.json" && json.Valid(got) && bytes.Contains(got, []byte(`"seed": 2`)):
				newN++ // the new metadata (its wall time differs from the reference run's)
			case bytes.Equal(got, read(nu, n)):
				newN++
			default:
				t.Errorf("kill %d (%v in): %s is neither the old nor the new complete file (%d bytes)", i, wall*time.Duration(i+1)/tries, n, len(got))
			}
		}
	}
	t.Logf("run %v; after %d kills: %d old and %d new complete files", wall, tries, oldN, newN)
}

// dpb check ss18 -trees in two shards and a merge prints the verdicts of
// one process, and a merge before the last shard fails naming the missing
// jobs: the command's store, shard and merge wiring on a real check (the
// routing of the other checks is TestCheckShardRouting; dpb/check's
// TestCheckSS18ShardedMerge merges them all).
func TestCheckShardsMerge(t *testing.T) {
	S := filepath.Join(t.TempDir(), "S")
	base := []string{"ss18", "-trees", "-short", "-n", "300", "-reps", "4", "-json"}
	var one, merged bytes.Buffer
	if err := runCheck(&one, base); err != nil {
		t.Fatal(err)
	}
	if err := runCheck(io.Discard, append(base, "-store", S, "-shard", "0/2")); err != nil {
		t.Fatal(err)
	}
	if err := runCheck(io.Discard, append(base, "-store", S, "-merge")); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("merge after one of two shards: err = %v, want missing jobs", err)
	}
	if err := runCheck(io.Discard, append(base, "-store", S, "-shard", "1/2")); err != nil {
		t.Fatal(err)
	}
	if err := runCheck(&merged, append(base, "-store", S, "-merge")); err != nil {
		t.Fatal(err)
	}
	if one.String() != merged.String() || one.Len() == 0 {
		t.Errorf("merged verdicts differ from one process:\n%s\nvs\n%s", merged.String(), one.String())
	}
	if m, _ := filepath.Glob(filepath.Join(S, "ss18-check-tree-*")); len(m) == 0 {
		t.Error("no ss18-check-tree-* bin in the store")
	}
	var tr struct {
		Verdicts []struct {
			Name string `json:"name"`
		} `json:"verdicts"`
	}
	if json.Unmarshal(one.Bytes(), &tr) != nil || len(tr.Verdicts) != 36 {
		t.Errorf("%d tree verdicts, want 36 = 4 trees × 9 bounds", len(tr.Verdicts))
	}
}

// dpb store lists each job list with its done and missing jobs.
func TestStoreListing(t *testing.T) {
	S := filepath.Join(t.TempDir(), "S")
	reproduce(t, "ss18-fig4", "-short", "-seed", "7", "-progress=false", "-store", S, "-shard", "0/2", "-out", t.TempDir())
	var b bytes.Buffer
	if err := runStore(&b, []string{S}); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	if !strings.Contains(s, "ss18-exp2-") || !strings.Contains(s, "2/4 jobs done (2 reps × 2 series)") ||
		!strings.Contains(s, "missing r000001-s000") || !strings.Contains(s, "missing r000001-s001") {
		t.Errorf("listing:\n%s", s)
	}
	// A job file cut short is found and named, and the command fails
	// (issue 40, item 2); -clean removes a killed writer's temporary file.
	jobs, _ := filepath.Glob(filepath.Join(S, "ss18-exp2-*", "r000000-s001"))
	if len(jobs) != 1 {
		t.Fatalf("job files %v", jobs)
	}
	raw, _ := os.ReadFile(jobs[0])
	os.WriteFile(jobs[0], raw[:len(raw)-3], 0o644)
	tmp := filepath.Join(filepath.Dir(jobs[0]), ".r000001-s000.tmp-42")
	os.WriteFile(tmp, nil, 0o644)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(tmp, old, old)
	b.Reset()
	err := runStore(&b, []string{"-clean", S})
	if err == nil || exitCode(err, io.Discard) != 1 || !strings.Contains(b.String(), "damaged: ") || !strings.Contains(b.String(), jobs[0]) {
		t.Errorf("truncated job: err = %v, listing:\n%s", err, b.String())
	}
	if _, err := os.Stat(tmp); err == nil || !strings.Contains(b.String(), "removed .r000001-s000.tmp-42") {
		t.Errorf("-clean left %s:\n%s", tmp, b.String())
	}
}

// Every figure either keeps its jobs in -store (a shard of 1000 runs at most
// one job and leaves the store's key.json) or refuses -store with an error: a
// figure must never accept the flag and ignore it (a killed run would then
// lose everything while the user believes it is saved). ss18-fig1 draws one
// decision set and has no jobs to keep (it reports 0 jobs).
func TestEveryFigureHonoursStore(t *testing.T) {
	for name := range figures {
		if name == "ss18-fig1" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			S, X := filepath.Join(dir, "S"), filepath.Join(dir, "X")
			err := runReproduce([]string{name, "-short", "-store", S, "-shard", "999/1000", "-out", X})
			keys, _ := filepath.Glob(filepath.Join(S, "*", "key.json"))
			switch {
			case err == nil && len(keys) == 0:
				t.Errorf("-store %s accepted but no store written", S)
			case err != nil && len(keys) == 0 && !strings.Contains(err.Error(), "store") && !strings.Contains(err.Error(), "data"):
				t.Errorf("error %q does not say why -store (or the data) is refused", err)
			}
			if ents, _ := os.ReadDir(X); len(ents) != 0 {
				t.Errorf("a shard wrote figure files: %v", ents)
			}
		})
	}
}

// A figure's JSON, written last, lists every other file of its set with its
// SHA-256, so that a set left mixed by a run killed while writing it (a new
// SVG beside the old CSV, PNG and JSON) is detected (issue 40, item 7).
func TestFigureSetListedInJSON(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	reproduce(t, "ss18-fig4", "-short", "-seed", "7", "-progress=false", "-out", dir)
	js := filepath.Join(dir, "ss18-fig4.json")
	raw, _ := os.ReadFile(js)
	for _, ext := range []string{"csv", "svg", "png"} {
		if !strings.Contains(string(raw), `"name": "ss18-fig4.`+ext+`"`) {
			t.Errorf("the JSON does not list ss18-fig4.%s:\n%s", ext, raw)
		}
	}
	var b bytes.Buffer
	if err := runVerify(&b, []string{js}); err != nil {
		t.Fatalf("a whole set: %v\n%s", err, b.String())
	}
	// A second run (another seed) killed after its SVG.
	reproduce(t, "ss18-fig4", "-short", "-seed", "8", "-progress=false", "-out", other)
	svg, _ := os.ReadFile(filepath.Join(other, "ss18-fig4.svg"))
	os.WriteFile(filepath.Join(dir, "ss18-fig4.svg"), svg, 0o644)
	b.Reset()
	err := runVerify(&b, []string{js})
	if err == nil || exitCode(err, io.Discard) != 1 || !strings.Contains(b.String(), "ss18-fig4.svg: SHA-256") {
		t.Errorf("a mixed set: err = %v\n%s", err, b.String())
	}
}

// A merge of a group of figures lists the missing jobs of every incomplete
// figure, not only the first's, and a merge never creates the store or a
// job list directory (issue 40, item 10).
func TestMergeGroupListsEveryFigure(t *testing.T) {
	dir := t.TempDir()
	S, B := filepath.Join(dir, "S"), filepath.Join(dir, "B")
	group := []string{"mt14-fig1", "-short", "-seed", "7"}
	err := runReproduce(append(group, "-store", S, "-merge", "-out", B))
	if err == nil || !strings.Contains(err.Error(), "nothing to merge") {
		t.Errorf("merge of a store that does not exist: err = %v", err)
	}
	if _, err := os.Stat(S); err == nil {
		t.Fatal("-merge created the store")
	}
	os.Mkdir(S, 0o755)
	err = runReproduce(append(group, "-store", S, "-merge", "-out", B))
	if err == nil || !strings.Contains(err.Error(), "2 of 2 figures have missing jobs") ||
		!strings.Contains(err.Error(), "mt14-fig1-k10: ") || !strings.Contains(err.Error(), "mt14-fig1-k5: ") {
		t.Errorf("merge of an empty store: err = %v, want both figures' missing jobs", err)
	}
	if ents, _ := os.ReadDir(S); len(ents) != 0 {
		t.Errorf("-merge created job lists in the store: %v", ents)
	}
}

// The figure JSON of mt14-fig1 records the defaults it ran with, not the
// zero values of the flags left out (issue 40, Low: "best 0, gap 0,
// epsilons null").
func TestMT14Fig1JSONResolvedDefaults(t *testing.T) {
	dir := t.TempDir()
	reproduce(t, "mt14-fig1-k5", "-short", "-seed", "7", "-out", dir)
	raw, _ := os.ReadFile(filepath.Join(dir, "mt14-fig1-k5.json"))
	// -short runs T = 20000: γ defaults to 1/T.
	for _, want := range []string{`"best": 0.9`, `"gap": 0.5`, `"epsilons": [`, `"gamma": 0.00005`, `"relaxation_scale": 1`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("the JSON lacks %s:\n%s", want, raw)
		}
	}
}
