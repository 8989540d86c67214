package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/course"
)

func init() {
	register("course", "write the student versions of the notebooks (solutions replaced by stubs) and check the exercises", runCourse)
}

func runCourse(args []string) error {
	fs := newFlags("course", "[NOTEBOOK.ipynb ...] [flags]", `Reads the notebooks (default notebooks/*.ipynb), checks every exercise (solution regions
between "// BEGIN SOLUTION" and "// END SOLUTION", graded by a later %test cell, leaves, a kept
wrong solution, no solution calling the function it is graded against) and writes the student
versions, each region replaced by a stub that compiles. A notebook whose metadata declares
"dpb": {"browser_only": "why"} (widgets that wait for a reader) gets no -ci copy, so the
headless run (.ci/notebooks) leaves it to the browser test (.ci/browser). Exits 1 on a broken rule.`)
	out := fs.String("out", "out/course", "folder for the student versions (\"\": write none)")
	ci := fs.String("ci", "", "folder for the notebooks CI executes: the solutions, then the exercises as students get them and with their wrong solutions (.ci/notebooks)")
	list := fs.Bool("list", false, "print one line per exercise: notebook, what the student writes, what grades it")
	index := fs.String("index", "", "write the paper-to-code index (statement → function → check verdict → notebook section) to this file, from the code and the checks of dpb check all -short (docs/paper-to-code.md)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		pos, _ = filepath.Glob(filepath.Join("notebooks", "*.ipynb"))
		if len(pos) == 0 {
			return usagef("course: no notebooks given and none in notebooks/")
		}
	}
	opt := course.Options{Student: *out, CI: *ci}
	if *list {
		opt.List = os.Stdout
	}
	sum, err := course.Build(pos, opt)
	if err != nil {
		return err
	}
	where := ""
	if *out != "" {
		where = ", student versions in " + *out
	}
	fmt.Printf("%d notebooks: %d coding exercises, %d prediction cells%s\n", sum.Notebooks, sum.Coding, sum.Predictions, where)
	if len(sum.BrowserOnly) > 0 {
		fmt.Printf("browser only (metadata dpb.%s; no CI copy, .ci/browser runs them): %s\n", course.BrowserOnlyKey, strings.Join(sum.BrowserOnly, " "))
	}
	if *index != "" {
		vs, err := course.Verdicts()
		if err != nil {
			return err
		}
		md, err := course.Index(".", course.Entries, vs)
		if err != nil {
			return err
		}
		if err := os.WriteFile(*index, md, 0o644); err != nil {
			return err
		}
		fmt.Printf("paper-to-code index written to %s\n", *index)
	}
	return nil
}
