package course

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/check"
)

const root = "../.."

// TestIndexIsCommitted: regenerating the index from the code and the check
// registry gives docs/paper-to-code.md byte for byte (dpb course -index
// docs/paper-to-code.md rewrites it).
func TestIndexIsCommitted(t *testing.T) {
	vs, err := Verdicts()
	if err != nil {
		t.Fatal(err)
	}
	got, err := Index(root, Entries, vs)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(root, "docs", "paper-to-code.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("docs/paper-to-code.md is not what the code and the checks give: run dpb course -index docs/paper-to-code.md")
	}
}

// TestIndexCatchesMissing: a planted missing function, verdict, notebook and
// section are each reported by name; the same entries unplanted pass.
func TestIndexCatchesMissing(t *testing.T) {
	vs := check.Verdicts{{Name: "claim17-upper", Pass: true}, {Name: "thm5-Gaussian", Pass: true}}
	good := []Entry{
		{"SS18", "Claim 17", "check.ChiSquareTails", []string{"claim17-upper"}, "ss18_regularizers", "Claims 17–20"},
		{"SS18", "Theorem 5", "ss18.Theorem5Bound", []string{"thm5-*"}, "ss18_regret_bounds", "Regret over time"},
		{"SS18", "a method", "ss18.Setting.GaussianSigma", nil, "ss18_privacy", "Verdicts at the paper's setting"},
	}
	if _, err := Index(root, good, vs); err != nil {
		t.Fatalf("the control fails: %v", err)
	}
	for _, c := range []struct {
		name  string
		plant func(e *Entry)
		want  string
	}{
		{"function", func(e *Entry) { e.Func = "ss18.Theorem5BoundRenamed" }, "function ss18.Theorem5BoundRenamed is not declared"},
		{"method", func(e *Entry) { e.Func = "ss18.Setting.GaussianSigmaGone" }, "function ss18.Setting.GaussianSigmaGone is not declared"},
		{"verdict", func(e *Entry) { e.Verdicts = []string{"thm7-*"} }, "no verdict thm7-*"},
		{"notebook", func(e *Entry) { e.Notebook = "ss18_gone" }, "notebook ss18_gone"},
		{"section", func(e *Entry) { e.Section = "Theorem 7" }, `no heading containing "Theorem 7"`},
	} {
		planted := append([]Entry(nil), good...)
		c.plant(&planted[1])
		if _, err := Index(root, planted, vs); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("planted missing %s: err = %v, want %q", c.name, err, c.want)
		}
	}
}

// TestNotebooksLinkIndex: every notebook's first cell links the index.
func TestNotebooksLinkIndex(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(root, "notebooks", "*.ipynb"))
	for _, p := range paths {
		nb, err := Read(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(nb.Cells[0].Source(), "(../docs/paper-to-code.md)") {
			t.Errorf("%s: the first cell does not link ../docs/paper-to-code.md", filepath.Base(p))
		}
	}
	readme, _ := os.ReadFile(filepath.Join(root, "README.md"))
	if !strings.Contains(string(readme), "(docs/paper-to-code.md)") {
		t.Error("README.md does not link docs/paper-to-code.md")
	}
}
