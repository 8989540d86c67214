package plot

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/dpbandits/dpbandits/dpb/internal/atomicfile"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// SaveGrid writes a rows × cols grid of plots (nil cells stay empty) as
// base.svg and base.png, each panel w × h, with aligned axes.
func SaveGrid(plots [][]*plot.Plot, base string, w, h vg.Length) error {
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return err
	}
	rows := len(plots)
	cols := 0
	for _, r := range plots {
		cols = max(cols, len(r))
	}
	W, H := w*vg.Length(cols), h*vg.Length(rows)
	for _, r := range plots {
		for _, p := range r {
			drawable(p)
		}
	}
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(12), PadY: vg.Points(12),
		PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(8)}
	drawAll := func(c vg.CanvasSizer) {
		dc := draw.New(c)
		canv := plot.Align(plots, tiles, dc)
		for j := range plots {
			for i, p := range plots[j] {
				if p != nil {
					p.Draw(canv[j][i])
				}
			}
		}
	}
	svg := vgsvg.New(W, H)
	drawAll(svg)
	if err := writeFile(base+".svg", svgFonts{svg}); err != nil {
		return err
	}
	img := vgimg.NewWith(vgimg.UseWH(W, H), vgimg.UseBackgroundColor(color.White))
	drawAll(img)
	return writeFile(base+".png", vgimg.PngCanvas{Canvas: img})
}

// writeFile writes the file name from w atomically: a reader (or a run
// killed while writing) sees the old complete file or the new complete one,
// never a part (see package atomicfile). Every save function uses it.
func writeFile(name string, w io.WriterTo) error {
	err := atomicfile.WriteFile(name, 0o644, func(f io.Writer) error {
		_, err := w.WriteTo(f)
		return err
	})
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	return nil
}

// Gradient returns colour i of n along a dark-blue → orange → red ramp
// (for series ordered by a parameter, such as the dimension d).
func Gradient(i, n int) color.Color {
	stops := []color.RGBA{{49, 54, 149, 255}, {69, 117, 180, 255}, {116, 173, 209, 255}, {253, 174, 97, 255}, {244, 109, 67, 255}, {165, 0, 38, 255}}
	t := 0.0
	if n > 1 {
		t = float64(i) / float64(n-1)
	}
	x := t * float64(len(stops)-1)
	k := min(int(x), len(stops)-2)
	f := x - float64(k)
	a, b := stops[k], stops[k+1]
	mix := func(p, q uint8) uint8 { return uint8(math.Round(float64(float64(p)*(1-f)) + float64(float64(q)*f))) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 255}
}
