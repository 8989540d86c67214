package plot

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The distribution of final regret across runs, beside the mean curves:
// a mean ± s.e. hides runs that split into two groups (MT14's DP-UCB at
// Γ = 0 locks onto a bad arm in some runs and not in others) or a long
// tail. One panel per setting (a gap, an ε), one row per variant: a box
// (quartiles, median, Tukey whiskers at 1.5 IQR) with every run drawn over it
// as a dot, jittered across the row, and the mean as a black cross.

// FinalsPanel is one panel of [FinalRegret]: Finals[i][r] is variant
// Names[i]'s final regret in run r.
type FinalsPanel struct {
	Title  string
	Names  []string
	Finals [][]float64
}

// FinalsOptions configures [FinalRegret].
type FinalsOptions struct {
	// XLabel names the quantity (default "final pseudo-regret").
	XLabel string
	// Linear keeps a linear axis even where the spread would take a log
	// one (see [FinalsLog]).
	Linear bool
}

// FinalsDotRadius is the radius of a run's dot (tests find the dots by it).
var FinalsDotRadius = vg.Points(2.2)

// FinalsLog reports whether a panel's values take a log axis: all of them
// positive and the largest at least 10 times the smallest. A panel holding
// a value ≤ 0 stays linear, so no run is dropped from the picture.
func FinalsLog(finals [][]float64) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, f := range finals {
		for _, v := range f {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	return lo > 0 && hi >= 10*lo
}

// FinalsRowHeight is the height of one variant's row in a panel, and
// FinalsPanelHeight the height of a panel of n rows (title and axis
// included).
const FinalsRowHeight = 0.3 * vg.Inch

// FinalsPanelHeight returns the height of a [FinalRegret] panel of n rows.
func FinalsPanelHeight(n int) vg.Length {
	return vg.Length(vg.Length(n)*FinalsRowHeight) + 1.5*vg.Inch
}

// checkFinals validates a panel: names and finals of the same length, at
// least one variant, at least one run each, every value finite.
func checkFinals(p FinalsPanel) error {
	if len(p.Names) == 0 || len(p.Names) != len(p.Finals) {
		return fmt.Errorf("plot: final regret panel %q: %d names for %d variants (need at least one, one each)", p.Title, len(p.Names), len(p.Finals))
	}
	for i, f := range p.Finals {
		if len(f) == 0 {
			return fmt.Errorf("plot: final regret panel %q: %s has no runs", p.Title, p.Names[i])
		}
		for r, v := range f {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("plot: final regret panel %q: %s, run %d: %v is not finite", p.Title, p.Names[i], r, v)
			}
		}
	}
	return nil
}

// FinalRegret draws one panel per element of panels (see the comment at
// the top of this file): variant i on row i from the top, named on the y
// axis, final regret along x (log where [FinalsLog] says so, unless
// o.Linear). Save with [SaveGrid] at panel height [FinalsPanelHeight].
func FinalRegret(panels []FinalsPanel, o FinalsOptions) ([]*plot.Plot, error) {
	if len(panels) == 0 {
		return nil, fmt.Errorf("plot: final regret: no panels")
	}
	if o.XLabel == "" {
		o.XLabel = "final pseudo-regret"
	}
	var out []*plot.Plot
	for _, fp := range panels {
		if err := checkFinals(fp); err != nil {
			return nil, err
		}
		p, err := finalsPanel(fp, !o.Linear && FinalsLog(fp.Finals), o.XLabel)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// FinalRegretGrid is [FinalRegret] laid out cols panels a row (a short
// last row padded with empty cells), for [SaveGrid] at panel height
// [FinalsPanelHeight] of the most rows, which it returns.
func FinalRegretGrid(panels []FinalsPanel, cols int, o FinalsOptions) ([][]*plot.Plot, vg.Length, error) {
	if cols < 1 {
		return nil, 0, fmt.Errorf("plot: final regret: %d columns, want at least 1", cols)
	}
	ps, err := FinalRegret(panels, o)
	if err != nil {
		return nil, 0, err
	}
	var grid [][]*plot.Plot
	for i := 0; i < len(ps); i += cols {
		row := make([]*plot.Plot, cols)
		copy(row, ps[i:])
		grid = append(grid, row)
	}
	n := 0
	for _, p := range panels {
		n = max(n, len(p.Names))
	}
	return grid, FinalsPanelHeight(n), nil
}

// FinalRegretTiles is [FinalRegretGrid]'s grid alone, for
// [ShowTiledAndSave] in a notebook (its tiles are [TileWidth] × [TileHeight],
// room for about 7 variants a panel).
func FinalRegretTiles(panels []FinalsPanel, cols int) ([][]*plot.Plot, error) {
	g, _, err := FinalRegretGrid(panels, cols, FinalsOptions{})
	return g, err
}

// FinalsPanelWidth is the width of a [FinalRegret] panel.
const FinalsPanelWidth = 6.5 * vg.Inch

// SaveFinalRegret writes [FinalRegretGrid] as base.svg and base.png.
func SaveFinalRegret(panels []FinalsPanel, cols int, o FinalsOptions, base string) error {
	grid, h, err := FinalRegretGrid(panels, cols, o)
	if err != nil {
		return err
	}
	return SaveGrid(grid, base, FinalsPanelWidth, h)
}

// finalsRow returns the y of variant i of n (the first on top).
func finalsRow(i, n int) float64 { return float64(n - 1 - i) }

// finalsJitter returns run r's offset across its row, in (−0.25, 0.25):
// the golden-ratio sequence, so the dots spread evenly whatever the number
// of runs, and the same for every run of the figure (no random stream).
func finalsJitter(r int) float64 {
	f := float64(float64(r) * 0.6180339887498949)
	return float64(0.5 * (f - math.Floor(f) - 0.5))
}

// finalsPanel draws one panel.
func finalsPanel(fp FinalsPanel, logX bool, xLabel string) (*plot.Plot, error) {
	n := len(fp.Names)
	p := plot.New()
	p.Title.Text = fp.Title + "\nbox: quartiles and median, whiskers to 1.5 IQR; ×: mean; dots: the runs"
	p.X.Label.Text = xLabel
	if logX {
		p.X.Label.Text += " (log scale)"
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = NiceLogTicks{}
	} else {
		p.X.Tick.Marker = GTicks{}
	}
	p.Add(plotter.NewGrid())
	for i, fin := range fp.Finals {
		y := finalsRow(i, n)
		col := Colour(i)
		box, err := plotter.NewBoxPlot(vg.Length(0.55*FinalsRowHeight), y, plotter.Values(fin))
		if err != nil {
			return nil, err
		}
		box.Horizontal = true
		box.FillColor = translucent(col, 50)
		box.BoxStyle.Color, box.MedianStyle.Color, box.WhiskerStyle.Color = col, col, col
		box.MedianStyle.Width = vg.Points(2)
		box.GlyphStyle.Shape = noGlyph{} // the dots draw every run, outliers included
		pts := make(plotter.XYs, len(fin))
		var sum float64
		for r, v := range fin {
			pts[r] = plotter.XY{X: v, Y: y + finalsJitter(r)}
			sum += v
		}
		dots, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		dots.GlyphStyle = draw.GlyphStyle{Color: col, Radius: FinalsDotRadius, Shape: draw.CircleGlyph{}}
		rings, err := plotter.NewScatter(pts) // a dark edge: the light palette colours stay visible
		if err != nil {
			return nil, err
		}
		rings.GlyphStyle = draw.GlyphStyle{Color: color.Gray{Y: 40}, Radius: FinalsDotRadius, Shape: draw.RingGlyph{}}
		mean, err := plotter.NewScatter(plotter.XYs{{X: sum / float64(len(fin)), Y: y}})
		if err != nil {
			return nil, err
		}
		mean.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(4.5), Shape: draw.CrossGlyph{}}
		p.Add(box, dots, rings, mean)
	}
	p.X.Min, p.X.Max = finalsRange(fp.Finals, logX)
	names := slices.Clone(fp.Names)
	slices.Reverse(names) // tick i is row i from the bottom
	p.NominalY(names...)
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	return p, nil
}

// finalsRange returns the x range of a panel: its values with a margin of
// 4 % of the span on each side (in log space on a log axis), so that the
// dots at either end are drawn whole.
func finalsRange(finals [][]float64, logX bool) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, f := range finals {
		for _, v := range f {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if logX {
		m := xmath.Pow(hi/lo, 0.04)
		if !(m > 1.05) {
			m = 1.05
		}
		return lo / m, hi * m
	}
	pad := 0.04 * (hi - lo)
	if !(pad > 0) {
		pad = math.Max(0.05*math.Abs(hi), 1)
	}
	return lo - pad, hi + pad
}

// translucent returns c with alpha a (non-premultiplied).
func translucent(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), a}
}

// noGlyph draws nothing.
type noGlyph struct{}

func (noGlyph) DrawGlyph(*draw.Canvas, draw.GlyphStyle, vg.Point) {}
