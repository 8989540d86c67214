package plot

import (
	"bytes"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/audit"
)

// TestAuditScores renders the figure of a small continuous and a small
// categorical audit, and rejects empty scores.
func TestAuditScores(t *testing.T) {
	for _, name := range []string{"laplace-tree-plain", "mt14-dpucb-arms"} {
		m, err := audit.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		r, s, err := audit.RunScores(m, audit.Options{Trials: 2000, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		p, err := AuditScores(r, s)
		if err != nil {
			t.Fatal(err)
		}
		png, err := Render(p, "png")
		if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
			t.Fatalf("%s: render: %v", name, err)
		}
	}
	if _, err := AuditScores(audit.Result{Name: "x"}, audit.Scores{}); err == nil {
		t.Error("empty scores accepted")
	}
}
