package main

import (
	"fmt"
	"strconv"

	dpbplot "github.com/dpbandits/dpbandits/dpb/plot"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// finalsSetting is one panel of a companion figure of final regret: the
// setting's key in the CSV (e.g. "gap=0.1"), and the panel.
type finalsSetting struct {
	key   string
	panel dpbplot.FinalsPanel
}

// writeFinals writes the companion figure of a regret-over-time figure,
// base-finals.svg and .png (one panel per setting, cols per row: the
// distribution of each variant's final regret across runs,
// dpbplot.FinalRegret), and base-finals.csv: one row per (setting, variant,
// run) with the final regret in full precision, from which the paired
// differences and any quantile can be recomputed.
func writeFinals(base string, settings []finalsSetting, cols int, o dpbplot.FinalsOptions) error {
	panels := make([]dpbplot.FinalsPanel, len(settings))
	rows := [][]string{{"setting", "variant", "run", "final_regret"}}
	nv := 0
	for i, s := range settings {
		panels[i] = s.panel
		nv = max(nv, len(s.panel.Names))
		for v, name := range s.panel.Names {
			if v >= len(s.panel.Finals) {
				break // FinalRegret reports the mismatch
			}
			for r, x := range s.panel.Finals[v] {
				rows = append(rows, []string{s.key, name, strconv.Itoa(r), strconv.FormatFloat(x, 'g', -1, 64)})
			}
		}
	}
	ps, err := dpbplot.FinalRegret(panels, o)
	if err != nil {
		return err
	}
	if cols < 1 {
		return fmt.Errorf("dpb: finals figure: %d columns (internal error)", cols)
	}
	var grid [][]*plot.Plot
	for i := 0; i < len(ps); i += cols {
		row := make([]*plot.Plot, cols) // a short last row: empty cells (nil)
		copy(row, ps[i:])
		grid = append(grid, row)
	}
	if err := dpbplot.SaveGrid(grid, base+"-finals", 6.5*vg.Inch, dpbplot.FinalsPanelHeight(nv)); err != nil {
		return err
	}
	return writeTable(base+"-finals.csv", rows)
}
