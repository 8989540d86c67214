package plot

import (
	"bytes"

	"github.com/janpfeifer/gonb/gonbui"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// ShowSizedAndSave is [ShowAndSave] at size w × h (for figures that need
// their own aspect, such as [SS18Fig1] with [SS18Fig1Size]): it saves
// base.svg and base.png, a relative base being taken from the repository
// root, and displays the SVG in a GoNB notebook (nothing elsewhere).
func ShowSizedAndSave(p *plot.Plot, base string, w, h vg.Length) error {
	base = savePath(base)
	if err := SaveSized(p, base, w, h); err != nil {
		return err
	}
	drawable(p)
	pw, err := p.WriterTo(w, h, "svg")
	if err != nil {
		return err
	}
	wt := svgFonts{pw}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return err
	}
	gonbui.DisplaySVG(fitWidth(buf.String()))
	gonbui.Sync()
	return nil
}
