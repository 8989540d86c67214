package accounting

import (
	"fmt"
	"math"
)

func checkPositive(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return fmt.Errorf("accounting: %s is %v, must be > 0 and finite", name, v)
	}
	return nil
}

func checkNonNegative(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Errorf("accounting: %s is %v, must be >= 0 and finite", name, v)
	}
	return nil
}

func checkDelta(name string, d float64) error {
	if math.IsNaN(d) || d <= 0 || d >= 1 {
		return fmt.Errorf("accounting: %s is %v, must be in (0, 1)", name, d)
	}
	return nil
}

func checkCount(name string, m int) error {
	if m < 1 {
		return fmt.Errorf("accounting: %s is %d, must be >= 1", name, m)
	}
	return nil
}

// checkTarget validates a target (ε, δ): ε > 0 finite, δ ∈ (0, 1).
func checkTarget(eps, delta float64) error {
	if err := checkPositive("epsilon", eps); err != nil {
		return err
	}
	return checkDelta("delta", delta)
}

// bisect returns the boundary of a monotone predicate on [lo, hi]: ok(lo)
// must hold and ok(hi) must not; it returns the largest point found where ok
// holds, to within the Float64 resolution after 200 halvings.
func bisect(lo, hi float64, ok func(float64) bool) float64 {
	for range 200 {
		mid := lo + float64((hi-lo)/2)
		if mid == lo || mid == hi {
			break
		}
		if ok(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}
