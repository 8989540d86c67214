package nb

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/figspec"
)

// figureLink matches a link to a committed figure in PaperScale's markdown.
var figureLink = regexp.MustCompile(`\]\(\.\./figures/([^)]+)\)`)

// listedFiles returns, per line of md naming `dpb reproduce NAME`, the files
// the line links (the JSON apart) and whether it says NAME.json is committed.
func listedFiles(md string) (files map[string][]string, committed map[string]bool) {
	files, committed = map[string][]string{}, map[string]bool{}
	cmd := regexp.MustCompile("`dpb reproduce ([a-z][a-z0-9-]*)`")
	for _, line := range strings.Split(md, "\n") {
		m := cmd.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		name := m[1]
		files[name] = []string{}
		for _, l := range figureLink.FindAllStringSubmatch(line, -1) {
			if l[1] == name+".json" {
				committed[name] = true
				continue
			}
			files[name] = append(files[name], l[1])
		}
	}
	return files, committed
}

// sameAsSpecs reports the first figure of names whose listed files are not
// its spec's Files(), or that md does not list.
func sameAsSpecs(md string, names []string) error {
	files, _ := listedFiles(md)
	if len(files) != len(names) {
		return fmt.Errorf("%d figures listed, want %d", len(files), len(names))
	}
	for _, name := range names {
		s, _ := figspec.Lookup(name)
		if got, ok := files[name]; !ok || !slices.Equal(got, s.Files()) {
			return fmt.Errorf("%s: files %q, want the spec's %q", name, got, s.Files())
		}
	}
	return nil
}

// TestPaperScale: each figure's command, summary and the spec's files, and
// the committed JSON only where it is. The controls: an unknown name fails,
// and a file list that is not the spec's is caught by the comparison.
func TestPaperScale(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "as17-table1.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	names := []string{"as17-table1", "mt14-fig1-k5"}
	md, err := paperScale(dir, names)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameAsSpecs(md, names); err != nil {
		t.Errorf("%v\n%s", err, md)
	}
	for _, name := range names {
		s, _ := figspec.Lookup(name)
		if !strings.Contains(md, s.Summary) {
			t.Errorf("%s: summary %q not shown", name, s.Summary)
		}
	}
	if _, committed := listedFiles(md); !committed["as17-table1"] || committed["mt14-fig1-k5"] {
		t.Errorf("committed = %v, want as17-table1 only", committed)
	}

	// Controls.
	if _, err := paperScale(dir, []string{"as17-table1", "mt14-fig9"}); err == nil {
		t.Error("an unknown figure name accepted")
	}
	if _, err := paperScale(dir, nil); err == nil {
		t.Error("no figure names accepted")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("PaperScale did not panic on an unknown figure")
			}
		}()
		PaperScale("no-such-figure")
	}()
	dropped := strings.Replace(md, ", [as17-table1-eps.csv](../figures/as17-table1-eps.csv)", "", 1)
	renamed := strings.Replace(md, "(../figures/mt14-fig1-k5.csv)", "(../figures/mt14-fig1-k5.tsv)", 1)
	for what, bad := range map[string]string{"a file dropped": dropped, "a file renamed": renamed} {
		if bad == md {
			t.Fatalf("%s: the planted defect changed nothing (the markdown's layout changed?)", what)
		}
		if err := sameAsSpecs(bad, names); err == nil {
			t.Errorf("%s: a file list that is not the spec's passes", what)
		}
	}
	if sameAsSpecs(md, names[:1]) == nil {
		t.Error("an extra figure passes")
	}
}

// TestPaperScaleNotebookNames: every figure a notebook passes to
// nb.PaperScale is in the table, so the notebook cell cannot fail on it.
func TestPaperScaleNotebookNames(t *testing.T) {
	call := regexp.MustCompile(`nb\.PaperScale\(([^)]*)\)`)
	str := regexp.MustCompile(`\\"([^"\\]+)\\"`)
	n := 0
	for _, f := range notebookFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range call.FindAllStringSubmatch(string(data), -1) {
			for _, s := range str.FindAllStringSubmatch(c[1], -1) {
				n++
				if _, ok := figspec.Lookup(s[1]); !ok {
					t.Errorf("%s: nb.PaperScale(%q): no such figure in dpb/figspec", filepath.Base(f), s[1])
				}
			}
		}
	}
	t.Logf("%d figure names in the notebooks' nb.PaperScale calls", n)
}
