package plot

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/ss18fig"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// SecureRegret draws the secure-vs-simulated experiment as a dot-and-whisker
// chart: one group per variant, one marker per gap at the mean paired
// difference (secure − simulated, % of the simulated regret) with its 95 %
// t interval, and dashed lines at 0 and ±2 %.
func SecureRegret(res *ss18fig.SecureRegretResult) (*plot.Plot, error) {
	cfg := res.Config
	na, ng := len(cfg.Algs), len(cfg.Gaps)
	if len(res.Rows) != na*ng {
		return nil, fmt.Errorf("plot: secure-regret result has %d rows, want %d", len(res.Rows), na*ng)
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("regret on secure vs simulated noise, SS18 Fig. 4's setting\nd = %d, K = %d, ε = %g, δ = %g; n = %s, %d paired runs",
		cfg.Dim, cfg.K, cfg.Epsilon, cfg.Delta, FormatCount(cfg.Horizon), cfg.Reps)
	p.Y.Label.Text = "secure − simulated, % of simulated (mean, 95 % t interval)"
	series := make([]errPoints, ng)
	names := make([]string, ng)
	for g, gap := range cfg.Gaps {
		names[g] = fmt.Sprintf("Δ = %g", gap)
		for a := range na {
			r := res.Rows[g*na+a]
			x := float64(a) + float64(0.3*(float64(g)/float64(max(ng-1, 1))-0.5))
			series[g].XYs = append(series[g].XYs, plotter.XY{X: x, Y: r.DiffPct})
			series[g].YErrors = append(series[g].YErrors, struct{ Low, High float64 }{r.CIPct, r.CIPct})
		}
	}
	ticks := make([]plot.Tick, na)
	for a, alg := range cfg.Algs {
		ticks[a] = plot.Tick{Value: float64(a), Label: alg.String()}
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = -0.5, float64(na)-0.5
	if err := addDotsAndWhiskers(p, series, names); err != nil {
		return nil, err
	}
	for _, y := range []float64{0, -2, 2} {
		label := ""
		if y == 2 {
			label = "0 and ±2 %"
		}
		if err := HLine(p, y, label); err != nil {
			return nil, err
		}
	}
	p.Legend.Top = true
	return p, nil
}
