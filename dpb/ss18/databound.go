package ss18

import (
	"fmt"
	"math"
)

// dataBound is the bound on an observation (x, y) that a regularizer's
// mechanism is calibrated for: ‖x‖² + y² ≤ L̃² (DataBound), or, for a split
// regularizer ([Levers]), ‖x‖ ≤ X and |y| ≤ Y (SplitBounds).
type dataBound struct {
	lt2, x, y float64 // x = 0: not split
}

// boundOf returns the data bound of reg.
func boundOf(reg Regularizer) dataBound {
	if sb, ok := reg.(interface {
		SplitBounds() (float64, float64, bool)
	}); ok {
		if x, y, split := sb.SplitBounds(); split {
			return dataBound{lt2: reg.DataBound(), x: x, y: y}
		}
	}
	return dataBound{lt2: reg.DataBound()}
}

// admit returns (x, y) if it is within the bound (with the relative
// tolerance boundSlack), or, with clip, clipped onto it (written into
// dst, which may be x), or the error that says why it is refused. n2 =
// ‖x‖² + y², finite. A split bound clips x onto ‖x‖ = X and y to [−Y, Y]
// separately.
func (b dataBound) admit(x []float64, y, n2 float64, clip bool, dst []float64) ([]float64, float64, error) {
	if b.x == 0 {
		if n2 <= b.lt2*(1+boundSlack) {
			return x, y, nil
		}
		if !clip || math.IsInf(n2, 1) {
			return nil, 0, fmt.Errorf("ss18: ‖x‖² + y² = %v exceeds the bound L̃² = %v the mechanism is calibrated for (set Clip to clip finite data)", n2, b.lt2)
		}
		c := math.Sqrt(b.lt2 / n2)
		for i, v := range x {
			dst[i] = v * c
		}
		return dst[:len(x)], y * c, nil
	}
	var x2 float64
	for _, v := range x {
		x2 += float64(v * v)
	}
	xOK, yOK := x2 <= b.x*b.x*(1+boundSlack), math.Abs(y) <= b.y*(1+boundSlack)
	if xOK && yOK {
		return x, y, nil
	}
	if !clip || math.IsInf(x2, 1) {
		if !xOK {
			return nil, 0, fmt.Errorf("ss18: ‖x‖ = %v exceeds the bound %v the split mechanism is calibrated for (set Clip to clip finite data)", math.Sqrt(x2), b.x)
		}
		return nil, 0, fmt.Errorf("ss18: |y| = %v exceeds the bound %v the split mechanism is calibrated for (set Clip to clip finite data)", math.Abs(y), b.y)
	}
	c := 1.0
	if !xOK {
		c = b.x / math.Sqrt(x2)
	}
	for i, v := range x {
		dst[i] = v * c
	}
	return dst[:len(x)], math.Max(-b.y, math.Min(b.y, y)), nil
}
