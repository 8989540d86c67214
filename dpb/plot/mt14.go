package plot

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/dpbandits/dpbandits/dpb/experiment"
)

// errPoints are points with symmetric vertical error bars.
type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

// MT14Fig2 draws MT14 Fig. 2 as a dot-and-whisker chart: one group per
// feedback delay τ, one marker per policy (non-private, then each ε) at its
// mean normalised CTR with ±Band standard errors over repetitions, and a
// dashed line at 1, the uniformly random policy.
func MT14Fig2(res *experiment.MT14Fig2Result, title string, band float64) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "feedback delay τ (log rows)"
	p.Y.Label.Text = "CTR / CTR of the uniform policy"
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	var delays []int
	var names []string
	seenD, seenN := map[int]int{}, map[string]int{}
	for _, r := range res.Rows {
		if _, ok := seenD[r.Delay]; !ok {
			seenD[r.Delay] = len(delays)
			delays = append(delays, r.Delay)
		}
		if _, ok := seenN[r.Name]; !ok {
			seenN[r.Name] = len(names)
			names = append(names, r.Name)
		}
	}
	if len(delays) == 0 {
		return nil, fmt.Errorf("plot: no rows")
	}
	width := 0.7
	step := width / float64(len(names))
	series := make([]errPoints, len(names))
	for _, r := range res.Rows {
		s := seenN[r.Name]
		x := float64(seenD[r.Delay]) - width/2 + step*(float64(s)+0.5)
		series[s].XYs = append(series[s].XYs, plotter.XY{X: x, Y: r.NormCTR})
		series[s].YErrors = append(series[s].YErrors, struct{ Low, High float64 }{band * r.NormSE, band * r.NormSE})
	}
	for s, pts := range series {
		sc, err := plotter.NewScatter(pts.XYs)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle.Color = Colour(s)
		sc.GlyphStyle.Radius = vg.Points(3.5)
		sc.GlyphStyle.Shape = Glyph(s)
		eb, err := plotter.NewYErrorBars(pts)
		if err != nil {
			return nil, err
		}
		eb.LineStyle.Color = Colour(s)
		eb.LineStyle.Width = vg.Points(1.2)
		p.Add(eb, sc)
		p.Legend.Add(names[s], sc)
	}
	one, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: 1}, {X: float64(len(delays)) - 0.5, Y: 1}})
	if err != nil {
		return nil, err
	}
	one.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(one)
	p.Legend.Add("uniform policy", one)
	labels := make([]string, len(delays))
	for i, d := range delays {
		labels[i] = fmt.Sprintf("τ = %d", d)
	}
	p.NominalX(labels...)
	// Room on the right for the legend.
	p.X.Min, p.X.Max = -0.5, float64(len(delays))+0.4
	p.Y.Min = 0
	return p, nil
}
