package course

import (
	"fmt"
	"strings"
)

// Student returns the version of nb handed to students: every solution
// region replaced by its stub, the outputs of the exercise and test cells
// cleared (they would show the worked answers), everything else as
// committed.
func Student(nb *Notebook, exs []Exercise) *Notebook {
	s := nb.Clone()
	for _, ex := range exs {
		c := s.Cells[ex.Cell]
		c.SetSource(ex.StudentSource(c.Source()))
		c.ClearOutputs()
		for _, ci := range ex.Cells {
			s.Cells[ci].ClearOutputs()
		}
	}
	return s
}

// Expectation is what a CI run of a notebook from [CIRun] must show in one
// appended test cell: an error, and "--- FAIL: T" for each test T.
type Expectation struct {
	Cell  string   `json:"cell"`  // the cell's id
	Tests []string `json:"tests"` // the Test functions that must fail in it
	Why   string   `json:"why"`   // "student" or "wrong"
}

// CIRun returns the notebook CI executes for nb: the solution notebook,
// then each exercise cell as the student gets it followed by copies of its
// test cells, then each with its kept wrong solution followed by copies of
// its test cells. GoNB replaces a declaration that a later cell declares
// again, so each appended test runs against the version just before it, and
// since exercise cells are leaves, the state every appended cell sees is the
// student's (or the wrong version's) as it would be in that notebook. The
// notebook's metadata "dpb": {"course": …} records the number of solution
// cells and which appended cells must fail with which tests.
func CIRun(nb *Notebook, exs []Exercise) *Notebook {
	s := nb.Clone()
	n := len(s.Cells)
	var expect []Expectation
	for _, why := range []string{"student", "wrong"} {
		for k, ex := range exs {
			src := nb.Cells[ex.Cell].Source()
			if why == "student" {
				src = ex.StudentSource(src)
			} else {
				src = ex.Wrong
			}
			s.Cells = append(s.Cells, copyCell(nb.Cells[ex.Cell], src, fmt.Sprintf("%s-%d", why, k)))
			for j, ci := range ex.Cells {
				c := copyCell(nb.Cells[ci], nb.Cells[ci].Source(), fmt.Sprintf("%s-%d-test-%d", why, k, j))
				s.Cells = append(s.Cells, c)
				var tests []string
				if t, err := testsIn(nb.Cells[ci].Source()); err == nil {
					for _, name := range t {
						if contains(ex.Tests, name) {
							tests = append(tests, name)
						}
					}
				}
				if len(tests) > 0 {
					expect = append(expect, Expectation{Cell: c.ID(), Tests: tests, Why: why})
				}
			}
		}
	}
	exp := make([]any, len(expect))
	for i, e := range expect {
		tests := make([]any, len(e.Tests))
		for j, t := range e.Tests {
			tests[j] = t
		}
		exp[i] = map[string]any{"cell": e.Cell, "tests": tests, "why": e.Why}
	}
	s.Meta()["course"] = map[string]any{"solution_cells": n, "expect_fail": exp}
	return s
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// testsIn returns the Test functions a %test cell declares.
func testsIn(src string) ([]string, error) {
	var out []string
	for _, l := range strings.Split(src, "\n") {
		if rest, ok := strings.CutPrefix(l, "func Test"); ok {
			if i := strings.IndexByte(rest, '('); i >= 0 {
				out = append(out, "Test"+rest[:i])
			}
		}
	}
	return out, nil
}

// copyCell returns a code cell with src, outputs cleared, the metadata of
// c, and the id c's id + "-" + suffix.
func copyCell(c Cell, src, suffix string) Cell {
	raw := map[string]any{"cell_type": "code", "execution_count": nil, "outputs": []any{}}
	if md, ok := c.Raw["metadata"]; ok {
		raw["metadata"] = md
	} else {
		raw["metadata"] = map[string]any{}
	}
	raw["id"] = c.ID() + "-" + suffix
	cell := Cell{raw}
	cell.SetSource(src)
	return cell
}
