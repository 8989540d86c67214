package plot

import (
	"bytes"
	"strings"
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

// TestNiceLogTicksWide checks that 2× and 5× labels are dropped over more
// than two decades and kept over fewer.
func TestNiceLogTicksWide(t *testing.T) {
	labels := func(min, max float64) (n int, has2 bool) {
		for _, tk := range (NiceLogTicks{}).Ticks(min, max) {
			if tk.Label != "" {
				n++
				if tk.Value == 200 || tk.Value == 2e5 {
					has2 = true
				}
			}
		}
		return n, has2
	}
	if n, has2 := labels(100, 5000); !has2 || n != 6 {
		t.Errorf("narrow range [100, 5000]: %d labels, 200 labelled %v; want 6 labels with 200", n, has2)
	}
	if n, has2 := labels(2e4, 4e6); has2 || n != 2 {
		t.Errorf("wide range [2e4, 4e6]: %d labels, 2e5 labelled %v; want 2 labels (1e5, 1e6)", n, has2)
	}
}

// TestFitWidth checks that the displayed SVG of a tiled figure gets the
// max-width style once, on its root element.
func TestFitWidth(t *testing.T) {
	var buf bytes.Buffer
	p := plot.New()
	if err := WriteTiled(&buf, [][]*plot.Plot{{p, p}}, TileWidth, TileHeight, "svg"); err != nil {
		t.Fatal(err)
	}
	out := fitWidth(buf.String())
	if n := strings.Count(out, "max-width:100%"); n != 1 {
		t.Fatalf("max-width style %d times, want 1", n)
	}
	if !strings.Contains(out, `<svg style="max-width:100%;height:auto" width=`) || !strings.Contains(out, "viewBox=") {
		t.Errorf("root element not styled or without viewBox: %.200s", out)
	}
}
