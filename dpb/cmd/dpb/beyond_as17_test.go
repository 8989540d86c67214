package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestBeyondAS17Figure: the figure writes every promised file, the same
// seed gives byte-identical files with 1 and 2 workers and through
// -store/-shard/-merge, the metadata keys are snake_case, and bad flags
// are usage errors naming the flag.
func TestBeyondAS17Figure(t *testing.T) {
	dir := t.TempDir()
	A, B, C, S, X := filepath.Join(dir, "A"), filepath.Join(dir, "B"), filepath.Join(dir, "C"), filepath.Join(dir, "S"), filepath.Join(dir, "X")
	fig := []string{"beyond-as17", "-short", "-n", "1024", "-runs", "2", "-seed", "3", "-sqrtn", "256", "-progress=false"}
	reproduce(t, append(fig, "-out", A, "-workers", "1")...)
	for _, ext := range []string{".svg", ".png", ".csv", ".json"} {
		if fi, err := os.Stat(filepath.Join(A, "beyond-as17"+ext)); err != nil || fi.Size() == 0 {
			t.Errorf("beyond-as17%s missing or empty (%v)", ext, err)
		}
	}
	reproduce(t, append(fig, "-out", B, "-workers", "2")...)
	sameFiles(t, A, B)
	for _, sh := range []string{"0/2", "1/2"} {
		reproduce(t, append(fig, "-store", S, "-shard", sh, "-out", X)...)
	}
	reproduce(t, append(fig, "-store", S, "-merge", "-out", C)...)
	sameFiles(t, A, C)

	meta, err := os.ReadFile(filepath.Join(A, "beyond-as17.json"))
	if err != nil {
		t.Fatal(err)
	}
	snake := regexp.MustCompile(`^[a-z0-9_]+$`)
	for _, m := range regexp.MustCompile(`"([^"]+)":`).FindAllSubmatch(meta, -1) {
		if k := string(m[1]); !snake.MatchString(k) {
			t.Errorf("metadata key %q is not snake_case", k)
		}
	}
	for _, want := range []string{`"stream_version"`, `"counter_bound"`, `"variation"`, `"max_sd"`, `"seed": 3`} {
		if !bytes.Contains(meta, []byte(want)) {
			t.Errorf("metadata lacks %s", want)
		}
	}
	csv, _ := os.ReadFile(filepath.Join(A, "beyond-as17.csv"))
	for _, want := range []string{"experts/Gauss BLT,", "cube/AS17 Laplace tree (pure ε)/bound,", "sphere/non-private,"} {
		if !strings.Contains(string(csv), want) {
			t.Errorf("csv lacks series %q", want)
		}
	}

	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-delta", "1.5"}, "-delta 1.5 out of range"},
		{[]string{"-delta", "-0.1"}, "-delta -0.1 out of range"},
		{[]string{"-delta", "NaN"}, "delta"},
		{[]string{"-eps", "0"}, "-eps 0 out of range"},
		{[]string{"-eps", "Inf"}, "eps"},
		{[]string{"-short", "-paper"}, "exclude each other"},
		{[]string{"-n", "256", "-minn", "1024"}, "below -minn"},
		{[]string{"-runs", "1"}, "1 is outside [2,"},
		{[]string{"-dim", "1"}, "1 is outside [2, 16]"},
		{[]string{"-sqrtn", "1e9"}, "1e9 is outside [0, 131072]"},
		{[]string{"-kind", "nonsense"}, "unknown loss kind"},
		{[]string{"-merge"}, "-store DIR"},
		{[]string{"stray"}, `unexpected argument "stray"`},
	} {
		var stderr bytes.Buffer
		args := append([]string{"reproduce", "beyond-as17", "-out", X}, c.args...)
		code := runMain(args, &stderr)
		if code == 0 || !strings.Contains(stderr.String(), c.msg) {
			t.Errorf("dpb %q: exit %d, stderr %q; want a failure naming %q", args, code, stderr.String(), c.msg)
		}
	}
	if ents, _ := os.ReadDir(X); len(ents) != 0 {
		t.Errorf("a shard or a refused run wrote figure files: %v", ents)
	}
}
