package plot

import (
	"path/filepath"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/harness"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// TestLogAxisWithoutRange draws curves on log axes whose data give no
// positive range: one positive value (MT14 Fig. 1 at -n 2: the regret is 0
// in round 1, skipped on a log axis, and one value in round 2), no
// positive value, and a grid of such panels. gonum/plot panicked on each
// ("Values must be greater than 0 for a log scale").
func TestLogAxisWithoutRange(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    *harness.Curves
		o    CurveOptions
	}{
		{"one value", &harness.Curves{Names: []string{"a", "b"}, X: []float64{1, 2}, Mean: [][]float64{{0, 0.5}, {0, 0.5}}, StdErr: [][]float64{{0, 0}, {0, 0}}}, CurveOptions{LogY: true}},
		{"no positive value", &harness.Curves{Names: []string{"a"}, X: []float64{1, 2}, Mean: [][]float64{{0, 0}}, StdErr: [][]float64{{0, 0}}}, CurveOptions{LogY: true, LogX: true}},
		{"log x from 0", &harness.Curves{Names: []string{"a"}, X: []float64{0, 5}, Mean: [][]float64{{1, 2}}, StdErr: [][]float64{{0, 0}}}, CurveOptions{LogX: true, HLines: []float64{1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Curves(tc.c, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Render(p, "svg"); err != nil {
				t.Fatal(err)
			}
			q, err := Curves(tc.c, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			if err := SaveGrid([][]*plot.Plot{{q, nil}}, filepath.Join(t.TempDir(), "grid"), 3*vg.Inch, 2*vg.Inch); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestLogAxisKeepsPositiveRange checks that drawing leaves a log axis
// with a positive range as it is, so that no committed figure changes.
func TestLogAxisKeepsPositiveRange(t *testing.T) {
	c := &harness.Curves{Names: []string{"a"}, X: []float64{1, 2, 4}, Mean: [][]float64{{0.25, 3, 40}}, StdErr: [][]float64{{0, 0, 0}}}
	p, err := Curves(c, CurveOptions{LogX: true, LogY: true})
	if err != nil {
		t.Fatal(err)
	}
	x0, x1, y0, y1 := p.X.Min, p.X.Max, p.Y.Min, p.Y.Max
	if _, err := Render(p, "svg"); err != nil {
		t.Fatal(err)
	}
	if p.X.Min != x0 || p.X.Max != x1 || p.Y.Min != y0 || p.Y.Max != y1 {
		t.Errorf("ranges [%v, %v] × [%v, %v] became [%v, %v] × [%v, %v]", x0, x1, y0, y1, p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}
}
