package plot

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/dpbandits/dpbandits/dpb/harness"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// LogLogOptions configures [LogLogFit].
type LogLogOptions struct {
	Title, XLabel, YLabel string
	// FitFrom fits only the points with x >= FitFrom (0: all points).
	FitFrom float64
	// Refs, if non-nil, are drawn as thin dotted lines in the series'
	// colours, without fits (e.g. the theoretical bounds); the legend shows
	// one entry for them, RefLegend (e.g. "dotted: bounds").
	Refs      *harness.Curves
	RefLegend string
	// NoLegend hides the legend (for small tiles).
	NoLegend bool
}

// LogLogFit plots every series of c on log–log axes as points with ±2
// standard-error bars, and a dashed least-squares line through each series
// (the fit of [dpb.FitLogLog] over x >= FitFrom), naming the slope in the
// legend: "name: slope 0.50 ± 0.01". Points with y <= 0 are left out of
// both the plot and the fit. It returns the plot and the fits, one per series.
func LogLogFit(c *harness.Curves, o LogLogOptions) (*plot.Plot, []harness.Fit, error) {
	p := plot.New()
	p.Title.Text = o.Title
	p.X.Label.Text = o.XLabel
	p.Y.Label.Text = o.YLabel
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	p.Add(plotter.NewGrid())
	fits := make([]harness.Fit, len(c.Names))
	for s, name := range c.Names {
		col := Colour(s)
		var pts plotter.XYs
		var errs plotter.YErrors
		var fx, fy []float64
		for k, x := range c.X {
			y := c.Mean[s][k]
			if x <= 0 || y <= 0 || math.IsNaN(y) {
				continue
			}
			pts = append(pts, plotter.XY{X: x, Y: y})
			d := 2 * c.StdErr[s][k]
			lo := d
			if y-lo <= 0 {
				lo = y / 2 // keep the bar on the log axis
			}
			errs = append(errs, struct{ Low, High float64 }{lo, d})
			if x >= o.FitFrom {
				fx = append(fx, x)
				fy = append(fy, y)
			}
		}
		fits[s] = harness.FitLogLog(fx, fy)
		if len(pts) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, nil, err
		}
		sc.Color = col
		sc.GlyphStyle.Radius = vg.Points(2.5)
		sc.GlyphStyle.Shape = Glyph(s)
		p.Add(sc)
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{pts, errs})
		if err != nil {
			return nil, nil, err
		}
		eb.Color = col
		p.Add(eb)
		label := name
		if f := fits[s]; !math.IsNaN(f.Slope) {
			label = fmt.Sprintf("%s: slope %.2f", name, f.Slope)
			if !math.IsNaN(f.SlopeSE) {
				label += fmt.Sprintf(" ± %.2f", f.SlopeSE)
			}
			x0, x1 := fx[0], fx[len(fx)-1]
			line, err := plotter.NewLine(plotter.XYs{
				{X: x0, Y: math.Exp(f.Intercept + float64(f.Slope*math.Log(x0)))},
				{X: x1, Y: math.Exp(f.Intercept + float64(f.Slope*math.Log(x1)))},
			})
			if err != nil {
				return nil, nil, err
			}
			line.Color = col
			line.Width = vg.Points(1.2)
			line.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			p.Add(line)
		}
		if !o.NoLegend {
			p.Legend.Add(label, sc)
		}
	}
	if o.Refs != nil {
		first := true
		for s := range o.Refs.Names {
			var pts plotter.XYs
			for k, x := range o.Refs.X {
				if y := o.Refs.Mean[s][k]; x > 0 && y > 0 {
					pts = append(pts, plotter.XY{X: x, Y: y})
				}
			}
			if len(pts) < 2 {
				continue
			}
			l, err := plotter.NewLine(pts)
			if err != nil {
				return nil, nil, err
			}
			l.Color = Colour(s)
			l.Width = vg.Points(0.8)
			l.Dashes = []vg.Length{vg.Points(1), vg.Points(2)}
			p.Add(l)
			if !o.NoLegend && first {
				p.Legend.Add(o.RefLegend, l)
				first = false
			}
		}
	}
	return p, fits, nil
}

// SaveTiled lays plots out on a grid (rows × columns; nil entries stay empty),
// each tile w × h, and writes base.svg and base.png (at 150 dpi).
func SaveTiled(plots [][]*plot.Plot, w, h vg.Length, base string) error {
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return err
	}
	for _, ext := range []string{"svg", "png"} {
		var buf bytes.Buffer
		if err := WriteTiled(&buf, plots, w, h, ext); err != nil {
			return err
		}
		if err := writeFile(base+"."+ext, &buf); err != nil {
			return err
		}
	}
	return nil
}

// WriteTiled renders the grid of [SaveTiled] in format "svg" or "png" to out.
func WriteTiled(out io.Writer, plots [][]*plot.Plot, w, h vg.Length, format string) error {
	rows := len(plots)
	if rows == 0 {
		return fmt.Errorf("plot: no plots")
	}
	cols := len(plots[0])
	W, H := w*vg.Length(cols), h*vg.Length(rows)
	var c vg.CanvasWriterTo
	switch format {
	case "svg":
		c = vgsvg.New(W, H)
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(W, H), vgimg.UseDPI(150), vgimg.UseBackgroundColor(color.White))}
	default:
		return fmt.Errorf("plot: unknown format %q", format)
	}
	t := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	for _, r := range plots {
		for _, p := range r {
			drawable(p)
		}
	}
	canvases := plot.Align(plots, t, draw.New(c))
	for j := range plots {
		for i := range plots[j] {
			if plots[j][i] != nil {
				plots[j][i].Draw(canvases[j][i])
			}
		}
	}
	var wt io.WriterTo = c
	if format == "svg" {
		wt = svgFonts{c}
	}
	_, err := wt.WriteTo(out)
	return err
}
