package plot

import (
	"bytes"
	"io"
	"regexp"
)

// gonum/plot's SVG canvas names only the font it measured the text with
// ("font-family:Liberation Serif"). A browser without that font substitutes
// its default, often a wider sans-serif, and text then overruns what was laid
// out for it (the Shuttle figure's legend markers printed over the labels).
// Every SVG this package writes names a generic family after it, so that a
// browser without Liberation falls back to a serif of similar width.

var svgFontFamily = regexp.MustCompile(`font-family:(Liberation (Serif|Sans|Mono))(;|")`)

var genericFamily = map[string]string{"Serif": "serif", "Sans": "sans-serif", "Mono": "monospace"}

// SVGFontFallback returns svg with a generic family after each Liberation
// font it names ("font-family:Liberation Serif,serif"). It leaves an SVG that
// already names one unchanged, so it can be applied twice.
func SVGFontFallback(svg []byte) []byte {
	return svgFontFamily.ReplaceAllFunc(svg, func(m []byte) []byte {
		sub := svgFontFamily.FindSubmatch(m)
		out := append([]byte("font-family:"), sub[1]...)
		out = append(out, ',')
		out = append(out, genericFamily[string(sub[2])]...)
		return append(out, sub[3]...)
	})
}

// svgFonts is an SVG io.WriterTo with [SVGFontFallback] applied.
type svgFonts struct{ w io.WriterTo }

func (s svgFonts) WriteTo(out io.Writer) (int64, error) {
	var buf bytes.Buffer
	if _, err := s.w.WriteTo(&buf); err != nil {
		return 0, err
	}
	n, err := out.Write(SVGFontFallback(buf.Bytes()))
	return int64(n), err
}
