package counter_test

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// A private counter: 1024 increments released by the tree mechanism with
// Laplace node noise.
func ExampleTreeSum() {
	rng := bandit.Stream(1, 0)
	lap, _ := noise.NewLaplaceNoise(1, 1.0, rng)
	ts, _ := counter.NewTreeSum(1, 1024, lap, counter.Plain)
	for range 1024 {
		ts.Add([]float64{1})
	}
	sum := ts.SumTo(nil)[0]
	// One node at t = 1024: Lap(1) noise, |noise| < 20 with probability 1 − e⁻²⁰.
	fmt.Printf("private count within ±20 of 1024: %v\n", math.Abs(sum-1024) < 20)
	// Output:
	// private count within ±20 of 1024: true
}
