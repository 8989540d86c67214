package plot

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/ss18fig"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// SS18 Appendix D figures, drawn from the results of the dpb drivers
// (SS18DecisionSet, SS18Experiment1..3). "dpb reproduce ss18-figN" and the
// notebooks call these.

// SS18Fig1View is the default view of Figure 1.
var SS18Fig1View = View{Azimuth: 35, Elevation: 20}

func ss18Fig1Options(title string, view View, circ []Curve3) Scatter3DOptions {
	return Scatter3DOptions{Title: title, View: view, UnitSphere: true, AxisLength: 1.15, Circles: circ, LegendSpace: 0.32}
}

// SS18Fig1Size returns a figure size (width, height) with equal aspect for
// [SS18Fig1] at the given width.
func SS18Fig1Size(width vg.Length) (w, h vg.Length) {
	a := Scatter3DAspect(ss18Fig1Options("", View{}, nil))
	return width, vg.Length(vg.Length(a)*width) + vg.Length(0.35*vg.Inch)
}

// SS18Fig1 draws a decision set in R³ (SS18 Figure 1): sub-optimal actions
// shaded by depth, the optimal action, θ* as an arrow, the unit sphere's
// outline and the circles ⟨x, θ*⟩ = OptReward and OptReward − Δ.
func SS18Fig1(ds *ss18fig.LinearDecisionSet, view View) (*plot.Plot, error) {
	if ds.Config.Dim != 3 {
		return nil, fmt.Errorf("plot: SS18Fig1 needs d = 3, got %d", ds.Config.Dim)
	}
	var sub, opt [][3]float64
	for a, x := range ds.Actions {
		p := [3]float64{x[0], x[1], x[2]}
		if a == ds.Optimal {
			opt = append(opt, p)
		} else {
			sub = append(sub, p)
		}
	}
	th := [3]float64{ds.Theta[0], ds.Theta[1], ds.Theta[2]}
	lo, hi := -ds.Config.OptReward, ds.Config.OptReward-ds.Config.Gap
	groups := []Points3{
		{Name: fmt.Sprintf("%d sub-optimal actions, x·θ* in [%.2f, %.2f] (far ones paler)", len(sub), lo, hi), Points: sub, Color: Colour(0), Radius: vg.Points(2.2), DepthFade: 0.75},
		{Name: fmt.Sprintf("optimal action, x·θ* = %.2f", ds.Config.OptReward), Points: opt, Color: Colour(1), Radius: vg.Points(6), Shape: draw.PyramidGlyph{}},
	}
	arrows := []Arrow3{{Name: "θ* (unit vector)", To: th, Color: color.Black, Width: vg.Points(2)}}
	circ := []Curve3{
		{Name: fmt.Sprintf("circle x·θ* = %.2f (where the optimal action lies)", ds.Config.OptReward), Points: SliceCircle(th, ds.Config.OptReward, 120), Color: Colour(1)},
	}
	if ds.Config.Gap > 0 {
		circ = append(circ, Curve3{Name: fmt.Sprintf("circle x·θ* = %.2f (edge of the gap)", hi), Points: SliceCircle(th, hi, 120), Color: Colour(2)})
	}
	title := fmt.Sprintf("SS18 Fig. 1: a decision set in R³, K = %d, Δ = %g", len(ds.Actions), ds.Config.Gap)
	return Scatter3D(groups, arrows, ss18Fig1Options(title, view, circ))
}

// SS18Fig2 draws Experiment 1's regret over time, one panel per reward
// noise and one line per d (SS18 Figure 2). Save with [SaveGrid].
func SS18Fig2(res *ss18fig.Exp1Result) ([][]*plot.Plot, error) {
	var row []*plot.Plot
	for i, noise := range res.Config.Noises {
		p, err := Curves(res.Curves[i], CurveOptions{Gradient: true,
			Title:  fmt.Sprintf("SS18 Fig. 2, %s rewards\nn = %d, %d runs, K = d², Δ = %g", noise, res.Config.Horizon, res.Config.Reps, res.Config.Gap),
			XLabel: "round t", YLabel: "pseudo-regret",
		})
		if err != nil {
			return nil, err
		}
		p.X.Min, p.Y.Min = 0, 0
		// Headroom so the legend (top left) sits above the curves.
		var top float64
		for _, m := range res.Curves[i].Mean {
			for _, v := range m {
				top = math.Max(top, v)
			}
		}
		if top > 0 {
			p.Y.Max = top * (1 + float64(0.09*float64(len(res.Curves[i].Names))))
		}
		p.Y.Tick.Marker = GTicks{}
		RoomForLastXTick(p, 0.06)
		row = append(row, p)
	}
	return [][]*plot.Plot{row}, nil
}

// SS18Fig3 draws Experiment 1's total regret against d on log–log axes with
// the least-squares lines and their slopes (SS18 Figure 3).
func SS18Fig3(res *ss18fig.Exp1Result) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("SS18 Fig. 3: total regret vs d (n = %d, %d runs, K = d², Δ = %g)", res.Config.Horizon, res.Config.Reps, res.Config.Gap)
	p.X.Label.Text = "dimension d"
	p.Y.Label.Text = "total regret after n rounds"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker = dimTicks(res.Config.Dims)
	p.Y.Tick.Marker = NiceLogTicks{}
	p.Legend.Top, p.Legend.Left = true, true
	p.Add(plotter.NewGrid())
	for i, noise := range res.Config.Noises {
		tc := res.Total[i]
		pts := make(plotter.XYs, 0, len(tc.X))
		var errs plotter.YErrors
		for k, x := range tc.X {
			if tc.Mean[0][k] <= 0 {
				continue
			}
			pts = append(pts, plotter.XY{X: x, Y: tc.Mean[0][k]})
			se := 2 * tc.StdErr[0][k]
			errs = append(errs, struct{ Low, High float64 }{math.Min(se, 0.9*tc.Mean[0][k]), se})
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: Colour(i), Radius: vg.Points(3.5), Shape: []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}}[i%2]}
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{pts, errs})
		if err != nil {
			return nil, err
		}
		eb.LineStyle.Color = Colour(i)
		p.Add(sc, eb)
		p.Legend.Add(fmt.Sprintf("%s rewards (mean ± 2 s.e.)", noise), sc)
		a, b := res.Slope[i], res.Intercept[i]
		lo, hi := tc.X[0], tc.X[len(tc.X)-1]
		var fit plotter.XYs
		for j := 0; j <= 40; j++ {
			x := lo * math.Pow(hi/lo, float64(j)/40)
			fit = append(fit, plotter.XY{X: x, Y: math.Exp(b) * math.Pow(x, a)})
		}
		l, err := plotter.NewLine(fit)
		if err != nil {
			return nil, err
		}
		l.Color = Colour(i)
		l.Dashes = Dashes(1 + i)
		l.Width = vg.Points(1.2)
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("least-squares fit, slope %.2f (regret ~ d^%.2f)", a, a), l)
	}
	RoomForLastXTick(p, 0.04)
	LegendAbove(p)
	return p, nil
}

// SS18Fig4 draws Experiment 2's regret over time, one panel per gap, with
// ±2 s.e. bands, up to round plotTo (all rounds when plotTo ≤ 0) (SS18
// Figure 4).
func SS18Fig4(res *ss18fig.Exp2Result, plotTo float64) ([][]*plot.Plot, error) {
	cfg := res.Config
	var row []*plot.Plot
	for g, gap := range cfg.Gaps {
		cv := TruncateCurves(res.Curves[g], plotTo)
		p, err := Curves(cv, CurveOptions{
			Title:  fmt.Sprintf("SS18 Fig. 4, Δ = %g\nd = %d, K = %d, ε = %g, δ = %g; n = %s, %d runs", gap, cfg.Dim, cfg.K, cfg.Epsilon, cfg.Delta, FormatCount(cfg.Horizon), cfg.Reps),
			XLabel: "round t", YLabel: "pseudo-regret, ±2 s.e.", Band: 2,
			LegendAbove: true, // the bands of the Wishart variants fill the top-left corner
		})
		if err != nil {
			return nil, err
		}
		p.X.Min, p.Y.Min = 0, 0
		p.X.Tick.Marker, p.Y.Tick.Marker = GTicks{}, GTicks{}
		RoomForLastXTick(p, 0.06)
		row = append(row, p)
	}
	return [][]*plot.Plot{row}, nil
}

// SS18Finals returns the panels of the final regret of each run of
// Experiment 2 (SS18 Figure 4's setting), one per gap, for [FinalRegret]:
// what names the figure in the titles ("SS18 Fig. 4").
func SS18Finals(res *ss18fig.Exp2Result, what string) ([]FinalsPanel, error) {
	cfg := res.Config
	if len(res.Finals) != len(cfg.Gaps) || len(res.Curves) != len(cfg.Gaps) {
		return nil, fmt.Errorf("plot: %s: finals for %d gaps and curves for %d, want %d", what, len(res.Finals), len(res.Curves), len(cfg.Gaps))
	}
	panels := make([]FinalsPanel, len(cfg.Gaps))
	for g, gap := range cfg.Gaps {
		panels[g] = FinalsPanel{
			Title: fmt.Sprintf("%s, Δ = %g: final regret at n = %s\nd = %d, K = %d, ε = %g, δ = %g; %d runs", what, gap, FormatCount(cfg.Horizon), cfg.Dim, cfg.K, cfg.Epsilon, cfg.Delta, cfg.Reps),
			Names: res.Curves[g].Names, Finals: res.Finals[g]}
	}
	return panels, nil
}

// SS18Fig5 draws Experiment 3's total regret against ρ_min (log scale), one
// panel per mechanism and one line per gap, with dotted vertical lines at
// Section 4's shifts (and at the unshifted Wishart) (SS18 Figure 5).
func SS18Fig5(res *ss18fig.Exp3Result) ([][]*plot.Plot, error) {
	cfg := res.Config
	var row []*plot.Plot
	for m, mech := range res.Mechanisms {
		cv := res.Curves[m]
		p, err := Curves(cv, CurveOptions{Gradient: true,
			Title:  fmt.Sprintf("SS18 Fig. 5, %s\nd = %d, K = %d, ε = %g, δ = %g; n = %s, mean of %d runs", mech, cfg.Dim, cfg.K, cfg.Epsilon, cfg.Delta, FormatCount(cfg.Horizon), cfg.Reps),
			XLabel: "ρ_min of the shifted regularizer (log scale)", YLabel: "total regret after n rounds", LogX: true,
		})
		if err != nil {
			return nil, err
		}
		p.X.Tick.Marker = NiceLogTicks{}
		ymin, ymax := math.Inf(1), math.Inf(-1)
		for s := range cv.Names {
			pts := make(plotter.XYs, len(cv.X))
			for i := range cv.X {
				pts[i] = plotter.XY{X: cv.X[i], Y: cv.Mean[s][i]}
				ymin = math.Min(ymin, cv.Mean[s][i])
				ymax = math.Max(ymax, cv.Mean[s][i])
			}
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return nil, err
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: Gradient(s, len(cv.Names)), Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
			p.Add(sc)
		}
		pad := 0.05 * (ymax - ymin)
		if !(pad > 0) {
			pad = 1
		}
		p.Y.Min, p.Y.Max = math.Max(0, ymin-pad), ymax+float64(22*pad) // room for the legend
		p.Y.Tick.Marker = GTicks{}
		type vline struct {
			x    float64
			name string
		}
		vl := []vline{{res.PaperRhoMin[m], map[int]string{0: "Section 4.1 shift (Eq. 4)", 1: "Section 4.2 shift (2Υ)"}[m]}}
		if m == 0 {
			vl = append(vl, vline{res.UnshiftedRhoMin, "no shift (WishartUnshifted)"})
		}
		for j, v := range vl {
			l, err := plotter.NewLine(plotter.XYs{{X: v.x, Y: p.Y.Min}, {X: v.x, Y: p.Y.Max}})
			if err != nil {
				return nil, err
			}
			l.Color = color.Gray{Y: 60}
			l.Dashes = []vg.Length{vg.Points(2), vg.Points(3 + float64(3*float64(j)))}
			l.Width = vg.Points(1.2)
			p.Add(l)
			p.Legend.Add(v.name, l)
		}
		// The legend goes to the side where the curves are lower (their
		// highest mean over the outer third of the sweep), so that it
		// covers at most the dotted lines, not the curves.
		p.Legend.Top, p.Legend.Left = true, outerMax(cv, true) <= outerMax(cv, false)
		row = append(row, p)
	}
	return [][]*plot.Plot{row}, nil
}

// outerMax returns the highest mean of any series over the left (or right)
// third of the points, at least one point.
func outerMax(c *harness.Curves, left bool) float64 {
	n := max(1, len(c.X)/3)
	lo, hi := 0, n
	if !left {
		lo, hi = len(c.X)-n, len(c.X)
	}
	v := math.Inf(-1)
	for s := range c.Names {
		for _, y := range c.Mean[s][lo:hi] {
			v = math.Max(v, y)
		}
	}
	return v
}

// TruncateCurves keeps the points with X ≤ to (c itself when to ≤ 0).
func TruncateCurves(c *harness.Curves, to float64) *harness.Curves {
	if to <= 0 {
		return c
	}
	k := 0
	for k < len(c.X) && c.X[k] <= to {
		k++
	}
	t := &harness.Curves{Names: c.Names, X: c.X[:k], Reps: c.Reps}
	for s := range c.Names {
		t.Mean = append(t.Mean, c.Mean[s][:k])
		t.StdErr = append(t.StdErr, c.StdErr[s][:k])
	}
	return t
}

// FormatCount writes round numbers such as 1000000 as "10^6" and 20000 as
// "2·10^4".
func FormatCount(n int) string {
	if n >= 1000 && n%1000 == 0 {
		e := int(math.Floor(math.Log10(float64(n))))
		m := float64(n) / math.Pow(10, float64(e))
		if m == math.Trunc(m) {
			if m == 1 {
				return fmt.Sprintf("10^%d", e)
			}
			return fmt.Sprintf("%g·10^%d", m, e)
		}
	}
	return strconv.Itoa(n)
}

// dimTicks labels the dimensions actually used (at most about 9 of them).
type dimTicks []int

func (d dimTicks) Ticks(min, max float64) []plot.Tick {
	step := (len(d) + 8) / 9
	var t []plot.Tick
	for i, v := range d {
		lab := ""
		if i%step == 0 || i == len(d)-1 {
			lab = strconv.Itoa(v)
		}
		t = append(t, plot.Tick{Value: float64(v), Label: lab})
	}
	return t
}

// NiceLogTicks labels 1, 2 and 5 times powers of ten on a log axis (as
// "m·10^e" from 10⁵ up), with unlabelled minor ticks at the other integers;
// over more than two decades only the powers of ten are labelled (the
// labels would overlap in a panel).
type NiceLogTicks struct{}

// Ticks implements plot.Ticker.
func (NiceLogTicks) Ticks(min, max float64) []plot.Tick {
	wide := max > 100*min
	var t []plot.Tick
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
		p := math.Pow(10, e)
		for m := 1; m <= 9; m++ {
			v := float64(m) * p
			if v < min || v > max {
				continue
			}
			lab := ""
			if m == 1 || (!wide && (m == 2 || m == 5)) {
				lab = strconv.FormatFloat(v, 'g', -1, 64)
				if v >= 1e5 {
					lab = fmt.Sprintf("%d·10^%d", m, int(e))
				}
			}
			t = append(t, plot.Tick{Value: v, Label: lab})
		}
	}
	return t
}

// GTicks is plot.DefaultTicks with labels in %g (no trailing zeros).
type GTicks struct{}

// Ticks implements plot.Ticker.
func (GTicks) Ticks(min, max float64) []plot.Tick {
	t := plot.DefaultTicks{}.Ticks(min, max)
	for i := range t {
		if t[i].Label != "" {
			t[i].Label = strconv.FormatFloat(t[i].Value, 'g', -1, 64)
		}
	}
	return t
}
