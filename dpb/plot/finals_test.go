package plot

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// finalsDot is a run's dot as drawn: its centre on the canvas.
type finalsDot struct{ x, y vg.Length }

// drawnDots draws p on a recorder and returns the centres of the filled
// circles of radius FinalsDotRadius (the runs' dots; the box, the whiskers
// and the mean's cross draw no arc) and the y of every drawn text.
func drawnDots(t *testing.T, p *plot.Plot) ([]finalsDot, map[string]vg.Length) {
	t.Helper()
	var rec recorder.Canvas
	p.Draw(draw.NewCanvas(&rec, Width, Height))
	var dots []finalsDot
	texts := map[string]vg.Length{}
	for _, a := range rec.Actions {
		switch a := a.(type) {
		case *recorder.Fill:
			for _, c := range a.Path {
				if c.Type == vg.ArcComp && c.Radius == FinalsDotRadius {
					dots = append(dots, finalsDot{c.Pos.X, c.Pos.Y})
				}
			}
		case *recorder.FillString:
			texts[a.String] = a.Point.Y
		}
	}
	return dots, texts
}

// checkFinalsDrawn checks that panel fp, drawn, shows every run of every
// variant once, on the row whose y label names the variant, at an x that is
// an affine function of the value (of its logarithm when logX).
func checkFinalsDrawn(t *testing.T, fp FinalsPanel, logX bool) {
	t.Helper()
	ps, err := FinalRegret([]FinalsPanel{fp}, FinalsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, isLog := ps[0].X.Scale.(plot.LogScale); isLog != logX {
		t.Fatalf("%s: log x axis %v, want %v", fp.Title, isLog, logX)
	}
	dots, texts := drawnDots(t, ps[0])
	rowY := make([]vg.Length, len(fp.Names))
	for i, n := range fp.Names {
		y, ok := texts[n]
		if !ok {
			t.Fatalf("%s: no label %q drawn", fp.Title, n)
		}
		rowY[i] = y
		if i > 0 && !(y < rowY[i-1]) {
			t.Errorf("%s: %q drawn at y %v, not below %q (%v): the first variant goes on top", fp.Title, n, y, fp.Names[i-1], rowY[i-1])
		}
	}
	// Each dot goes to the row whose label is nearest in y.
	xs := make([][]float64, len(fp.Names))
	for _, d := range dots {
		best := 0
		for i := range rowY {
			if math.Abs(float64(d.y-rowY[i])) < math.Abs(float64(d.y-rowY[best])) {
				best = i
			}
		}
		xs[best] = append(xs[best], float64(d.x))
	}
	f := func(v float64) float64 {
		if logX {
			return math.Log(v)
		}
		return v
	}
	// Pair each row's dots, left to right, with its values in increasing
	// order; then x must be a + b·f(value) for every pair.
	var vs, px []float64
	for i, fin := range fp.Finals {
		if len(xs[i]) != len(fin) {
			t.Fatalf("%s: %q: %d dots on its row, want its %d runs", fp.Title, fp.Names[i], len(xs[i]), len(fin))
		}
		v := slices.Sorted(slices.Values(fin))
		slices.Sort(xs[i])
		for r := range v {
			vs, px = append(vs, f(v[r])), append(px, xs[i][r])
		}
	}
	lo, hi := 0, 0
	for k := range vs {
		if vs[k] < vs[lo] {
			lo = k
		}
		if vs[k] > vs[hi] {
			hi = k
		}
	}
	b := (px[hi] - px[lo]) / (vs[hi] - vs[lo])
	for k := range vs {
		// 0.01 pt: the recorder keeps the canvas coordinates in float64.
		if want := px[lo] + b*(vs[k]-vs[lo]); math.Abs(px[k]-want) > 0.01 {
			t.Errorf("%s: a run at f(value) = %v drawn at x %v, want %v (x not affine in f, the value's %s)", fp.Title, vs[k], px[k], want, map[bool]string{true: "log", false: "identity"}[logX])
		}
	}
}

// TestFinalRegretDrawsEveryRun: every run of every variant is drawn once,
// on its variant's row (the first on top), at its value: on a log axis
// where the values span a factor 10 or more, on a linear one where they do
// not or one is 0 (which a log axis would drop). The variants' values are
// far apart and differ in number, so a run drawn on another row, dropped
// or drawn twice, or a wrong scale, fails.
func TestFinalRegretDrawsEveryRun(t *testing.T) {
	wide := FinalsPanel{Title: "wide", Names: []string{"alpha", "beta (long name, Γ=0)", "gamma"},
		Finals: [][]float64{{100, 120, 150, 90, 200}, {1000, 1100, 5000, 900}, {10, 12, 11}}}
	checkFinalsDrawn(t, wide, true)
	narrow := FinalsPanel{Title: "narrow", Names: []string{"a", "b"}, Finals: [][]float64{{50, 52, 61, 70}, {80, 75, 90}}}
	checkFinalsDrawn(t, narrow, false)
	zero := FinalsPanel{Title: "zero", Names: []string{"a", "b"}, Finals: [][]float64{{0, 3, 4}, {500, 800}}}
	checkFinalsDrawn(t, zero, false)
	one := FinalsPanel{Title: "one run", Names: []string{"a"}, Finals: [][]float64{{7}}}
	checkFinalsDrawn(t, one, false)
}

// TestFinalsLog: the rule for a log axis, at its edges.
func TestFinalsLog(t *testing.T) {
	for _, c := range []struct {
		fin  [][]float64
		want bool
	}{
		{[][]float64{{1, 10}}, true},
		{[][]float64{{1}, {9.99}}, false},
		{[][]float64{{0, 100}}, false},
		{[][]float64{{-1, 100}}, false},
		{[][]float64{{5}}, false},
	} {
		if got := FinalsLog(c.fin); got != c.want {
			t.Errorf("FinalsLog(%v) = %v, want %v", c.fin, got, c.want)
		}
	}
}

// TestFinalRegretErrors: malformed panels are errors that name the problem.
func TestFinalRegretErrors(t *testing.T) {
	ok := [][]float64{{1, 2}}
	for _, c := range []struct {
		panels []FinalsPanel
		want   string
	}{
		{nil, "no panels"},
		{[]FinalsPanel{{Names: []string{"a", "b"}, Finals: ok}}, "2 names for 1 variants"},
		{[]FinalsPanel{{Names: nil, Finals: nil}}, "0 names"},
		{[]FinalsPanel{{Names: []string{"a"}, Finals: [][]float64{{}}}}, "a has no runs"},
		{[]FinalsPanel{{Names: []string{"a"}, Finals: [][]float64{{1, math.NaN()}}}}, "run 1: NaN is not finite"},
		{[]FinalsPanel{{Names: []string{"a"}, Finals: [][]float64{{math.Inf(1)}}}}, "+Inf is not finite"},
	} {
		_, err := FinalRegret(c.panels, FinalsOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("FinalRegret(%v): error %v, want one containing %q", c.panels, err, c.want)
		}
	}
}

// TestFinalRegretGrid: cols panels a row, the last row padded with empty
// cells; the height fits the panel with the most rows; 0 columns is an error.
func TestFinalRegretGrid(t *testing.T) {
	mk := func(n int) FinalsPanel {
		p := FinalsPanel{Title: "p"}
		for i := range n {
			p.Names = append(p.Names, strconv.Itoa(i))
			p.Finals = append(p.Finals, []float64{1, 2})
		}
		return p
	}
	g, h, err := FinalRegretGrid([]FinalsPanel{mk(2), mk(5), mk(3)}, 2, FinalsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(g) != 2 || len(g[0]) != 2 || len(g[1]) != 2 || g[1][0] == nil || g[1][1] != nil {
		t.Errorf("grid %v, want 2 rows of 2, the last cell empty", g)
	}
	if h != FinalsPanelHeight(5) {
		t.Errorf("height %v, want that of 5 rows (%v)", h, FinalsPanelHeight(5))
	}
	if _, _, err := FinalRegretGrid([]FinalsPanel{mk(1)}, 0, FinalsOptions{}); err == nil {
		t.Error("0 columns gave no error")
	}
}
