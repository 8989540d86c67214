package course

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fixture builds a notebook from code cells (source, dpb metadata).
func fixture(t *testing.T, cells ...any) *Notebook {
	t.Helper()
	var cs []any
	for i := 0; i < len(cells); i += 2 {
		md := map[string]any{}
		if cells[i+1] != nil {
			md["dpb"] = cells[i+1]
		}
		cs = append(cs, map[string]any{"cell_type": "code", "id": "c" + string(rune('0'+i/2)), "metadata": md,
			"outputs": []any{map[string]any{"output_type": "stream", "name": "stdout", "text": "old"}}, "execution_count": 1, "source": cells[i].(string)})
	}
	data, _ := json.Marshal(map[string]any{"cells": cs, "metadata": map[string]any{}, "nbformat": 4, "nbformat_minor": 5})
	nb, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	nb.Path = "fixture.ipynb"
	return nb
}

const (
	goodCell  = "// Your code.\nfunc levels(n int) int {\n\t// BEGIN SOLUTION\n\tm := 1\n\tfor s := 1; s < n; s *= 2 {\n\t\tm++\n\t}\n\treturn m\n\t// END SOLUTION\n}\n\nvar (\n\t// BEGIN SOLUTION\n\tanswerM = 11.0 // a worked answer\n\t// END SOLUTION\n)"
	wrongCell = "func levels(n int) int { return n }\nvar answerM = 10.0"
	testCell  = "%test\nfunc TestLevels(t *testing.T) {\n\tnb.Agree(t, \"levels\", 10, gen, levels, counter.TreeLevels, nb.Same[int])\n\tnb.Answer(t, \"m\", answerM, 11, 0)\n}"
)

var goodMeta = map[string]any{"graded_against": map[string]any{"levels": "counter.TreeLevels"}, "wrong_answer": wrongCell}

func TestAnalyseStudentCIRun(t *testing.T) {
	nb := fixture(t, "%%\nfmt.Println(1)", nil, goodCell, goodMeta, testCell, nil)
	exs, err := Analyse(nb)
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) != 1 || !reflect.DeepEqual(exs[0].Names, []string{"levels", "answerM"}) || !reflect.DeepEqual(exs[0].Tests, []string{"TestLevels"}) || !reflect.DeepEqual(exs[0].Cells, []int{2}) {
		t.Fatalf("exercises = %+v", exs)
	}
	s := Student(nb, exs)
	src := s.Cells[1].Source()
	if strings.Contains(src, "m++") || strings.Contains(src, "11.0") || !strings.Contains(src, FuncStub) || !strings.Contains(src, "answerM = "+AnswerStub) {
		t.Errorf("student cell:\n%s", src)
	}
	if strings.Contains(src, "SOLUTION") {
		t.Errorf("the markers stay in the student version:\n%s", src)
	}
	if s.Cells[0].Source() != nb.Cells[0].Source() || len(s.Cells[0].Raw["outputs"].([]any)) != 1 {
		t.Error("a cell before the exercises changed")
	}
	if len(s.Cells[2].Raw["outputs"].([]any)) != 0 {
		t.Error("the test cell keeps the solution's outputs")
	}
	if nb.Cells[1].Source() == src {
		t.Error("Student changed the solution notebook")
	}
	ci := CIRun(nb, exs)
	if len(ci.Cells) != 3+4 {
		t.Fatalf("CI run has %d cells, want 7", len(ci.Cells))
	}
	if ci.Cells[3].Source() != src || ci.Cells[5].Source() != wrongCell || ci.Cells[4].Source() != testCell {
		t.Error("CI run cells are not student, test, wrong, test")
	}
	course := ci.Meta()["course"].(map[string]any)
	if course["solution_cells"] != 3 || len(course["expect_fail"].([]any)) != 2 {
		t.Errorf("course metadata %v", course)
	}
}

// TestAnalyseRejects: each rule of the package documentation, broken once,
// is reported (the controls of TestAnalyseStudentCIRun).
func TestAnalyseRejects(t *testing.T) {
	calls := strings.Replace(goodCell, "\tm := 1\n", "\tm := counter.TreeLevels(n)\n", 1)
	noWrong := map[string]any{"graded_against": goodMeta["graded_against"]}
	noTarget := map[string]any{"wrong_answer": wrongCell}
	partial := strings.Replace(goodCell, "\t// END SOLUTION\n}", "}", 1)
	partial = strings.Replace(partial, "\treturn m\n", "\t// END SOLUTION\n\treturn m\n", 1)
	for _, c := range []struct {
		name  string
		cells []any
		want  string
	}{
		{"solution calls the function it is graded against", []any{calls, goodMeta, testCell, nil}, "graded against: write it"},
		{"a later cell uses a student function", []any{goodCell, goodMeta, testCell, nil, "%%\nfmt.Println(levels(4))", nil}, "must be leaves"},
		{"no wrong solution kept", []any{goodCell, noWrong, testCell, nil}, "no wrong solution"},
		{"no graded_against", []any{goodCell, noTarget, testCell, nil}, "names no library function"},
		{"not graded", []any{goodCell, goodMeta, "%test\nfunc TestOther(t *testing.T) {}", nil}, "no Test function"},
		{"the test does not use the target", []any{goodCell, goodMeta, strings.Replace(testCell, "counter.TreeLevels", "mine", 1), nil}, "which no test of it uses"},
		{"a region holds part of a body", []any{partial, goodMeta, testCell, nil}, "whole body"},
		{"an unclosed region", []any{strings.Replace(goodCell, "\t// END SOLUTION\n)", ")", 1), goodMeta, testCell, nil}, "not closed"},
		{"the wrong solution lacks a name", []any{goodCell, map[string]any{"graded_against": goodMeta["graded_against"], "wrong_answer": "var answerM = 1.0"}, testCell, nil}, "does not declare levels"},
	} {
		_, err := Analyse(fixture(t, c.cells...))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// TestCommittedNotebooks: every committed notebook keeps the rules, there
// are at least 25 coding exercises, and a student version differs from the
// solution only in its exercise and test cells.
func TestCommittedNotebooks(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "notebooks", "*.ipynb"))
	if len(paths) == 0 {
		t.Fatal("no notebooks")
	}
	sum, err := Build(paths, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Coding < 25 {
		t.Errorf("%d coding exercises, want at least 25", sum.Coding)
	}
	for _, p := range paths {
		nb, _ := Read(p)
		exs, _ := Analyse(nb)
		s := Student(nb, exs)
		touched := map[int]bool{}
		for _, ex := range exs {
			touched[ex.Cell] = true
			for _, c := range ex.Cells {
				touched[c] = true
			}
		}
		for i := range nb.Cells {
			a, _ := json.Marshal(nb.Cells[i].Raw)
			b, _ := json.Marshal(s.Cells[i].Raw)
			if (string(a) != string(b)) != touched[i] && !touched[i] {
				t.Errorf("%s: cell %d differs in the student version but is no exercise or test cell", p, i)
			}
		}
	}
}

// A notebook declared browser-only gets its student version and no CI copy
// (so .ci/notebooks never executes it); the declaration must say why, and
// such a notebook may hold no exercise (only the headless run checks them).
func TestBrowserOnly(t *testing.T) {
	write := func(meta map[string]any, cells ...any) string {
		nb := fixture(t, cells...)
		if meta != nil {
			nb.Meta()[BrowserOnlyKey] = meta[BrowserOnlyKey]
		}
		data, err := nb.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "knob.ipynb")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain := []any{"%%\nfmt.Println(1)", nil}
	for _, c := range []struct {
		name    string
		meta    map[string]any
		cells   []any
		wantCI  bool
		wantErr string
	}{
		{"undeclared", nil, plain, true, ""},
		{"declared", map[string]any{BrowserOnlyKey: "widgets wait for a reader"}, plain, false, ""},
		{"empty reason", map[string]any{BrowserOnlyKey: " "}, plain, false, "must say why"},
		{"not a string", map[string]any{BrowserOnlyKey: true}, plain, false, "must say why"},
		{"with an exercise", map[string]any{BrowserOnlyKey: "widgets"}, []any{goodCell, goodMeta, testCell, nil}, false, "only the headless run checks"},
	} {
		p := write(c.meta, c.cells...)
		student, ci := t.TempDir(), t.TempDir()
		sum, err := Build([]string{p}, Options{Student: student, CI: ci})
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s: err = %v, want %q", c.name, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, errCI := os.Stat(filepath.Join(ci, "knob.ipynb"))
		_, errStudent := os.Stat(filepath.Join(student, "knob.ipynb"))
		if (errCI == nil) != c.wantCI || errStudent != nil {
			t.Errorf("%s: CI copy written %v (want %v), student version written %v", c.name, errCI == nil, c.wantCI, errStudent == nil)
		}
		if got := len(sum.BrowserOnly) == 1 && sum.BrowserOnly[0] == "knob.ipynb"; got == c.wantCI {
			t.Errorf("%s: Summary.BrowserOnly = %v", c.name, sum.BrowserOnly)
		}
	}
}
