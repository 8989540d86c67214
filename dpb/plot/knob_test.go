package plot

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/ss18fig"
)

// knobOption returns the data attributes of a knob chart's HTML and the
// series of its echarts option.
func knobOption(t *testing.T, h string) (map[string]string, []struct {
	Name string `json:"name"`
	Data []struct {
		Value []float64 `json:"value"`
	} `json:"data"`
}) {
	t.Helper()
	attrs := map[string]string{}
	for _, m := range regexp.MustCompile(`data-([a-z-]+)="([^"]*)"`).FindAllStringSubmatch(h, -1) {
		attrs[m[1]] = m[2]
	}
	_, rest, ok := strings.Cut(h, "var option = ")
	opt, _, ok2 := strings.Cut(rest, ";\n    option.animation")
	if !ok || !ok2 {
		t.Fatalf("no option in the chart HTML:\n%s", h)
	}
	var o struct {
		Series []struct {
			Name string `json:"name"`
			Data []struct {
				Value []float64 `json:"value"`
			} `json:"data"`
		} `json:"series"`
		Title struct {
			Text string `json:"text"`
		} `json:"title"`
	}
	if err := json.Unmarshal([]byte(opt), &o); err != nil {
		t.Fatalf("option: %v\n%s", err, opt)
	}
	attrs["title"] = o.Title.Text
	return attrs, o.Series
}

// The chart's data attributes say exactly what the kernel computed, and the
// chart draws the same numbers: the last point of each series equals the
// attribute, the title names the counter and ε. A chart drawn from another
// run (the kind of defect a redraw wired to a stale result would be) is
// caught by the same comparison.
func TestKnobChartHTML(t *testing.T) {
	run := func(k counter.Kind, eps float64) *ss18fig.CounterErrorResult {
		r, err := ss18fig.CounterError(ss18fig.CounterErrorConfig{Kind: k, Epsilon: eps, Horizon: 64, Reps: 8, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	agree := func(r *ss18fig.CounterErrorResult, h string) []string {
		attrs, series := knobOption(t, h)
		var bad []string
		if attrs["counter"] != r.Config.Kind.String() || attrs["epsilon"] != strconv.FormatFloat(r.Config.Epsilon, 'g', -1, 64) {
			bad = append(bad, "counter/epsilon attributes "+attrs["counter"]+"/"+attrs["epsilon"])
		}
		if attrs["title"] != r.Title() {
			bad = append(bad, "title "+attrs["title"])
		}
		if len(series) != 2 {
			return append(bad, "series count")
		}
		last := len(r.Curves.X) - 1
		for s, key := range []string{"measured-last", "predicted-last"} {
			v, err := strconv.ParseFloat(attrs[key], 64)
			if err != nil || v != r.Curves.Mean[s][last] {
				bad = append(bad, key+" attribute "+attrs[key])
			}
			d := series[s].Data
			if len(d) != len(r.Curves.X) || d[len(d)-1].Value[1] != r.Curves.Mean[s][last] {
				bad = append(bad, "series "+series[s].Name+" does not end at the result's last value")
			}
		}
		return bad
	}
	a, b := run(counter.Honaker, 0.5), run(counter.BLT, 2)
	ha := KnobChartHTML(a, 1)
	if bad := agree(a, ha); len(bad) > 0 {
		t.Errorf("chart of its own run: %v", bad)
	}
	if !strings.Contains(ha, `data-draw="1"`) || !strings.Contains(KnobChartHTML(a, 7), `data-draw="7"`) {
		t.Error("data-draw does not carry the redraw number")
	}
	// Planted: the chart of b shown as a's.
	if bad := agree(a, KnobChartHTML(b, 2)); len(bad) < 4 {
		t.Errorf("a chart of another run passed as this one's (only %v differ)", bad)
	}
}
