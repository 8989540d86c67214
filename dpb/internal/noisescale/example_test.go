package noisescale_test

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/internal/noisescale"
)

// A test switches every simulated sampler's noise off (factor 0) for the
// duration of a run, then restores the factor 1.
func ExampleSet() {
	x := []float64{0.5, 2}
	restore := noisescale.Set(0)
	noisescale.Apply(x)
	f, set := noisescale.Factor()
	fmt.Println("scaled draws:", x, "factor:", f, set)
	restore()
	f, set = noisescale.Factor()
	fmt.Println("after restore:", noisescale.Scale(0.5), "factor:", f, set)
	// Output:
	// scaled draws: [0 0] factor: 0 true
	// after restore: 0.5 factor: 1 false
}
