package plot

import (
	"bytes"
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/as17fig"
	"github.com/janpfeifer/gonb/gonbui"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// AS17 figure tile size.
var (
	TileWidth  = 5.2 * vg.Inch
	TileHeight = 3.8 * vg.Inch
)

// grid places ps on a grid with cols columns (row-major, nil-padded).
func grid(ps []*plot.Plot, cols int) [][]*plot.Plot {
	rows := (len(ps) + cols - 1) / cols
	g := make([][]*plot.Plot, rows)
	for j := range g {
		g[j] = make([]*plot.Plot, cols)
		for i := range cols {
			if k := j*cols + i; k < len(ps) {
				g[j][i] = ps[k]
			}
		}
	}
	return g
}

// AS17RegretTiles draws, for each row result, the final regret against T on
// log–log axes with fitted slopes over T >= TailFrom and the row's bound as
// dotted lines, laid out cols to a line.
func AS17RegretTiles(res []*as17fig.Result, cols int) ([][]*plot.Plot, error) {
	var ps []*plot.Plot
	for _, r := range res {
		p, _, err := LogLogFit(r.Regret, LogLogOptions{
			Title:   fmt.Sprintf("%s (fit T ≥ %d, %d runs)", r.Title, r.TailFrom, r.Regret.Reps),
			XLabel:  "horizon T",
			YLabel:  "regret at T",
			FitFrom: float64(r.TailFrom),
			Refs:    r.BoundCurves(), RefLegend: "dotted: bounds (same colours)",
		})
		if err != nil {
			return nil, err
		}
		p.Title.TextStyle.Font.Size = vg.Points(9)
		ps = append(ps, p)
	}
	return grid(ps, cols), nil
}

// AS17ExcessTiles draws, for each row, the paired excess regret
// R_ε(T) − R_non-private(T) against T (log x, linear y, ±2 s.e. bands):
// flat lines mean a privacy cost additive in T.
func AS17ExcessTiles(res []*as17fig.Result, cols int) ([][]*plot.Plot, error) {
	var ps []*plot.Plot
	for _, r := range res {
		if r.Excess == nil {
			return nil, fmt.Errorf("plot: %s has no non-private baseline", r.Row)
		}
		p, err := Curves(r.Excess, CurveOptions{
			Title:  fmt.Sprintf("%s: excess regret", r.Title),
			XLabel: "horizon T", YLabel: "excess regret", LogX: true, Band: 2,
		})
		if err != nil {
			return nil, err
		}
		p.Y.Tick.Marker = GTicks{} // not "2500.00"
		p.Title.TextStyle.Font.Size = vg.Points(9)
		ps = append(ps, p)
	}
	return grid(ps, cols), nil
}

// AS17EpsilonTiles draws, for each row result of an ε sweep, the regret and
// the excess over non-private at horizon index h against 1/ε on log–log axes
// with fitted slopes.
func AS17EpsilonTiles(res []*as17fig.Result, h, cols int) ([][]*plot.Plot, error) {
	var ps []*plot.Plot
	for _, r := range res {
		p, _, err := LogLogFit(r.ByInverseEpsilon(h), LogLogOptions{
			Title:  fmt.Sprintf("%s, T = %d (%d runs)", r.Title, r.Horizons[h], r.Regret.Reps),
			XLabel: "1/ε", YLabel: "regret, excess regret at T",
		})
		if err != nil {
			return nil, err
		}
		p.Title.TextStyle.Font.Size = vg.Points(9)
		ps = append(ps, p)
	}
	return grid(ps, cols), nil
}

// ShowTiledAndSave displays a grid of plots in the notebook (SVG; nothing
// outside a GoNB kernel) and saves it as base.svg and base.png, a relative
// base being taken from the repository root (see [ShowAndSave]).
func ShowTiledAndSave(plots [][]*plot.Plot, base string) error {
	base = savePath(base)
	if err := SaveTiled(plots, TileWidth, TileHeight, base); err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := WriteTiled(&buf, plots, TileWidth, TileHeight, "svg"); err != nil {
		return err
	}
	gonbui.DisplaySVG(fitWidth(buf.String()))
	gonbui.Sync() // a cell that ends right after displaying can lose the display
	return nil
}
