package plot

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/dpbandits/dpbandits/dpb/audit"
)

// AuditScores draws one audit: the distributions of the test statistic on
// D and on D′ over the evaluation half (fraction of runs per bin, as step
// lines), the bins of the chosen region shaded, and the empirical ε bounds in
// the title. Scores of ±∞ (outputs impossible under one input) are counted
// into the outermost bins. Label-valued (categorical) statistics get one bin
// per label when there are at most 64 labels.
func AuditScores(r audit.Result, s audit.Scores) (*plot.Plot, error) {
	if len(s.D) == 0 || len(s.D) != len(s.DPrime) || s.In == nil {
		return nil, fmt.Errorf("plot: audit %s: no evaluation scores", r.Name)
	}
	edges := auditBins(s.D, s.DPrime)
	nb := len(edges) - 1
	hist := func(xs []float64) []float64 {
		h := make([]float64, nb)
		for _, x := range xs {
			i := sort.SearchFloat64s(edges, x) - 1
			h[max(0, min(nb-1, i))] += 1 / float64(len(xs))
		}
		return h
	}
	h0, h1 := hist(s.D), hist(s.DPrime)
	top := 0.0
	for i := range nb {
		top = math.Max(top, math.Max(h0[i], h1[i]))
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: ε ≥ %.3f (95%% CP), estimate %.3f, claimed %g", r.Name, r.Lower, float64(r.Estimate), r.Epsilon)
	p.X.Label.Text = "test statistic (larger points to D′)"
	if r.Categorical {
		p.X.Label.Text = "output label (the region is a set of labels, shaded where a bin holds one)"
	}
	p.Y.Label.Text = "fraction of runs"
	// Shade the bins whose centre lies in the region.
	shaded := false
	for i := range nb {
		if !binInRegion(s, edges[i], edges[i+1]) {
			continue
		}
		poly, err := plotter.NewPolygon(plotter.XYs{{X: edges[i], Y: 0}, {X: edges[i+1], Y: 0}, {X: edges[i+1], Y: top * 1.4}, {X: edges[i], Y: top * 1.4}})
		if err != nil {
			return nil, err
		}
		poly.Color = color.RGBA{R: 230, G: 230, B: 200, A: 255}
		poly.LineStyle.Width = 0
		p.Add(poly)
		if !shaded {
			p.Legend.Add("region (guess D′)", poly)
			shaded = true
		}
	}
	for k, h := range [][]float64{h0, h1} {
		pts := make(plotter.XYs, 0, 2*nb)
		for i := range nb {
			pts = append(pts, plotter.XY{X: edges[i], Y: h[i]}, plotter.XY{X: edges[i+1], Y: h[i]})
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, err
		}
		l.Color = Colour(k)
		l.Width = vg.Points(1.5)
		l.Dashes = Dashes(k)
		p.Add(l)
		p.Legend.Add([]string{"D", "D′"}[k], l)
	}
	p.Legend.Top = true
	p.Legend.Left = true
	p.Y.Min = 0
	p.Y.Max = top * 1.4 // room for the legend above the histograms
	return p, nil
}

// auditBins returns bin edges: one per distinct value when there are at
// most 64 (labels and discrete statistics), else 60 equal bins over the
// finite range.
func auditBins(a, b []float64) []float64 {
	seen := map[float64]bool{}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, xs := range [][]float64{a, b} {
		for _, x := range xs {
			if math.IsInf(x, 0) || math.IsNaN(x) {
				continue
			}
			if len(seen) <= 64 {
				seen[x] = true
			}
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	if math.IsInf(lo, 1) { // every score infinite
		return []float64{-1, 0, 1}
	}
	if len(seen) <= 64 {
		vs := make([]float64, 0, len(seen))
		for v := range seen {
			vs = append(vs, v)
		}
		sort.Float64s(vs)
		edges := make([]float64, 0, len(vs)+1)
		step := 1.0
		if len(vs) > 1 {
			step = vs[1] - vs[0]
			for i := 1; i < len(vs); i++ {
				step = math.Min(step, vs[i]-vs[i-1])
			}
		}
		for _, v := range vs {
			edges = append(edges, v-step/2)
		}
		return append(edges, vs[len(vs)-1]+step/2)
	}
	const n = 60
	edges := make([]float64, n+1)
	for i := range edges {
		edges[i] = lo + (hi-lo)*float64(i)/n
	}
	edges[n] = math.Nextafter(hi, math.Inf(1))
	return edges
}

// binInRegion reports whether a score of the bin [lo, hi) lies in the
// region: its centre for continuous statistics, or any evaluation score in
// it (labels).
func binInRegion(s audit.Scores, lo, hi float64) bool {
	if s.In(0.5 * (lo + hi)) {
		return true
	}
	for _, xs := range [][]float64{s.D, s.DPrime} {
		for _, x := range xs {
			if x >= lo && x < hi && s.In(x) {
				return true
			}
		}
	}
	return false
}
