package plot

import (
	"image/color"
	"math"

	"github.com/dpbandits/dpbandits/dpb/harness"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// HLine adds a dashed grey horizontal line at y spanning the plot's x range
// (as it is when called), with a legend entry.
func HLine(p *plot.Plot, y float64, label string) error {
	xmin, xmax := p.X.Min, p.X.Max
	if xmin >= xmax {
		xmin, xmax = 0, 1
	}
	l, err := plotter.NewLine(plotter.XYs{{X: xmin, Y: y}, {X: xmax, Y: y}})
	if err != nil {
		return err
	}
	l.Color = color.Gray{Y: 90}
	l.Width = vg.Points(1)
	l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(l)
	if label != "" {
		p.Legend.Add(label, l)
	}
	return nil
}

// RoundRatios plots per-round ratios (value/bound or bound/value, from
// dpb.TreeRounds.Curves) on a log y-axis with the bound at 1: above the line
// the bound failed.
func RoundRatios(c *harness.Curves, title string) (*plot.Plot, error) {
	p, err := Curves(c, CurveOptions{Title: title, XLabel: "round t", YLabel: "median ratio (> 1 fails)", LogY: true})
	if err != nil {
		return nil, err
	}
	// The bound (ratio 1) stays inside the y range with some room; the
	// legend goes above the data (it used to need a wasted band of decades).
	p.Y.Min = math.Min(p.Y.Min, 0.5)
	p.Y.Max = math.Max(p.Y.Max, 2)
	if err := HLine(p, 1, "bound (ratio 1)"); err != nil {
		return nil, err
	}
	RoomForLastXTick(p, 0.04)
	LegendAbove(p)
	return p, nil
}
