package plot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

func TestSVGFontFallback(t *testing.T) {
	in := []byte(`style="font-family:Liberation Serif;font-size:12px" style="font-family:Liberation Sans;x" font-family:Liberation Mono"`)
	want := `style="font-family:Liberation Serif,serif;font-size:12px" style="font-family:Liberation Sans,sans-serif;x" font-family:Liberation Mono,monospace"`
	got := SVGFontFallback(in)
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if string(SVGFontFallback(got)) != want {
		t.Error("applied twice, it changes the SVG again")
	}
	// Every SVG this package renders names the fallback (control: gonum's own output does not).
	p := plot.New()
	p.Title.Text = "t"
	l, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
	p.Add(l)
	svg, err := Render(p, "svg")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(svg), "font-family:Liberation Serif,serif;") || strings.Contains(string(svg), "font-family:Liberation Serif;") {
		t.Error("Render's SVG does not name the generic family")
	}
	w, _ := p.WriterTo(100, 100, "svg")
	var b strings.Builder
	w.WriteTo(&b)
	if !strings.Contains(b.String(), "font-family:Liberation Serif;") {
		t.Error("control: gonum/plot itself now names a fallback; SVGFontFallback may be obsolete")
	}
}

// TestCommittedSVGsNameFallback: every SVG in figures/ names a generic font
// family after Liberation (they are written through SVGFontFallback).
func TestCommittedSVGsNameFallback(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "figures", "*.svg"))
	if len(files) == 0 {
		t.Skip("no figures/")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if string(SVGFontFallback(data)) != string(data) {
			t.Errorf("%s names Liberation without a generic family", filepath.Base(f))
		}
	}
}
