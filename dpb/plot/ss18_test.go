package plot

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/ss18fig"
	"gonum.org/v1/plot/vg"
)

// TestSS18Figures draws every Appendix D figure from tiny driver runs and
// checks that the files are written.
func TestSS18Figures(t *testing.T) {
	dir := t.TempDir()
	ds, err := ss18fig.DecisionSet(env.LinearEnvConfig{Dim: 3, K: 200, Gap: 0.1}, 1)
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
	e1, err := ss18fig.Experiment1(ss18fig.Exp1Config{Dims: []int{3, 4}, Horizon: 100, Reps: 2, Points: 5})
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
	e2, err := ss18fig.Experiment2(ss18fig.Exp2Config{Dim: 3, Horizon: 100, Reps: 2, Points: 5})
	if err != nil {
		t.Fatal(err)
	}
	g4, err := SS18Fig4(e2, 50)
	if err != nil {
		t.Fatal(err)
	}
	f4, err := SS18Finals(e2, "SS18 Fig. 4")
	if err != nil {
		t.Fatal(err)
	}
	if len(f4) != 2 || len(f4[1].Names) != 4 || len(f4[1].Finals[3]) != 2 {
		t.Errorf("finals panels %+v, want 2 gaps × 4 variants × 2 runs", f4)
	}
	if err := SaveFinalRegret(f4, 2, FinalsOptions{}, filepath.Join(dir, "fig4-finals")); err != nil {
		t.Fatal(err)
	}
	tiles, err := FinalRegretTiles(f4, 2) // as the notebook shows them
	if err != nil {
		t.Fatal(err)
	}
	if err := SaveTiled(tiles, TileWidth, TileHeight, filepath.Join(dir, "fig4-finals-tiles")); err != nil {
		t.Fatal(err)
	}
	if len(tiles) != 1 || len(tiles[0]) != 2 || tiles[0][1] == nil {
		t.Errorf("tiles %v, want one row of the two gaps", tiles)
	}
	e2.Finals = e2.Finals[:1]
	if _, err := SS18Finals(e2, "x"); err == nil {
		t.Error("SS18Finals with the finals of one gap of two gave no error")
	}
	if err := SaveGrid(g4, filepath.Join(dir, "fig4"), 3*vg.Inch, 2*vg.Inch); err != nil {
		t.Fatal(err)
	}
	e3, err := ss18fig.Experiment3(ss18fig.Exp3Config{Dim: 3, Horizon: 100, Reps: 2, RhoMins: 3, Gaps: []float64{0.1, 0}})
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
	for _, f := range []string{"fig1.png", "fig1.svg", "fig2.png", "fig4.svg", "fig4-finals.png", "fig5.png"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s not written (%v)", f, err)
		}
	}
	if FormatCount(20000) != "2·10^4" || FormatCount(1000000) != "10^6" || FormatCount(1234) != "1234" {
		t.Errorf("FormatCount: %q %q %q", FormatCount(20000), FormatCount(1000000), FormatCount(1234))
	}
}

// TestViewBasis checks that the camera basis is orthonormal and right-handed
// (right × up = toward) and that SliceCircle lies on its circle.
func TestViewBasis(t *testing.T) {
	for _, v := range []View{{0, 0}, {35, 20}, {-120, 75}} {
		r, u, w := v.basis()
		for _, c := range []struct {
			a, b [3]float64
			want float64
		}{{r, r, 1}, {u, u, 1}, {w, w, 1}, {r, u, 0}, {r, w, 0}, {u, w, 0}} {
			if got := dot3(c.a, c.b); math.Abs(got-c.want) > 1e-12 {
				t.Errorf("view %v: dot %v, want %v", v, got, c.want)
			}
		}
		cross := [3]float64{r[1]*u[2] - r[2]*u[1], r[2]*u[0] - r[0]*u[2], r[0]*u[1] - r[1]*u[0]}
		if math.Abs(dot3(cross, w)-1) > 1e-12 {
			t.Errorf("view %v: basis not right-handed", v)
		}
		if x, y, d := v.Project(w); math.Abs(x) > 1e-12 || math.Abs(y) > 1e-12 || math.Abs(d-1) > 1e-12 {
			t.Errorf("view %v: the viewer direction projects to (%v, %v, %v)", v, x, y, d)
		}
	}
	th := [3]float64{0.6, 0, 0.8}
	for _, p := range SliceCircle(th, 0.75, 16) {
		if math.Abs(dot3(p, p)-1) > 1e-12 || math.Abs(dot3(p, th)-0.75) > 1e-12 {
			t.Fatalf("SliceCircle point %v off the circle", p)
		}
	}
}
