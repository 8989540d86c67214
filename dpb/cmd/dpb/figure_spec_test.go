package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/figspec"
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
		if p, _, _ := strings.Cut(f.Name, "-"); p != f.Paper {
			t.Errorf("%s: paper %q, want %q (the name's first word)", f.Name, f.Paper, p)
		}
		b, err := os.ReadFile(filepath.Join(root, "figures", f.Name+".json"))
		if err != nil {
			continue // not committed (a figure needing data, say)
		}
		var m struct {
			Files []struct{ Name string } `json:"files"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s.json: %v", f.Name, err)
		}
		var got []string
		for _, x := range m.Files {
			got = append(got, x.Name)
		}
		bad := checkOutputs(f, got)
		if why, pending := finalsPending[f.Name]; pending {
			if bad == "" {
				t.Errorf("%s: the committed JSON lists the finals companion now: remove it from finalsPending (%s)", f.Name, why)
			}
			bad = checkOutputs(withoutFinals(f), got)
		}
		if bad != "" {
			t.Error(bad)
		}
		seen++
	}
	if seen == 0 {
		t.Skip("no committed figure JSON")
	}
}

// finalsPending are the figures whose committed run predates the companion
// figure of final regret (NAME-finals.*): their JSON must list the outputs
// but those three, until the figure is written again.
var finalsPending = map[string]string{
	"ss18-fig4": "the paper-scale run (n = 5·10⁷, 35 runs) takes hours; not re-run",
}

// withoutFinals returns f without the outputs of the finals companion.
func withoutFinals(f figureSpec) figureSpec {
	f.Outputs = slices.DeleteFunc(slices.Clone(f.Outputs), func(o string) bool { return strings.HasPrefix(o, "-finals.") })
	return f
}

// checkOutputs compares the files a figure's JSON lists with its spec.
func checkOutputs(f figureSpec, files []string) string {
	var want []string
	for _, o := range f.Outputs {
		want = append(want, f.Name+o)
	}
	slices.Sort(want)
	files = slices.Sorted(slices.Values(files))
	if !slices.Equal(files, want) {
		return f.Name + ": the committed JSON lists " + strings.Join(files, ", ") + "; the spec's outputs are " + strings.Join(want, ", ")
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
	planted.Outputs = []string{".svg", ".png", ".csv"}
	if checkOutputs(planted, files) == "" {
		t.Error("a spec without -cpu.csv passed")
	}
	planted.Outputs = append(slices.Clone(f.Outputs), ".md")
	if checkOutputs(planted, files) == "" {
		t.Error("a spec with an extra .md passed")
	}
}

// TestJoinFiguresRefusesAMismatch: a spec without a run function, or a run
// without a spec, panics naming it (figureTable runs in init, so the
// command would not start); the real table joins all of figspec's figures.
func TestJoinFiguresRefusesAMismatch(t *testing.T) {
	if got, want := len(figureTable()), len(figspec.All()); got != want {
		t.Fatalf("figureTable has %d figures, figspec %d", got, want)
	}
	nop := func(name, out string, args []string) error { return nil }
	for _, tc := range []struct {
		specs []figspec.Spec
		runs  map[string]func(name, out string, args []string) error
		want  string
	}{
		{[]figspec.Spec{{Name: "a"}, {Name: "b"}}, map[string]func(string, string, []string) error{"a": nop}, `without a run function: ["b"]`},
		{[]figspec.Spec{{Name: "a"}}, map[string]func(string, string, []string) error{"a": nop, "c": nop}, `without a figure: ["c"]`},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), tc.want) {
					t.Errorf("joinFigures panicked with %v, want one naming %s", r, tc.want)
				}
			}()
			joinFigures(tc.specs, tc.runs)
		}()
	}
}
