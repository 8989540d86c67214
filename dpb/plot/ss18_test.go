package plot

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dpbandits/dpbandits/dpb"
	"gonum.org/v1/plot/vg"
)

// TestSS18Figures draws every Appendix D figure from tiny driver runs and
// checks that the files are written.
func TestSS18Figures(t *testing.T) {
	dir := t.TempDir()
	ds, err := dpb.SS18DecisionSet(dpb.LinearEnvConfig{Dim: 3, K: 200, Gap: 0.1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	p1, err := SS18Fig1(ds, SS18Fig1View)
	if err != nil {
		t.Fatal(err)
	}
	w, h := SS18Fig1Size(4 * vg.Inch)
	if err := SaveSized(p1, filepath.Join(dir, "fig1"), w, h); err != nil {
		t.Fatal(err)
	}
	e1, err := dpb.SS18Experiment1(dpb.SS18Exp1Config{Dims: []int{3, 4}, Horizon: 100, Reps: 2, Points: 5})
	if err != nil {
		t.Fatal(err)
	}
	g2, err := SS18Fig2(e1)
	if err != nil {
		t.Fatal(err)
	}
	if err := SaveGrid(g2, filepath.Join(dir, "fig2"), 3*vg.Inch, 2*vg.Inch); err != nil {
		t.Fatal(err)
	}
	p3, err := SS18Fig3(e1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Render(p3, "png"); err != nil {
		t.Fatal(err)
	}
	e2, err := dpb.SS18Experiment2(dpb.SS18Exp2Config{Dim: 3, Horizon: 100, Reps: 2, Points: 5})
	if err != nil {
		t.Fatal(err)
	}
	g4, err := SS18Fig4(e2, 50)
	if err != nil {
		t.Fatal(err)
	}
	if err := SaveGrid(g4, filepath.Join(dir, "fig4"), 3*vg.Inch, 2*vg.Inch); err != nil {
		t.Fatal(err)
	}
	e3, err := dpb.SS18Experiment3(dpb.SS18Exp3Config{Dim: 3, Horizon: 100, Reps: 2, RhoMins: 3, Gaps: []float64{0.1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	g5, err := SS18Fig5(e3)
	if err != nil {
		t.Fatal(err)
	}
	if err := SaveGrid(g5, filepath.Join(dir, "fig5"), 3*vg.Inch, 2*vg.Inch); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"fig1.png", "fig1.svg", "fig2.png", "fig4.svg", "fig5.png"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s not written (%v)", f, err)
		}
	}
	if FormatCount(20000) != "2·10^4" || FormatCount(1000000) != "10^6" || FormatCount(1234) != "1234" {
		t.Errorf("FormatCount: %q %q %q", FormatCount(20000), FormatCount(1000000), FormatCount(1234))
	}
}
