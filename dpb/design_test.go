package dpb_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

const modulePath = "github.com/dpbandits/dpbandits/"

// thirdParty names the third-party modules the README's Design table
// writes by their short names.
var thirdParty = map[string]string{
	"gonum.org/v1/gonum":               "gonum",
	"gonum.org/v1/plot":                "gonum/plot",
	"github.com/go-echarts/go-echarts": "go-echarts",
	"github.com/janpfeifer/gonb":       "gonb",
	"golang.org/x/sys":                 "x/sys",
}

// TestDesignTableMatchesGoList: the README's Design table has one row per
// package of the module, in an order where every package comes after the
// module packages it imports, and each row's imports column is exactly the
// package's direct imports as `go list` reports them (module packages
// relative to dpb/, third-party modules by short name, "—" for the standard
// library only). Adding or removing a package, or changing what one imports,
// fails here until the table follows.
func TestDesignTableMatchesGoList(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Skip("README.md not found")
	}
	table, err := designTable(readme)
	if err != nil {
		t.Fatal(err)
	}
	golist, err := goListImports(t)
	if err != nil {
		t.Fatal(err)
	}
	if err := compareDesign(table, golist); err != nil {
		t.Error(err)
	}
}

// TestDesignTableCanFail: the comparison reports a package the table lacks,
// a row for no package, a changed import and a row above one of its imports.
func TestDesignTableCanFail(t *testing.T) {
	golist := map[string][]string{"dpb/a": nil, "dpb/b": {"a", "gonum"}}
	good := []designRow{{"dpb/a", nil}, {"dpb/b", []string{"a", "gonum"}}}
	if err := compareDesign(good, golist); err != nil {
		t.Fatalf("a matching table fails: %v", err)
	}
	for name, rows := range map[string][]designRow{
		"missing package": {{"dpb/a", nil}},
		"extra package":   {{"dpb/a", nil}, {"dpb/b", []string{"a", "gonum"}}, {"dpb/c", nil}},
		"changed imports": {{"dpb/a", nil}, {"dpb/b", []string{"a"}}},
		"wrong order":     {{"dpb/b", []string{"a", "gonum"}}, {"dpb/a", nil}},
	} {
		if compareDesign(rows, golist) == nil {
			t.Errorf("%s: not reported", name)
		}
	}
}

type designRow struct {
	pkg     string
	imports []string
}

// designTable reads the rows of the table in the README's "## Design"
// section: the package is the first cell's backquoted path, the imports are
// the third cell's comma-separated names (backquotes dropped; "—": none).
func designTable(readme []byte) ([]designRow, error) {
	s := string(readme)
	i := strings.Index(s, "\n## Design\n")
	if i < 0 {
		return nil, errorf("README.md has no \"## Design\" section")
	}
	s = s[i+1:]
	if j := strings.Index(s[3:], "\n## "); j >= 0 {
		s = s[:j+3]
	}
	pkg := regexp.MustCompile("^\\[?`(dpb[^`]*)`")
	var rows []designRow
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "| ") {
			continue
		}
		cells := strings.Split(line, " | ")
		if len(cells) != 3 {
			continue
		}
		m := pkg.FindStringSubmatch(strings.TrimPrefix(cells[0], "| "))
		if m == nil {
			continue
		}
		var imps []string
		last := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(cells[2]), "|"))
		if last != "—" {
			for _, f := range strings.Split(last, ",") {
				imps = append(imps, strings.Trim(strings.TrimSpace(f), "`"))
			}
		}
		rows = append(rows, designRow{m[1], imps})
	}
	if len(rows) == 0 {
		return nil, errorf("README.md's Design section has no table rows")
	}
	return rows, nil
}

// goListImports runs go list on the module and returns each package's
// direct imports in the table's notation.
func goListImports(t *testing.T) (map[string][]string, error) {
	t.Helper()
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		goTool = "go"
	}
	cmd := exec.Command(goTool, "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
	cmd.Dir = ".."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, errorf("go list: %v\n%s", err, stderr.String())
	}
	res := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		p := strings.TrimPrefix(f[0], modulePath)
		var imps []string
		for _, imp := range f[1:] {
			switch {
			case strings.HasPrefix(imp, modulePath+"dpb/"):
				imps = append(imps, strings.TrimPrefix(imp, modulePath+"dpb/"))
			case strings.Contains(strings.Split(imp, "/")[0], "."):
				name := ""
				for mod, short := range thirdParty {
					if imp == strings.TrimSuffix(mod, "/") || strings.HasPrefix(imp, strings.TrimSuffix(mod, "/")+"/") {
						name = short
					}
				}
				if name == "" {
					return nil, errorf("%s imports %s, a module the test does not name: add it to thirdParty", p, imp)
				}
				if !slices.Contains(imps, name) {
					imps = append(imps, name)
				}
			}
		}
		res[p] = imps
	}
	return res, nil
}

// compareDesign reports every difference between the table and go list.
func compareDesign(rows []designRow, golist map[string][]string) error {
	var errs []string
	seen := map[string]int{}
	for i, r := range rows {
		if _, dup := seen[r.pkg]; dup {
			errs = append(errs, "two rows for "+r.pkg)
		}
		seen[r.pkg] = i
	}
	for p := range golist {
		if _, ok := seen[p]; !ok {
			errs = append(errs, "no row for package "+p+" (go list has it)")
		}
	}
	for i, r := range rows {
		want, ok := golist[r.pkg]
		if !ok {
			errs = append(errs, "a row for "+r.pkg+", which go list does not know")
			continue
		}
		got := slices.Sorted(slices.Values(r.imports))
		w := slices.Sorted(slices.Values(want))
		if !slices.Equal(got, w) {
			errs = append(errs, r.pkg+": the table says it imports ["+strings.Join(got, ", ")+"], go list ["+strings.Join(w, ", ")+"]")
		}
		for _, imp := range want {
			if j, ok := seen["dpb/"+imp]; ok && j > i {
				errs = append(errs, r.pkg+" is listed above dpb/"+imp+", which it imports")
			}
		}
	}
	if len(errs) > 0 {
		slices.Sort(errs)
		return errorf("the README's Design table disagrees with go list:\n  %s", strings.Join(errs, "\n  "))
	}
	return nil
}

func errorf(format string, a ...any) error { return fmt.Errorf(format, a...) }
