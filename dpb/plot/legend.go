package plot

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// LegendAbove moves p's legend out of the data area into a band between the
// title and the data, so that no legend entry covers a curve whatever the
// y range. Call it after every legend entry is added. The band is made by
// the title's padding (gonum/plot draws the legend at the top of the area
// below the title), so p draws the same way through WriterTo, [Save],
// [Show] and the tiled savers; p gets a blank title if it has none. [Save],
// [Render] and [Show] draw such a plot taller by the band (see [Size]), so
// its data area keeps the default figure's height.
func LegendAbove(p *plot.Plot) {
	r := p.Legend.Rectangle(draw.Canvas{})
	h := r.Max.Y - r.Min.Y
	if h <= 0 {
		return
	}
	if p.Title.Text == "" {
		p.Title.Text = " "
	}
	gap := vg.Points(6)
	p.Title.Padding += h + gap
	p.Legend.Top = true
	p.Legend.YOffs = h + gap
}

// RoomForLastXTick widens p's x range by frac of its span (in log units on
// a log axis) so that a tick label at the right end is not cut by the
// figure's edge. Data are unchanged.
func RoomForLastXTick(p *plot.Plot, frac float64) {
	if _, ok := p.X.Scale.(plot.LogScale); ok {
		p.X.Max *= math.Pow(p.X.Max/p.X.Min, frac)
		return
	}
	p.X.Max += float64(frac * (p.X.Max - p.X.Min))
}

// Size returns the size [Save], [Render] and [Show] draw p at: [Width] ×
// [Height], taller by the legend band when [LegendAbove] moved the legend
// above the data (a top legend with a positive YOffs).
func Size(p *plot.Plot) (w, h vg.Length) {
	h = Height
	if p.Legend.Top && p.Legend.YOffs > 0 {
		h += p.Legend.YOffs
	}
	return Width, h
}
