package plot

import (
	"fmt"
	"image/color"
	"math"

	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/mabfig"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// boundColours are the translucent greys of the lower bounds in the
// private-MAB panels: wide and light, so that a measured curve lying on a
// bound (DP-IMED, black, on Azize et al.'s) still shows through.
var boundColours = []color.Color{color.NRGBA{A: 60}, color.NRGBA{A: 100}, color.NRGBA{A: 140}}

// privateMABPlot draws the curves of c on log–log axes: the first len(c.Names)
// − nb series as measured curves (palette colours, s.e. bands), the last nb
// as lower bounds (grey dashes). The legend is kept only when legend is set.
func privateMABPlot(c *harness.Curves, nb int, title, xLabel string, legend bool) (*plot.Plot, error) {
	ns := len(c.Names) - nb
	names := make([]string, ns)
	for i, n := range c.Names[:ns] {
		names[i] = mabfig.Label(n) // DP-UCB's names its γ
	}
	meas := &harness.Curves{X: c.X, Reps: c.Reps, Names: names, Mean: c.Mean[:ns], StdErr: c.StdErr[:ns]}
	p, err := Curves(meas, CurveOptions{Title: title, XLabel: xLabel, YLabel: "pseudo-regret", LogX: true, LogY: true, Band: 2, LegendRight: false})
	if err != nil {
		return nil, err
	}
	for b := range nb {
		s := ns + b
		var pts plotter.XYs
		for k, x := range c.X {
			if y := c.Mean[s][k]; y > 0 && x > 0 {
				pts = append(pts, plotter.XY{X: x, Y: y})
			}
		}
		if len(pts) < 2 {
			continue
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, err
		}
		l.Color = boundColours[b%len(boundColours)]
		l.Width = vg.Points(3.5)
		l.Dashes = []vg.Length{vg.Points(2 + float64(3*float64(b))), vg.Points(2)}
		p.Add(l)
		p.Legend.Add(c.Names[s], l)
	}
	if !legend {
		p.Legend = plot.NewLegend()
	}
	return p, nil
}

// PrivateMAB draws the private-MAB comparison as a grid of cols columns: one
// panel of regret against T (log–log) per ε in panels, with the lower bounds
// of mabfig.Bounds; the regret at T against ε (log–log: a slope
// of −1 is the k ln T/ε term); the same divided by the sharpest lower bound
// (Azize et al. 2025; 1 is optimal); and a panel holding the legend.
func PrivateMAB(res *mabfig.Result, panels []float64, cols int) ([][]*plot.Plot, error) {
	nb := len(mabfig.Bounds)
	var ps []*plot.Plot
	k := res.Config.Arms
	for _, eps := range panels {
		c, err := res.Panel(eps)
		if err != nil {
			return nil, err
		}
		p, err := privateMABPlot(c, nb, fmt.Sprintf("k=%d, ε=%g: regret over time", k, eps), "round t", false)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	h := res.AtHorizon()
	T := res.Curves.X[len(res.Curves.X)-1]
	p, err := privateMABPlot(h, nb, fmt.Sprintf("k=%d: regret at T=%.3g against ε (%d runs; DP-UCB at γ = 1/T)", k, T, h.Reps), "ε", true)
	if err != nil {
		return nil, err
	}
	p.X.Min = math.Min(p.X.Min, 0.09) // keep the 0.1 tick label on the axis
	legend := plot.New()
	legend.HideAxes()
	legend.Legend, p.Legend = p.Legend, plot.NewLegend()
	legend.Legend.Top, legend.Legend.Left = true, true
	ps = append(ps, p)
	// Regret over the sharpest bound: every series divided by the last one.
	last := len(h.Names) - 1
	ratio := &harness.Curves{X: h.X, Reps: h.Reps}
	for s := range h.Names[:len(h.Names)-nb] {
		m, e := make([]float64, len(h.X)), make([]float64, len(h.X))
		for i := range h.X {
			m[i], e[i] = h.Mean[s][i]/h.Mean[last][i], h.StdErr[s][i]/h.Mean[last][i]
		}
		ratio.Names = append(ratio.Names, h.Names[s])
		ratio.Mean = append(ratio.Mean, m)
		ratio.StdErr = append(ratio.StdErr, e)
	}
	q, err := Curves(ratio, CurveOptions{Title: fmt.Sprintf("k=%d: regret at T / Azize et al. 2025 bound", k),
		XLabel: "ε", YLabel: "regret / lower bound (1: optimal)", LogX: true, LogY: true, Band: 2})
	if err != nil {
		return nil, err
	}
	q.Legend = plot.NewLegend()
	q.X.Min = p.X.Min
	if err := HLine(q, 1, ""); err != nil {
		return nil, err
	}
	ps = append(ps, q, legend)
	return grid(ps, cols), nil
}

// PrivateMABFinals returns the panels of the final regret of each run of
// the private-MAB comparison, one per ε of the run (UCB1 and every
// algorithm, DP-UCB labelled with its γ), for [FinalRegret].
func PrivateMABFinals(res *mabfig.Result) ([]FinalsPanel, error) {
	c := res.Curves
	T := int(c.X[len(c.X)-1])
	var panels []FinalsPanel
	for _, eps := range res.Config.Epsilons {
		names, fin, err := res.FinalsAt(eps)
		if err != nil {
			return nil, err
		}
		for i := range names {
			names[i] = mabfig.Label(names[i])
		}
		panels = append(panels, FinalsPanel{
			Title: fmt.Sprintf("k=%d, ε=%g: final regret at T=%s, %d runs", res.Config.Arms, eps, FormatCount(T), c.Reps),
			Names: names, Finals: fin})
	}
	return panels, nil
}
