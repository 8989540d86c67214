package main

// Widget notebooks: a notebook whose metadata declares
//
//	"dpb": {"widget": {"slider": ID, "select": ID, "done": ID,
//	                   "epsilons": [...], "options": [...],
//	                   "unwire": [FROM, TO]}}
//
// holds a cell that shows a GoNB slider (an index into epsilons), a select
// (an index into options) and a Done button, and redraws one chart in place
// (a <div class="dpb-knob"> carrying data-epsilon, data-counter and
// data-draw, the redraw's number, around an echarts chart) each time one of
// them moves; the cell runs until Done is clicked (or its own time limit),
// so Run All cannot finish by itself. driveWidget does what a reader does
// while the cell waits: it checks the first drawing, moves the slider (sets
// the range input's value and dispatches the input and change events the
// GoNB widget listens to), changes the select likewise, and after each move
// waits for a redraw and checks that
//
//   - the chart's attributes say the kernel computed the value moved to
//     (data-epsilon = epsilons[slider], data-counter = options[select]);
//   - the chart draws what the kernel computed: the echarts instance's title
//     names the counter and ε, and the last point of each series equals
//     data-measured-last / data-predicted-last;
//   - the data changed, and in the direction privacy implies (a smaller ε
//     gives a larger predicted error);
//
// then takes a screenshot (NAME__knob.png), clicks Done and waits for the
// kernel to go idle. A slider wired to nothing (-unwired: the notebook with
// the line FROM of its widget cell replaced by TO) is caught: no redraw
// follows the move. When the widget never appears, the failure quotes
// what the page's console said about GoNB's connection (console.go) and
// the cell is interrupted.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

// widgetSpec is a notebook's "dpb": {"widget": …} metadata.
type widgetSpec struct {
	Slider   string    `json:"slider"`
	Select   string    `json:"select"`
	Done     string    `json:"done"`
	Epsilons []float64 `json:"epsilons"`
	Options  []string  `json:"options"`
	Unwire   []string  `json:"unwire"` // [FROM, TO]: the control's one-line edit
}

// readWidget returns the widget metadata of the notebook at path (nil if it
// declares none).
func readWidget(path string) (*widgetSpec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var nb struct {
		Metadata struct {
			DPB struct {
				Widget *widgetSpec `json:"widget"`
			} `json:"dpb"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	w := nb.Metadata.DPB.Widget
	if w == nil {
		return nil, nil
	}
	if w.Slider == "" || w.Select == "" || w.Done == "" || len(w.Epsilons) < 2 || len(w.Options) < 2 || len(w.Unwire) != 2 {
		return nil, fmt.Errorf("%s: metadata dpb.widget needs slider, select, done, at least two epsilons and options, and unwire [FROM, TO]", path)
	}
	return w, nil
}

// unwire rewrites the notebook copy at path with the widget's line FROM
// replaced by TO; FROM must occur exactly once, in a code cell.
func unwire(path string) error {
	w, err := readWidget(path)
	if err != nil {
		return err
	}
	if w == nil {
		return fmt.Errorf("%s: -unwired needs metadata dpb.widget", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var nb map[string]any
	if err := json.Unmarshal(data, &nb); err != nil {
		return err
	}
	from, to := w.Unwire[0], w.Unwire[1]
	found := 0
	cells, _ := nb["cells"].([]any)
	for _, c := range cells {
		cell, _ := c.(map[string]any)
		if cell["cell_type"] != "code" {
			continue
		}
		src := sourceText(cell["source"])
		if n := strings.Count(src, from); n > 0 {
			found += n
			cell["source"] = strings.Replace(src, from, to, 1)
		}
	}
	if found != 1 {
		return fmt.Errorf("%s: the unwire line %q occurs %d times in code cells, want once", path, from, found)
	}
	out, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, out, 0o644)
}

func sourceText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		var b strings.Builder
		for _, s := range v {
			str, _ := s.(string)
			b.WriteString(str)
		}
		return b.String()
	}
	return ""
}

// knobState is what the page shows of the widget and its chart.
type knobState struct {
	Controls  bool      `json:"controls"` // slider, select and button present
	Chart     bool      `json:"chart"`    // a drawn echarts instance in the knob
	Draw      int       `json:"draw"`
	Epsilon   float64   `json:"epsilon"`
	Counter   string    `json:"counter"`
	Slider    int       `json:"slider"`
	Select    int       `json:"select"`
	Title     string    `json:"title"`
	AttrLast  []float64 `json:"attrLast"`  // data-measured-last, data-predicted-last
	ChartLast []float64 `json:"chartLast"` // the last y of each series
	Points    int       `json:"points"`    // points of the first series
	Series    string    `json:"series"`    // the series' y values, JSON (to compare draws)
}

// knobStateJS reads knobState; %s are the ids (JSON strings) of the slider,
// the select and the button.
const knobStateJS = `((sliderId, selectId, doneId) => {
  const s = document.getElementById(sliderId), sel = document.getElementById(selectId), b = document.getElementById(doneId);
  const knobs = document.querySelectorAll('#notebook .dpb-knob');
  const k = knobs.length === 1 ? knobs[0] : null;
  const out = {controls: !!(s && sel && b), chart: false, draw: 0, epsilon: 0, counter: '', slider: s ? Number(s.value) : -1,
    select: sel ? Number(sel.value) : -1, title: '', attrLast: [], chartLast: [], points: 0, series: ''};
  if (!k) return out;
  out.draw = Number(k.dataset.draw); out.epsilon = Number(k.dataset.epsilon); out.counter = k.dataset.counter || '';
  out.attrLast = [Number(k.dataset.measuredLast), Number(k.dataset.predictedLast)];
  const el = k.querySelector('[_echarts_instance_]');
  const inst = el && window.echarts && window.echarts.getInstanceByDom(el);
  if (!inst) return out;
  const o = inst.getOption();
  out.chart = true;
  out.title = (o.title && o.title[0] && o.title[0].text) || '';
  const ys = (o.series || []).map(sr => (sr.data || []).map(d => Array.isArray(d) ? d[1] : (d && d.value ? d.value[1] : NaN)));
  out.chartLast = ys.map(y => y.length ? y[y.length - 1] : NaN);
  out.points = ys.length ? ys[0].length : 0;
  out.series = JSON.stringify(ys);
  return out;
})(%s, %s, %s)`

// setJS sets the control (id %s) to value %d and dispatches the events a
// reader's move fires: input while dragging, change at the end.
const setJS = `((id, v) => {
  const el = document.getElementById(id);
  if (!el) return false;
  el.value = String(v);
  el.dispatchEvent(new Event('input', {bubbles: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
  return true;
})(%s, %d)`

const clickJS = `((id) => { const el = document.getElementById(id); if (!el) return false; el.click(); return true; })(%s)`

func jsString(s string) string { b, _ := json.Marshal(s); return string(b) }

// Time limits of the drive (the redraw itself takes well under a second).
const (
	// Run All to the widget's first drawing: the cells before it compile
	// and run, then plot.ConnectWidgets proves GoNB's page connection (up
	// to 5 attempts of 10 s when it has to reconnect); 13–36 s seen in 40
	// runs at load average 8–22, so 2 minutes only matter when it hangs.
	widgetAppearWait = 2 * time.Minute
	widgetRedrawWait = 15 * time.Second // a move to its redraw
	widgetIdleWait   = 60 * time.Second // Done to an idle kernel
)

// driveWidget drives the widget of w on the page of ctx while its cell
// runs (see the file comment); it returns the problems found. shot is where
// the screenshot after the moves goes.
func driveWidget(ctx context.Context, w *widgetSpec, shot string, console *consoleLog) (problems, notes []string) {
	state := func() (knobState, error) {
		return chromedp.Run(ctx, chromedp.Evaluate[knobState](fmt.Sprintf(knobStateJS, jsString(w.Slider), jsString(w.Select), jsString(w.Done))))
	}
	// The widget appears once the cells before it have compiled and run.
	var st knobState
	t0 := time.Now()
	for {
		var err error
		st, err = state()
		if err == nil && st.Controls && st.Chart && st.Draw >= 1 {
			break
		}
		if ps, err := chromedp.Run(ctx, chromedp.Evaluate[pageState](stateJS)); err == nil && ps.Ready && ps.Pending == 0 && ps.Idle {
			return []string{"widget: the notebook finished without showing the widget and its chart (ids " + w.Slider + ", " + w.Select + ", " + w.Done + ")"}, nil
		}
		if ctx.Err() != nil || time.Since(t0) > widgetAppearWait {
			comm, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`typeof globalThis.gonb_comm === 'object'`))
			// The cell would wait for its own time limit: interrupt it.
			_, _ = chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { Jupyter.notebook.kernel.interrupt(); return true; })()`))
			return []string{fmt.Sprintf("widget: the widget and its chart did not appear within %v of Run All (GoNB's gonb_comm set up in the page: %v; state %+v; the page's console on GoNB: %s)",
				time.Since(t0).Round(time.Second), comm, st, strings.Join(console.Lines(), " | "))}, nil
		}
		time.Sleep(300 * time.Millisecond)
	}
	defer func() {
		// Done ends the cell whatever happened; then the kernel must idle.
		clicked, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(clickJS, jsString(w.Done))))
		if err != nil {
			problems = append(problems, fmt.Sprintf("widget: clicking Done: %v", err))
			return
		}
		if !clicked {
			problems = append(problems, "widget: no Done button to click: the cell ended before Done (its time limit?)")
		}
		t0 := time.Now()
		for time.Since(t0) < widgetIdleWait {
			if ps, err := chromedp.Run(ctx, chromedp.Evaluate[pageState](stateJS)); err == nil && ps.Ready && ps.Pending == 0 && ps.Idle {
				return
			}
			time.Sleep(300 * time.Millisecond)
		}
		problems = append(problems, fmt.Sprintf("widget: Done clicked, the kernel still busy after %v (interrupted)", widgetIdleWait))
		_, _ = chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { Jupyter.notebook.kernel.interrupt(); return true; })()`))
	}()
	problems = append(problems, w.consistent("first drawing", st)...)
	notes = append(notes, fmt.Sprintf("widget: first drawing %.0f s after Run All: redraw %d, %s, ε = %g, last round measured %.4g, predicted %.4g",
		time.Since(t0).Seconds(), st.Draw, st.Counter, st.Epsilon, st.AttrLast[0], st.AttrLast[1]))

	// Move the slider two steps down (a smaller ε), then change the select.
	slider := max(st.Slider-2, 0)
	if slider == st.Slider {
		slider = st.Slider + 1
	}
	moves := []struct {
		what, id string
		to       int
	}{
		{"slider", w.Slider, slider},
		{"select", w.Select, (st.Select + 2) % len(w.Options)},
	}
	for _, m := range moves {
		before := st
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(setJS, jsString(m.id), m.to))); err != nil {
			return append(problems, fmt.Sprintf("widget: moving the %s: %v", m.what, err)), notes
		}
		wantEps, wantCounter := before.Epsilon, before.Counter
		if m.what == "slider" {
			if m.to < 0 || m.to >= len(w.Epsilons) {
				return append(problems, fmt.Sprintf("widget: slider index %d outside the declared grid of %d", m.to, len(w.Epsilons))), notes
			}
			wantEps = w.Epsilons[m.to]
		} else {
			wantCounter = w.Options[m.to]
		}
		// Wait for a redraw showing the new value, then for the draws to
		// settle (input and change may each redraw).
		t0 := time.Now()
		for {
			s, err := state()
			if err == nil && s.Chart && s.Draw > before.Draw && s.Epsilon == wantEps && s.Counter == wantCounter {
				st = s
				break
			}
			if time.Since(t0) > widgetRedrawWait || ctx.Err() != nil {
				return append(problems, fmt.Sprintf("widget: %s moved to %d (ε = %g, %s): the chart was not redrawn within %v (still draw %d: ε = %g, %s)",
					m.what, m.to, wantEps, wantCounter, widgetRedrawWait, s.Draw, s.Epsilon, s.Counter)), notes
			}
			time.Sleep(200 * time.Millisecond)
		}
		for stable := 0; stable < 3; {
			time.Sleep(300 * time.Millisecond)
			s, err := state()
			if err != nil || s.Draw != st.Draw || !s.Chart {
				stable = 0
				if err == nil {
					st = s
				}
				continue
			}
			stable++
		}
		problems = append(problems, w.consistent(m.what+" moved", st)...)
		if st.Series == before.Series {
			problems = append(problems, fmt.Sprintf("widget: %s moved, the chart's data did not change", m.what))
		}
		if m.what == "slider" && wantEps < before.Epsilon && !(st.AttrLast[1] > before.AttrLast[1]) {
			problems = append(problems, fmt.Sprintf("widget: ε %g → %g, the predicted error at the last round went %g → %g, want larger",
				before.Epsilon, wantEps, before.AttrLast[1], st.AttrLast[1]))
		}
		notes = append(notes, fmt.Sprintf("widget: %s → %d: redraw %d, %s, ε = %g, last round measured %.4g, predicted %.4g",
			m.what, m.to, st.Draw, st.Counter, st.Epsilon, st.AttrLast[0], st.AttrLast[1]))
	}
	if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
		if err := os.WriteFile(shot, png, 0o644); err == nil {
			notes = append(notes, "widget: screenshot after the moves "+filepath.Base(shot))
		}
	}
	return problems, notes
}

// consistent checks that the chart of st draws what its attributes say the
// kernel computed, at the values the controls are set to.
func (w *widgetSpec) consistent(when string, st knobState) []string {
	var p []string
	bad := func(format string, a ...any) { p = append(p, "widget: "+when+": "+fmt.Sprintf(format, a...)) }
	if st.Slider < 0 || st.Slider >= len(w.Epsilons) || st.Epsilon != w.Epsilons[st.Slider] {
		bad("the slider is at %d, the chart says ε = %g (declared grid %v)", st.Slider, st.Epsilon, w.Epsilons)
	}
	if st.Select < 0 || st.Select >= len(w.Options) || st.Counter != w.Options[st.Select] {
		bad("the select is at %d, the chart says %q (declared options %v)", st.Select, st.Counter, w.Options)
	}
	if !strings.Contains(st.Title, st.Counter) || !strings.Contains(st.Title, fmt.Sprintf("ε = %g", st.Epsilon)) {
		bad("the chart's title %q does not name %s and ε = %g", st.Title, st.Counter, st.Epsilon)
	}
	if len(st.ChartLast) != 2 || len(st.AttrLast) != 2 || st.ChartLast[0] != st.AttrLast[0] || st.ChartLast[1] != st.AttrLast[1] {
		bad("the chart's last points %v differ from what the kernel computed %v", st.ChartLast, st.AttrLast)
	}
	if st.Points < 2 {
		bad("the chart has %d points", st.Points)
	}
	return p
}
