package harness

import (
	"fmt"
	"math"
	"strconv"

	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// Fit is a least-squares line log y = Intercept + Slope·log x.
type Fit struct {
	Slope, Intercept, SlopeSE float64
	Points                    int
}

// MarshalJSON writes NaN fields (fits with too few points) as null.
func (f Fit) MarshalJSON() ([]byte, error) {
	num := func(v float64) string {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return "null"
		}
		return strconv.FormatFloat(v, 'g', 6, 64)
	}
	return []byte(fmt.Sprintf(`{"slope":%s,"intercept":%s,"slope_se":%s,"points":%d}`, num(f.Slope), num(f.Intercept), num(f.SlopeSE), f.Points)), nil
}

// FitLogLog fits log y against log x by ordinary least squares over the
// points with x > 0 and finite y > 0 — the one log–log fit of the module
// (SS18 Figure 3's slope against d, AS17's slopes against T) — and returns
// the slope with its standard error (NaN fields when fewer than two usable
// points; SE NaN with two). The slope and intercept are computed from the
// raw sums, (n Σxy − Σx Σy)/(n Σx² − (Σx)²) and (Σy − slope Σx)/n, in this
// order, and the standard error from the centred sums and the residuals of
// the line computed from them: the same line in exact arithmetic, and the
// rounding every committed figure (SS18 Fig. 3 from the raw sums, the AS17
// tables' standard errors from the centred ones) was computed with.
func FitLogLog(x, y []float64) Fit {
	var lx, ly []float64
	for i := range x {
		if x[i] > 0 && y[i] > 0 && !math.IsInf(y[i], 0) {
			lx = append(lx, xmath.Log(x[i]))
			ly = append(ly, xmath.Log(y[i]))
		}
	}
	f := Fit{Slope: math.NaN(), Intercept: math.NaN(), SlopeSE: math.NaN(), Points: len(lx)}
	if len(lx) < 2 {
		return f
	}
	var n, sx, sy, sxx, sxy float64
	for i := range lx {
		n++
		sx += lx[i]
		sy += ly[i]
		sxx += float64(lx[i] * lx[i])
		sxy += float64(lx[i] * ly[i])
	}
	mx := sx / n
	var cxx float64
	for _, v := range lx {
		cxx += float64((v - mx) * (v - mx))
	}
	if cxx == 0 {
		return f
	}
	f.Slope = (n*sxy - sx*sy) / (n*sxx - sx*sx)
	f.Intercept = (sy - f.Slope*sx) / n
	if len(lx) > 2 {
		// The residuals of the same line computed from the centred sums.
		my := sy / n
		var cxy float64
		for i, v := range lx {
			cxy += float64((v - mx) * (ly[i] - my))
		}
		b := cxy / cxx
		a := my - b*mx
		var rss float64
		for i := range lx {
			r := ly[i] - a - b*lx[i]
			rss += float64(r * r)
		}
		f.SlopeSE = math.Sqrt(rss / (n - 2) / cxx)
	}
	return f
}

// SlopeText formats the fitted slope ± its standard error for a table, or
// the slope and its number of points when they are too few for a standard
// error, or "—" when there is no fit at all.
func (f Fit) SlopeText() string {
	switch {
	case math.IsNaN(f.Slope):
		return "—"
	case math.IsNaN(f.SlopeSE):
		return fmt.Sprintf("%.2f (%d points)", f.Slope, f.Points)
	}
	return fmt.Sprintf("%.2f ± %.2f", f.Slope, f.SlopeSE)
}
