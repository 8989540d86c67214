package plot

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// Pow2Ticks labels the powers of two 2^e with e a multiple of Step (2 when
// Step is 0) on a log axis, as "2^e", with unlabelled ticks at the other
// powers of two.
type Pow2Ticks struct{ Step int }

// Ticks implements plot.Ticker.
func (p Pow2Ticks) Ticks(min, max float64) []plot.Tick {
	step := p.Step
	if step <= 0 {
		step = 2
	}
	var t []plot.Tick
	for e := int(math.Ceil(math.Log2(min))); float64(e) <= math.Log2(max); e++ {
		lab := ""
		if e%step == 0 {
			lab = "2^" + strconv.Itoa(e)
		}
		t = append(t, plot.Tick{Value: math.Ldexp(1, e), Label: lab})
	}
	return t
}
