package plot

import (
	"fmt"
	"html"
	"strconv"

	"github.com/dpbandits/dpbandits/dpb/ss18fig"
	"github.com/janpfeifer/gonb/gonbui"
)

// The privacy knob (notebooks/privacy_knob.ipynb): GoNB widgets re-run
// [ss18fig.CounterError] and redraw one chart in place. The redraw goes
// through one display id (gonbui.UpdateHTML: Jupyter's
// update_display_data), so each move replaces the chart in the same output
// rather than appending a new one, and the notebook saved at the end holds
// the last chart drawn.

// KnobChartHTML returns the knob's chart of r: an echarts line chart of the
// measured and predicted error per round (title [ss18fig.CounterErrorResult.Title]),
// inside a <div class="dpb-knob"> whose data attributes say what the kernel
// computed, for the browser test to compare with what the chart draws:
// data-counter, data-epsilon, data-delta, data-sigma, data-draw (the
// number of this redraw, from 1) and data-measured-last, data-predicted-last
// (the last round's values, exact decimal round-trips).
func KnobChartHTML(r *ss18fig.CounterErrorResult, draw int) string {
	c := r.Curves
	last := len(c.X) - 1
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	attr := fmt.Sprintf(`class="dpb-knob" data-counter="%s" data-epsilon="%s" data-delta="%s" data-sigma="%s" data-draw="%d" data-measured-last="%s" data-predicted-last="%s"`,
		html.EscapeString(r.Config.Kind.String()), f(r.Config.Epsilon), f(r.Config.Delta), f(r.Sigma), draw, f(c.Mean[0][last]), f(c.Mean[1][last]))
	chart := EChartsCurves(c, r.Title(), "round t", "RMS error", false)
	return "<div " + attr + ">\n" + EChartsHTML(chart, "900px", "420px") + "\n</div>"
}

// UpdateKnobChart shows (first call) or replaces (later calls) the knob's
// chart in the output block displayID (see the comment above).
func UpdateKnobChart(displayID string, r *ss18fig.CounterErrorResult, draw int) {
	gonbui.UpdateHTML(displayID, KnobChartHTML(r, draw))
	gonbui.Sync()
}
