// Package plot draws the figures of package dpb with gonum/plot and shows
// them in GoNB notebooks. It is the only package that imports plotting and
// notebook libraries, so package dpb stays light.
package plot

import (
	"bytes"
	"image/color"

	"github.com/dpbandits/dpbandits/dpb/harness"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Palette is a colour-blind-safe palette (Okabe & Ito).
var Palette = []color.Color{
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{213, 94, 0, 255},    // vermillion
	color.RGBA{0, 158, 115, 255},   // green
	color.RGBA{204, 121, 167, 255}, // purple
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{86, 180, 233, 255},  // sky blue
	color.RGBA{0, 0, 0, 255},       // black
	color.RGBA{240, 228, 66, 255},  // yellow
}

// Colour returns the i-th palette colour, cycling.
func Colour(i int) color.Color { return Palette[i%len(Palette)] }

// CurveOptions configures [Curves].
type CurveOptions struct {
	Title, XLabel, YLabel string
	LogX, LogY            bool
	// Band draws mean ± Band·stderr as a shaded area (0: no band).
	Band float64
	// YMin and YMax fix the y range when YMax > YMin.
	YMin, YMax float64
	// HLines draws dashed grey horizontal reference lines (e.g. a bound at 1).
	HLines []float64
	// Legend placement: top-left unless LegendBottom / LegendRight, or in a
	// band above the data with LegendAbove (see [LegendAbove]).
	LegendBottom, LegendRight, LegendAbove bool
	// Paired draws series 2i and 2i+1 in one colour, the second dashed (e.g.
	// a measured curve and its bound).
	Paired bool
	// Gradient colours the series along [Gradient], solid, listed last to
	// first (for many series ordered by a parameter, such as d).
	Gradient bool
}

// Curves plots every series of c as a line with an optional standard-error band.
func Curves(c *harness.Curves, o CurveOptions) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = o.Title
	p.X.Label.Text = o.XLabel
	p.Y.Label.Text = o.YLabel
	if o.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	if o.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	p.Legend.Top = !o.LegendBottom
	p.Legend.Left = !o.LegendRight
	p.Legend.Padding = vg.Points(4)
	p.Add(plotter.NewGrid())
	if o.YMax > o.YMin {
		p.Y.Min, p.Y.Max = o.YMin, o.YMax
	}
	if len(o.HLines) > 0 && len(c.X) > 0 {
		lo, hi := c.X[0], c.X[len(c.X)-1]
		for k := 0; o.LogX && !(lo > 0) && k < len(c.X); k++ {
			lo = c.X[k] // a log axis has no 0: start at the first positive x
		}
		for _, y := range o.HLines {
			if o.LogX && !(lo > 0) || o.LogY && !(y > 0) {
				continue // not on a log axis
			}
			l, err := plotter.NewLine(plotter.XYs{{X: lo, Y: y}, {X: hi, Y: y}})
			if err != nil {
				return nil, err
			}
			l.Color = color.Gray{Y: 110}
			l.Width = vg.Points(1)
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			p.Add(l)
		}
	}
	order := make([]int, len(c.Names))
	for i := range order {
		order[i] = i
		if o.Gradient {
			order[i] = len(order) - 1 - i
		}
	}
	for _, s := range order {
		name := c.Names[s]
		pts := make(plotter.XYs, 0, len(c.X))
		var lo, hi plotter.XYs
		for k, x := range c.X {
			y := c.Mean[s][k]
			if (o.LogX && x <= 0) || (o.LogY && y <= 0) {
				continue
			}
			pts = append(pts, plotter.XY{X: x, Y: y})
			if o.Band > 0 {
				d := float64(o.Band * c.StdErr[s][k])
				l := y - d
				if o.LogY && l <= 0 {
					l = y / 2
				}
				lo = append(lo, plotter.XY{X: x, Y: l})
				hi = append(hi, plotter.XY{X: x, Y: y + d})
			}
		}
		if len(pts) == 0 {
			continue
		}
		col, dashes := Colour(s), Dashes(s)
		switch {
		case o.Gradient:
			col, dashes = Gradient(s, len(c.Names)), nil
		case o.Paired:
			col, dashes = Colour(s/2), nil
			if s%2 == 1 {
				dashes = []vg.Length{vg.Points(6), vg.Points(3)}
			}
		}
		if o.Band > 0 && len(lo) > 1 {
			poly := make(plotter.XYs, 0, 2*len(lo))
			poly = append(poly, lo...)
			for i := len(hi) - 1; i >= 0; i-- {
				poly = append(poly, hi[i])
			}
			band, err := plotter.NewPolygon(poly)
			if err != nil {
				return nil, err
			}
			r, g, b, _ := col.RGBA()
			band.Color = color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 60} // non-premultiplied: RGBA would need r, g, b <= alpha
			band.LineStyle.Width = 0
			p.Add(band)
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, err
		}
		l.Color = col
		l.Width = vg.Points(1.5)
		l.Dashes = dashes
		p.Add(l)
		p.Legend.Add(name, l)
	}
	if o.LegendAbove {
		LegendAbove(p)
	}
	return p, nil
}

// Dashes returns a dash pattern per series so lines differ without colour.
// The pattern advances by one more after each pass through the [Palette],
// so (Colour(i), Dashes(i)) differ for the first 4·len(Palette) series (a
// ninth series would otherwise repeat the first's colour and dashes).
func Dashes(i int) []vg.Length {
	switch (i + i/len(Palette)) % 4 {
	case 1:
		return []vg.Length{vg.Points(6), vg.Points(3)}
	case 2:
		return []vg.Length{vg.Points(2), vg.Points(2)}
	case 3:
		return []vg.Length{vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)}
	}
	return nil
}

// Glyph returns a marker shape per series so markers differ without colour.
func Glyph(i int) draw.GlyphDrawer {
	switch i % 5 {
	case 1:
		return draw.SquareGlyph{}
	case 2:
		return draw.TriangleGlyph{}
	case 3:
		return draw.PlusGlyph{}
	case 4:
		return draw.CrossGlyph{}
	}
	return draw.CircleGlyph{}
}

// Default figure size.
var (
	Width  = 7 * vg.Inch
	Height = 4.5 * vg.Inch
)

// Save writes p as base.svg and base.png (base without extension) at the
// default size (taller by the legend band of [LegendAbove], see [Size]),
// creating the folder if needed (see [SaveSized]).
func Save(p *plot.Plot, base string) error {
	w, h := Size(p)
	return SaveSized(p, base, w, h)
}

// Render returns p rendered in format "svg" or "png" at [Size].
func Render(p *plot.Plot, format string) ([]byte, error) {
	wd, ht := Size(p)
	drawable(p)
	w, err := p.WriterTo(wd, ht, format)
	if err != nil {
		return nil, err
	}
	if format == "svg" {
		w = svgFonts{w}
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
