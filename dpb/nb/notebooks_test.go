package nb

// Tests of the committed notebooks and docs (they live here, beside the
// notebooks' helper package, so that go test ./... runs them):
//
//   - no committed notebook shows an absolute path of a build machine (a
//     home, temp or work-tree directory): outputs are normalised by
//     .ci/nbcheck.py --normalize (the repository's path becomes <repo>);
//   - every identifier that the notebooks' markdown, README.md and docs/*.md
//     name as pkg.Name or pkg.Type.Member, for a package of this module,
//     exists in that package.

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const repoRoot = "../.."

// machinePath matches the absolute paths of a build machine.
var machinePath = regexp.MustCompile(`(?:/home/|/tmp/|/work/|/root/|/Users/|/var/folders/|/private/var/|/run/user/|/builds/|/runner/|[A-Z]:\\\\Users)[^"\s\\]*`)

func notebookFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(repoRoot, "notebooks", "*.ipynb"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no notebooks found (%v)", err)
	}
	more, _ := filepath.Glob(filepath.Join(repoRoot, ".ci", "testdata", "browser", "*.ipynb"))
	return append(files, more...)
}

func TestNotebooksHaveNoMachinePaths(t *testing.T) {
	for _, f := range notebookFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range machinePath.FindAllIndex(data, 5) {
			lo := max(0, m[0]-60)
			t.Errorf("%s: a build machine's path %q in …%s… (re-execute with .ci/notebooks --write, which writes the repository as <repo>)",
				filepath.Base(f), data[m[0]:m[1]], data[lo:m[1]])
		}
	}
}

func TestMachinePathPattern(t *testing.T) {
	for _, s := range []string{`to local directory \"/work/wt/i13b\".`, "/home/ana/dpbandits", "/tmp/gonb_1234/main.go", `C:\\Users\\ana`} {
		if !machinePath.MatchString(s) {
			t.Errorf("%q not caught", s)
		}
	}
	for _, s := range []string{`to local directory \"<repo>\".`, "figures/ss18_fig4.svg", "https://example.org/work"} {
		if machinePath.MatchString(s) {
			t.Errorf("%q caught", s)
		}
	}
}

// exported returns, for each package of the module (by name, and by the
// aliases the notebooks use), its exported names: top-level identifiers, and
// Type.Member for methods and struct fields.
func exported(t *testing.T) map[string]map[string]bool {
	t.Helper()
	pkgs := map[string]map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(filepath.Join(repoRoot, "dpb"), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		// Of test files, only the names of tests, benchmarks and examples.
		testFile := strings.HasSuffix(path, "_test.go")
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		pkg := strings.TrimSuffix(f.Name.Name, "_test")
		names := pkgs[pkg]
		if names == nil {
			names = map[string]bool{}
			pkgs[pkg] = names
		}
		for _, decl := range f.Decls {
			if testFile {
				if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv == nil && regexp.MustCompile(`^(Test|Benchmark|Example|Fuzz)`).MatchString(fd.Name.Name) {
					names[fd.Name.Name] = true
				}
				continue
			}
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Recv == nil {
					names[decl.Name.Name] = true
				} else if len(decl.Recv.List) > 0 {
					names[recvType(decl.Recv.List[0].Type)+"."+decl.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						names[spec.Name.Name] = true
						if st, ok := spec.Type.(*ast.StructType); ok {
							for _, fld := range st.Fields.List {
								for _, n := range fld.Names {
									names[spec.Name.Name+"."+n.Name] = true
								}
								if len(fld.Names) == 0 { // embedded: its name
									names[spec.Name.Name+"."+recvType(fld.Type)] = true
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range spec.Names {
							names[n.Name] = true
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The import aliases of the notebooks.
	pkgs["dpbplot"] = pkgs["plot"]
	delete(pkgs, "main")
	return pkgs
}

func recvType(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvType(e.X)
	case *ast.IndexExpr:
		return recvType(e.X)
	case *ast.IndexListExpr:
		return recvType(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// reference matches pkg.Name and pkg.Name.Member in prose and code spans.
var reference = regexp.MustCompile(`\b([a-z][a-z0-9]*)\.([A-Z]\w*)(?:\.([A-Z]\w*))?`)

// texts returns the prose the test reads: README.md, docs/*.md and the
// notebooks' markdown cells.
func texts(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	docs, _ := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	for _, f := range append([]string{filepath.Join(repoRoot, "README.md")}, docs...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimPrefix(f, repoRoot+"/")] = string(data)
	}
	for _, f := range notebookFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var nb struct {
			Cells []struct {
				Type   string          `json:"cell_type"`
				Source json.RawMessage `json:"source"`
			} `json:"cells"`
		}
		if err := json.Unmarshal(data, &nb); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var b strings.Builder
		for _, c := range nb.Cells {
			if c.Type != "markdown" {
				continue
			}
			var lines []string
			if json.Unmarshal(c.Source, &lines) != nil {
				var s string
				_ = json.Unmarshal(c.Source, &s)
				lines = []string{s}
			}
			b.WriteString(strings.Join(lines, ""))
			b.WriteString("\n")
		}
		out[strings.TrimPrefix(f, repoRoot+"/")] = b.String()
	}
	return out
}

func TestNamedIdentifiersExist(t *testing.T) {
	pkgs := exported(t)
	var files []string
	all := texts(t)
	for f := range all {
		files = append(files, f)
	}
	slices.Sort(files)
	checked := 0
	for _, f := range files {
		for _, m := range reference.FindAllStringSubmatch(all[f], -1) {
			names, ok := pkgs[m[1]]
			if !ok {
				continue // not a package of this module (gonum's plot.New, …)
			}
			checked++
			if !names[m[2]] {
				t.Errorf("%s names %s.%s, which package %s does not declare", f, m[1], m[2], m[1])
				continue
			}
			if m[3] != "" && !names[m[2]+"."+m[3]] {
				t.Errorf("%s names %s.%s.%s: %s has no method or field %s", f, m[1], m[2], m[3], m[2], m[3])
			}
		}
	}
	if checked == 0 {
		t.Error("no identifier checked: the pattern or the paths are wrong")
	}
	t.Logf("%d references checked", checked)
}
