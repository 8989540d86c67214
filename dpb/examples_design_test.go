package dpb_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// exampleExempt lists the packages with exported identifiers that have no
// Example, each with the reason (issue 58 item 4 asks for an Example of the
// main entry point of every package; these are the internal ones where an
// example would show nothing a reader can use, or could not be
// deterministic or fast). An entry for a package that is gone, or that has
// an Example after all, fails TestEveryPackageHasAnExample, so the list
// cannot go stale.
var exampleExempt = map[string]string{
	// Empty since issue 58 part 2: dpb/internal/perf (an Example without an
	// Output block: timing is never asserted), testkit and testutil (their
	// deterministic helpers) have Examples now.
}

// TestEveryPackageHasAnExample: every package under dpb/ that is not a
// command and exports an identifier has at least one Example function in
// its _test.go files, or an entry in exampleExempt with its reason.
func TestEveryPackageHasAnExample(t *testing.T) {
	missing, withExample, err := packagesWithoutExample(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range missing {
		p = filepath.ToSlash(filepath.Join("dpb", p))
		if _, ok := exampleExempt[p]; !ok {
			t.Errorf("%s has exported identifiers and no Example in its _test.go files: add example_test.go (package %s_test) with an Example of its main entry point", p, filepath.Base(p))
		}
	}
	for p := range exampleExempt {
		rel := strings.TrimPrefix(p, "dpb/")
		switch {
		case slices.Contains(withExample, rel):
			t.Errorf("%s is exempt from the Example rule but has an Example: remove its exampleExempt entry", p)
		case !slices.Contains(missing, rel):
			t.Errorf("%s is exempt from the Example rule but is no package with exported identifiers under dpb/: remove its exampleExempt entry", p)
		}
	}
}

// TestEveryPackageHasAnExampleCanFail: the walker, run on a directory
// holding a package with an exported function and no Example (the planted
// defect), reports it and only it: not a package with an Example, a
// command, a package exporting nothing, a package whose only "Example" is a
// method or lives in a non-test file, nor a testdata directory.
func TestEveryPackageHasAnExampleCanFail(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, src string) {
		t.Helper()
		path := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The planted defect: an exported function, tests, no Example.
	write("noexample/a.go", "package noexample\n\nfunc Run() int { return 1 }\n")
	write("noexample/a_test.go", "package noexample\n\nimport \"testing\"\n\nfunc TestRun(t *testing.T) {}\n")
	// A method named Example and an Example in a non-test file do not count.
	write("fake/a.go", "package fake\n\ntype T struct{}\n\nfunc (T) Example() {}\n\nfunc ExampleRun() {}\n")
	write("fake/a_test.go", "package fake\n\nfunc (T) ExampleT() {}\n\nfunc Examples() {}\n")
	// These are fine.
	write("good/a.go", "package good\n\n// Run runs.\nfunc Run() int { return 1 }\n")
	write("good/example_test.go", "package good_test\n\nimport \"fmt\"\n\nfunc ExampleRun() {\n\tfmt.Println(1)\n\t// Output: 1\n}\n")
	write("good/sub/a.go", "package sub\n\nconst Limit = 3\n\nvar _ = Limit\n")
	write("good/sub/a_test.go", "package sub\n\nfunc Example() {}\n")
	write("cmd/tool/main.go", "package main\n\nfunc Exported() {}\n\nfunc main() {}\n")
	write("quiet/a.go", "package quiet\n\nfunc run() {}\n")
	write("good/testdata/x/a.go", "package x\n\nfunc Run() {}\n")
	write("tests/only_test.go", "package tests\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n")

	missing, withExample, err := packagesWithoutExample(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"fake", "noexample"}; !slices.Equal(missing, want) {
		t.Errorf("packages reported without an Example = %q, want %q", missing, want)
	}
	if want := []string{"good", "good/sub"}; !slices.Equal(withExample, want) {
		t.Errorf("packages found with an Example = %q, want %q", withExample, want)
	}
}

// packagesWithoutExample walks root and returns, relative to it and
// sorted, the directories holding a non-main package with an exported
// top-level identifier and no Example function (a top-level func named
// Example or Example…) in its _test.go files, and those that have one.
// Directories named testdata, or starting with "." or "_", are skipped,
// as the go tool does.
func packagesWithoutExample(root string) (missing, withExample []string, err error) {
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		exported, example, isMain, err := scanPackageDir(path)
		if err != nil {
			return err
		}
		if isMain || !exported {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if example {
			withExample = append(withExample, rel)
		} else {
			missing = append(missing, rel)
		}
		return nil
	})
	slices.Sort(missing)
	slices.Sort(withExample)
	return missing, withExample, err
}

// scanPackageDir parses the .go files of one directory: exported says a
// non-test file declares an exported top-level identifier, example that a
// _test.go file declares a top-level func Example…, isMain that the
// package is a command.
func scanPackageDir(dir string) (exported, example, isMain bool, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, false, false, err
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return false, false, false, fmt.Errorf("parse %s: %w", filepath.Join(dir, name), err)
		}
		if strings.HasSuffix(name, "_test.go") {
			for _, decl := range f.Decls {
				if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv == nil && isExampleName(fd.Name.Name) {
					example = true
				}
			}
			continue
		}
		if f.Name.Name == "main" {
			isMain = true
		}
		if declaresExported(f) {
			exported = true
		}
	}
	return exported, example, isMain, nil
}

// declaresExported reports whether f declares an exported top-level func
// (not a method), type, var or const.
func declaresExported(f *ast.File) bool {
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.IsExported() {
				return true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						return true
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

// isExampleName reports whether a function name is one go test runs as an
// example: Example, or Example followed by "_" or an upper-case letter
// (ExampleF, ExampleT_M, Example_suffix), not Examples or Exampleish.
func isExampleName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Example")
	if !ok {
		return false
	}
	return rest == "" || rest[0] == '_' || ('A' <= rest[0] && rest[0] <= 'Z') || rest[0] >= 0x80
}
