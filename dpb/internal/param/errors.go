package param

import (
	"fmt"
	"math"
)

// Panic messages for programmer errors (gonum style).
const (
	BadDim      = "dimension mismatch"
	BadArm      = "arm index out of range"
	PastHorizon = "more rounds than the mechanism's horizon"
	NilRand     = "nil *rand.Rand"
)

// DstOf returns the destination of a ...To(dst) method that writes n values:
// dst itself, or a new slice when dst is nil. A dst of another length is a
// programmer error (panic BadDim).
func DstOf(dst []float64, n int) []float64 {
	if dst == nil {
		return make([]float64, n)
	}
	if len(dst) != n {
		panic(BadDim)
	}
	return dst
}

// CheckFinite reports an error unless v is finite.
func CheckFinite(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%s is %v, must be finite", name, v)
	}
	return nil
}

// CheckPositive reports an error unless v is finite and > 0.
func CheckPositive(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return fmt.Errorf("%s is %v, must be > 0 and finite", name, v)
	}
	return nil
}

// CheckNonNegative reports an error unless v is finite and >= 0.
func CheckNonNegative(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Errorf("%s is %v, must be >= 0 and finite", name, v)
	}
	return nil
}

// CheckEpsilon validates a privacy parameter ε: finite and > 0.
func CheckEpsilon(eps float64) error { return CheckPositive("epsilon", eps) }

// CheckDelta validates a privacy parameter δ ∈ (0, 1).
func CheckDelta(delta float64) error {
	if math.IsNaN(delta) || delta <= 0 || delta >= 1 {
		return fmt.Errorf("delta is %v, must be in (0, 1)", delta)
	}
	return nil
}

// CheckProb validates a failure probability α ∈ (0, 1).
func CheckProb(name string, a float64) error {
	if math.IsNaN(a) || a <= 0 || a >= 1 {
		return fmt.Errorf("%s is %v, must be in (0, 1)", name, a)
	}
	return nil
}

// CheckDim validates a dimension d >= 1.
func CheckDim(name string, d int) error {
	if d < 1 {
		return fmt.Errorf("%s is %d, must be >= 1", name, d)
	}
	return nil
}

// CheckVectorFinite reports an error if any entry of x is not finite.
func CheckVectorFinite(name string, x []float64) error {
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s[%d] is %v, must be finite", name, i, v)
		}
	}
	return nil
}
