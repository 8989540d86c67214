package noise_test

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// The node noise of a tree counter: a LaplaceNoise of scale b fills a vector
// with independent Lap(b) draws, whose mean absolute value is b.
func ExampleNewLaplaceNoise() {
	n, err := noise.NewLaplaceNoise(4, 2, bandit.Stream(1, 0))
	if err != nil {
		panic(err)
	}
	dst := make([]float64, n.Dim())
	var sum float64
	const draws = 5000
	for range draws {
		n.Sample(dst)
		for _, v := range dst {
			sum += math.Abs(v)
		}
	}
	// The mean of 20000 |Lap(2)| draws has standard error 2/√20000 ≈ 0.014.
	mean := sum / (draws * 4)
	fmt.Println("dimension:", n.Dim())
	fmt.Printf("mean |noise| within 0.1 of the scale 2: %v\n", math.Abs(mean-2) < 0.1)
	fmt.Println("mode:", noise.ModeOf(n))
	// Output:
	// dimension: 4
	// mean |noise| within 0.1 of the scale 2: true
	// mode: simulated
}
