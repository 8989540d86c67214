package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFigureSpecOutputsMatchCommitted: every committed figure JSON
// (figures/NAME.json of a figure of figureTable) lists exactly the files
// its spec's outputs name, and each spec's paper is its name's first word
// (the group "dpb reproduce PAPER" runs). A spec that forgets an output or
// names one the figure does not write fails here.
func TestFigureSpecOutputsMatchCommitted(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	seen := 0
	for _, f := range figureTable() {
		if p, _, _ := strings.Cut(f.name, "-"); p != f.paper {
			t.Errorf("%s: paper %q, want %q (the name's first word)", f.name, f.paper, p)
		}
		b, err := os.ReadFile(filepath.Join(root, "figures", f.name+".json"))
		if err != nil {
			continue // not committed (a figure needing data, say)
		}
		var m struct {
			Files []struct{ Name string } `json:"files"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s.json: %v", f.name, err)
		}
		var got []string
		for _, x := range m.Files {
			got = append(got, x.Name)
		}
		if err := checkOutputs(f, got); err != "" {
			t.Error(err)
		}
		seen++
	}
	if seen == 0 {
		t.Skip("no committed figure JSON")
	}
}

// checkOutputs compares the files a figure's JSON lists with its spec.
func checkOutputs(f figureSpec, files []string) string {
	var want []string
	for _, o := range f.outputs {
		want = append(want, f.name+o)
	}
	slices.Sort(want)
	files = slices.Sorted(slices.Values(files))
	if !slices.Equal(files, want) {
		return f.name + ": the committed JSON lists " + strings.Join(files, ", ") + "; the spec's outputs are " + strings.Join(want, ", ")
	}
	return ""
}

// TestCheckOutputsCatchesAMissingOutput: the comparison above fails on a
// spec that leaves out an output the figure writes (secure-regret's CPU
// table) and on one that names an extra file.
func TestCheckOutputsCatchesAMissingOutput(t *testing.T) {
	f := figures["secure-regret"]
	files := []string{"secure-regret.svg", "secure-regret.png", "secure-regret.csv", "secure-regret-cpu.csv"}
	if msg := checkOutputs(f, files); msg != "" {
		t.Fatalf("the real spec: %s", msg)
	}
	planted := f
	planted.outputs = plotOutputs
	if checkOutputs(planted, files) == "" {
		t.Error("a spec without -cpu.csv passed")
	}
	planted.outputs = append(slices.Clone(f.outputs), ".md")
	if checkOutputs(planted, files) == "" {
		t.Error("a spec with an extra .md passed")
	}
}
