package plot

import (
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// drawnTexts draws p on a recorder and returns the baseline height of each
// string drawn.
func drawnTexts(t *testing.T, p *plot.Plot) map[string]vg.Length {
	t.Helper()
	var rec recorder.Canvas
	p.Draw(draw.NewCanvas(&rec, Width, Height))
	ys := map[string]vg.Length{}
	for _, a := range rec.Actions {
		if fs, ok := a.(*recorder.FillString); ok {
			ys[fs.String] = fs.Point.Y
		}
	}
	return ys
}

// TestLegendAbove checks that the legend entries are drawn above the top of
// the data area (the y tick label at Y.Max), and that without LegendAbove
// the same legend is drawn inside it (so the test can fail).
func TestLegendAbove(t *testing.T) {
	mk := func() *plot.Plot {
		p := plot.New()
		p.Title.Text = "t"
		p.Y.Min, p.Y.Max = 0, 1
		p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 1, Label: "1"}})
		for i, name := range []string{"alpha", "beta", "gamma"} {
			l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: float64(i) / 3}, {X: 1, Y: 1}})
			if err != nil {
				t.Fatal(err)
			}
			p.Add(l)
			p.Legend.Add(name, l)
		}
		return p
	}
	inside := drawnTexts(t, mk())
	if !(inside["gamma"] < inside["1"]) {
		t.Fatalf("control: legend entry at %v not below the top tick label at %v", inside["gamma"], inside["1"])
	}
	p := mk()
	LegendAbove(p)
	above := drawnTexts(t, p)
	for _, name := range []string{"alpha", "beta", "gamma"} {
		if !(above[name] > above["1"]+vg.Points(3)) {
			t.Errorf("legend entry %q at %v, not above the data top (tick label 1 at %v)", name, above[name], above["1"])
		}
	}
	if w, h := Size(p); w != Width || !(h > Height) {
		t.Errorf("Size = %v × %v, want %v × more than %v", w, h, Width, Height)
	}
	if _, h := Size(mk()); h != Height {
		t.Errorf("Size without LegendAbove: height %v, want %v", h, Height)
	}
	if !(above["t"] > above["alpha"]) {
		t.Errorf("title at %v not above the legend at %v", above["t"], above["alpha"])
	}
}

// TestRoomForLastXTick checks the widening on linear and log axes.
func TestRoomForLastXTick(t *testing.T) {
	p := plot.New()
	p.X.Min, p.X.Max = 0, 100
	RoomForLastXTick(p, 0.04)
	if p.X.Max != 104 {
		t.Errorf("linear: X.Max = %v, want 104", p.X.Max)
	}
	p = plot.New()
	p.X.Scale = plot.LogScale{}
	p.X.Min, p.X.Max = 1, 100
	RoomForLastXTick(p, 0.5)
	if !(p.X.Max > 999.99 && p.X.Max < 1000.01) {
		t.Errorf("log: X.Max = %v, want 1000", p.X.Max)
	}
}
