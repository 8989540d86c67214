package plot

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/mt14fig"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// errPoints are points with symmetric vertical error bars.
type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

// addDotsAndWhiskers adds series s as markers with vertical error bars in
// colour and glyph s, named names[s] in the legend (empty series skipped).
func addDotsAndWhiskers(p *plot.Plot, series []errPoints, names []string) error {
	for s, pts := range series {
		if len(pts.XYs) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(pts.XYs)
		if err != nil {
			return err
		}
		sc.GlyphStyle.Color = Colour(s)
		sc.GlyphStyle.Radius = vg.Points(3.5)
		sc.GlyphStyle.Shape = Glyph(s)
		eb, err := plotter.NewYErrorBars(pts)
		if err != nil {
			return err
		}
		eb.LineStyle.Color = Colour(s)
		eb.LineStyle.Width = vg.Points(1.2)
		p.Add(eb, sc)
		p.Legend.Add(names[s], sc)
	}
	return nil
}

// MT14Fig2 draws MT14 Fig. 2 as a dot-and-whisker chart: one group per
// feedback delay τ, one marker per policy (non-private, then each ε) at its
// mean normalised CTR with ±Band standard errors over repetitions, and a
// dashed line at 1, the uniformly random policy.
func MT14Fig2(res *mt14fig.Fig2Result, title string, band float64) (*plot.Plot, error) {
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
		x := float64(seenD[r.Delay]) - float64(width/2) + float64(step*(float64(s)+0.5))
		series[s].XYs = append(series[s].XYs, plotter.XY{X: x, Y: r.NormCTR})
		series[s].YErrors = append(series[s].YErrors, struct{ Low, High float64 }{band * r.NormSE, band * r.NormSE})
	}
	if err := addDotsAndWhiskers(p, series, names); err != nil {
		return nil, err
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

// MT14Fig2BTS draws MT14 Fig. 2 on a non-uniform log: one group per policy,
// three markers per group — replay on the uniform log, rejection replay on
// the logged log, doubly robust on every logged event — at their means over
// repetitions with whiskers from the mean 95% interval ends, and the
// uniformly random policy's value (on the uniform log, and by DR on the
// logged log) as dashed and dotted lines.
func MT14Fig2BTS(res *mt14fig.Fig2BTSResult, title string) (*plot.Plot, error) {
	if len(res.Rows) == 0 {
		return nil, fmt.Errorf("plot: no rows")
	}
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = "CTR (95% intervals)"
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	names := []string{
		"replay, uniform log",
		fmt.Sprintf("rejection replay, BTS log (PMin %.3g)", res.PMin),
		fmt.Sprintf("DR, BTS log (%d events)", res.Events),
	}
	width := 0.6
	step := width / float64(len(names))
	series := make([]errPoints, len(names))
	labels := make([]string, len(res.Rows))
	for g, r := range res.Rows {
		labels[g] = r.Name
		for s, v := range []mt14fig.OPEValue{r.Replay, r.Rejection, r.DR} {
			if math.IsNaN(v.Value) {
				continue
			}
			x := float64(g) - float64(width/2) + float64(step*(float64(s)+0.5))
			series[s].XYs = append(series[s].XYs, plotter.XY{X: x, Y: v.Value})
			series[s].YErrors = append(series[s].YErrors, struct{ Low, High float64 }{v.Value - v.Lo, v.Hi - v.Value})
		}
	}
	if err := addDotsAndWhiskers(p, series, names); err != nil {
		return nil, err
	}
	hline := func(y float64, dashes []vg.Length, label string) error {
		l, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: y}, {X: float64(len(res.Rows)) - 0.5, Y: y}})
		if err != nil {
			return err
		}
		l.Dashes = dashes
		p.Add(l)
		p.Legend.Add(label, l)
		return nil
	}
	if err := hline(res.UniformOnUniform.CTR, []vg.Length{vg.Points(4), vg.Points(3)}, "uniform policy, uniform log"); err != nil {
		return nil, err
	}
	for _, e := range res.UniformPolicy {
		if e.Estimator.String() == "DR" {
			if err := hline(e.Value, []vg.Length{vg.Points(1), vg.Points(2)}, fmt.Sprintf("uniform policy, DR on BTS log (ESS %.0f)", e.ESS)); err != nil {
				return nil, err
			}
		}
	}
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.5, float64(len(res.Rows))+2.3 // room on the right for the legend
	return p, nil
}
