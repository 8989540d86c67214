package main

import (
	"strconv"

	dpbplot "github.com/dpbandits/dpbandits/dpb/plot"
)

// writeFinals writes the companion figure of a regret-over-time figure,
// base-finals.svg and .png (one panel per setting, cols a row: the
// distribution of each variant's final regret across runs,
// dpbplot.FinalRegret), and base-finals.csv: one row per (setting, variant,
// run), the setting keys[i] of panel i (e.g. "gap=0.1"), with the final
// regret in full precision, from which the paired differences and any
// quantile can be recomputed.
func writeFinals(base string, keys []string, panels []dpbplot.FinalsPanel, cols int) error {
	if err := dpbplot.SaveFinalRegret(panels, cols, dpbplot.FinalsOptions{}, base+"-finals"); err != nil {
		return err
	}
	rows := [][]string{{"setting", "variant", "run", "final_regret"}}
	for i, p := range panels { // SaveFinalRegret checked their shapes
		for v, name := range p.Names {
			for r, x := range p.Finals[v] {
				rows = append(rows, []string{keys[i], name, strconv.Itoa(r), strconv.FormatFloat(x, 'g', -1, 64)})
			}
		}
	}
	return writeTable(base+"-finals.csv", rows)
}
