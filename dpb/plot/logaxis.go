package plot

import (
	"math"

	"gonum.org/v1/plot"
)

// drawable makes every log-scale axis of p drawable before p is drawn.
// gonum/plot panics ("Values must be greater than 0 for a log scale") on a
// log axis whose range reaches 0 or below, and it gives an axis whose data
// span one value v the range [v−1, v+1] (negative for v < 1): a curve of
// two rounds (MT14 Fig. 1 at -n 2 has one positive regret value) or of no
// positive point at all made the figure panic. Such an axis gets instead
// [v/2, 2v] for one value v > 0, [max/1000, max] when its data reach 0 or
// below, and [1, 10] when it holds no positive value. Axes with a positive
// range are left as they are (no committed figure changes).
func drawable(p *plot.Plot) {
	if p == nil {
		return
	}
	logRange(&p.X)
	logRange(&p.Y)
}

// logRange applies drawable's rule to one axis.
func logRange(a *plot.Axis) {
	if _, ok := a.Scale.(plot.LogScale); !ok {
		return
	}
	lo, hi := a.Min, a.Max
	switch {
	case !(hi > 0) || math.IsInf(hi, 0) || math.IsNaN(lo):
		a.Min, a.Max = 1, 10
	case !(lo > 0):
		a.Min = hi / 1000
	case lo == hi:
		a.Min, a.Max = lo/2, 2*hi
	}
}
