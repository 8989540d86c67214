package course

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Options says what [Build] writes.
type Options struct {
	Student string // folder for the student versions ("": none)
	CI      string // folder for the notebooks CI executes ([CIRun]; "": none)
	List    io.Writer
}

// Summary counts what [Build] found.
type Summary struct {
	Notebooks, Coding, Predictions int
	// BrowserOnly names (file names) the notebooks declared out of the
	// headless run ([BrowserOnlyKey]), for which no CI copy was written.
	BrowserOnly []string
}

// Build analyses each notebook (see [Analyse]) and writes its student
// version and its CI run into the folders of opt, under the notebook's file
// name; a notebook declared browser-only ([Notebook.BrowserOnly]) gets no
// CI copy (CI runs it in the browser instead) and may hold no exercise.
// With opt.List it writes one line per exercise: notebook, the functions
// (or answers) the student writes, and what grades them. It fails
// on the first rule a notebook breaks, writing nothing for it.
func Build(paths []string, opt Options) (Summary, error) {
	var sum Summary
	var errs []error
	for _, p := range paths {
		nb, err := Read(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		exs, err := Analyse(nb)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		why, err := nb.BrowserOnly()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		name := filepath.Base(p)
		if why != "" {
			if len(exs) > 0 {
				// Only the headless run checks that stubs and wrong
				// solutions fail their tests.
				errs = append(errs, fmt.Errorf("course: %s: declared browser-only (%s) but has %d exercise(s), which only the headless run checks", p, why, len(exs)))
				continue
			}
			sum.BrowserOnly = append(sum.BrowserOnly, name)
		}
		sum.Notebooks++
		for _, ex := range exs {
			if ex.Coding() {
				sum.Coding += len(ex.Funcs)
			} else {
				sum.Predictions++
			}
			if opt.List != nil {
				listExercise(opt.List, strings.TrimSuffix(name, ".ipynb"), ex)
			}
		}
		for _, out := range []struct {
			dir string
			ci  bool
			nb  func() *Notebook
		}{{opt.Student, false, func() *Notebook { return Student(nb, exs) }}, {opt.CI, true, func() *Notebook { return CIRun(nb, exs) }}} {
			if out.dir == "" || (out.ci && why != "") {
				continue
			}
			data, err := out.nb().Marshal()
			if err == nil {
				err = os.MkdirAll(out.dir, 0o755)
			}
			if err == nil {
				err = os.WriteFile(filepath.Join(out.dir, name), data, 0o644)
			}
			if err != nil {
				return sum, err
			}
		}
	}
	return sum, errors.Join(errs...)
}

func listExercise(w io.Writer, nb string, ex Exercise) {
	if !ex.Coding() {
		fmt.Fprintf(w, "%-22s prediction  %-40s %s\n", nb, strings.Join(ex.Names, ", "), strings.Join(ex.Tests, ", "))
		return
	}
	funcs := append([]string(nil), ex.Funcs...)
	sort.Strings(funcs)
	for _, f := range funcs {
		fmt.Fprintf(w, "%-22s coding      %-40s %s\n", nb, f, ex.Graded[f])
	}
}
