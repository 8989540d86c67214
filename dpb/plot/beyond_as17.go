package plot

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/as17fig"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// BeyondAS17Tiles draws one log–log panel per decision set of a
// beyond-as17 result: every variant's regret against T (±2 s.e. bars,
// fitted slopes over the upper half of the horizons) and, dotted in the
// same colours, the bounds. The plain tree's and Honaker's bounds (the
// stability form of [as17.FTRLCounterBound], 10–100× above the others) are
// left out of the plot to keep the axis readable; the CSV and JSON have
// them. The y axis is extended upwards to hold the legend above the data.
func BeyondAS17Tiles(res *as17fig.BeyondResult) ([][]*plot.Plot, error) {
	var ps []*plot.Plot
	c := res.Config
	for _, p := range res.Panels {
		refs := p.BoundCurves()
		for v, va := range res.Variants {
			if va.Gaussian && (va.Counter == counter.Tree || va.Counter == counter.Honaker) {
				nan := make([]float64, len(refs.X))
				for i := range nan {
					nan[i] = math.NaN()
				}
				refs.Mean[v] = nan
			}
		}
		delta := "1/T"
		if c.Delta > 0 {
			delta = fmt.Sprintf("%g", c.Delta)
		}
		pl, _, err := LogLogFit(p.Regret, LogLogOptions{
			Title:     fmt.Sprintf("%s\nN = %d, ε = %g, δ = %s (Gauss), %d runs; fit T ≥ %d", p.Title, c.Dim, c.Epsilon, delta, p.Regret.Reps, p.TailFrom),
			XLabel:    "horizon T",
			YLabel:    "regret at T (mean ± 2 s.e.)",
			FitFrom:   float64(p.TailFrom),
			Refs:      refs,
			RefLegend: "dotted: bounds (tree's, Honaker's: in the CSV)",
		})
		if err != nil {
			return nil, err
		}
		pl.Title.TextStyle.Font.Size = vg.Points(9)
		pl.Legend.TextStyle.Font.Size = vg.Points(7)
		pl.X.Tick.Marker = Pow2Ticks{}
		// Room for the legend (10 lines, top left) above the data: the
		// data take the lower 65% of the log range.
		pl.Y.Max *= math.Pow(pl.Y.Max/pl.Y.Min, 0.35/0.65)
		ps = append(ps, pl)
	}
	return grid(ps, len(ps)), nil
}
