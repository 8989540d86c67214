package testutil_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/internal/testutil"
)

// RandomFactor draws a lower-triangular L with its diagonal in [1, 2) (so
// it is invertible) and a vector u, from the caller's generator.
func ExampleRandomFactor() {
	const d = 3
	l, u := testutil.RandomFactor(rand.New(rand.NewPCG(1, 2)), d)
	upper, diagOK := 0, true
	for i := 0; i < d; i++ {
		for j := i + 1; j < d; j++ {
			if l[i*d+j] != 0 {
				upper++
			}
		}
		diagOK = diagOK && l[i*d+i] >= 1 && l[i*d+i] < 2
	}
	fmt.Println(len(l), len(u), upper, diagOK)
	// Output:
	// 9 3 0 true
}
