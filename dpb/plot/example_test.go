package plot_test

import (
	"bytes"
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/harness"
	dpbplot "github.com/dpbandits/dpbandits/dpb/plot"
)

// Drawing regret curves: Summarise turns out[series][rep][point] into means
// and standard errors, Curves draws them with a ±2 s.e. band on log axes,
// and Render writes the SVG a notebook shows or saves.
func ExampleCurves() {
	x := []float64{10, 100, 1000}
	out := [][][]float64{
		{{1, 3, 6}, {2, 4, 7}}, // series 0, two repetitions
		{{2, 8, 30}, {3, 9, 33}},
	}
	c := harness.Summarise([]string{"UCB1", "DP-UCB ε=1"}, x, out)
	p, err := dpbplot.Curves(c, dpbplot.CurveOptions{Title: "regret", XLabel: "round t", YLabel: "regret", LogX: true, LogY: true, Band: 2})
	if err != nil {
		panic(err)
	}
	svg, err := dpbplot.Render(p, "svg")
	if err != nil {
		panic(err)
	}
	fmt.Println("means of DP-UCB:", c.Mean[1])
	fmt.Println("title:", p.Title.Text)
	fmt.Println("an SVG:", bytes.Contains(svg, []byte("<svg")))
	// Output:
	// means of DP-UCB: [2.5 8.5 31.5]
	// title: regret
	// an SVG: true
}
