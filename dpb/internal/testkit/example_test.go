package testkit_test

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
)

// FirstDiff compares bits, so −0 differs from +0 and a NaN from itself
// (FirstDiffNaN takes any two NaNs as equal).
func ExampleFirstDiff() {
	a := []float64{1, 0, math.NaN()}
	fmt.Println(testkit.FirstDiff(a, []float64{1, 0, a[2]}))
	fmt.Println(testkit.FirstDiff(a, []float64{1, math.Copysign(0, -1), a[2]}))
	fmt.Println(testkit.FirstDiffNaN([]float64{math.NaN()}, []float64{math.NaN()}))
	// Output:
	// -1
	// 1
	// -1
}
