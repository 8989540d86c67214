package perf_test

import (
	"fmt"
	"time"

	"github.com/dpbandits/dpbandits/dpb/internal/perf"
)

// BestRate times run at a growing n and returns the best count per
// nanosecond; here the count of a loop of additions. Timing is not asserted
// (it depends on the host), so this example has no Output.
func ExampleBestRate() {
	rate := perf.BestRate(5*time.Millisecond, func(n int) float64 {
		s := 0.0
		for i := range n {
			s += float64(i)
		}
		_ = s
		return float64(n)
	})
	fmt.Printf("%.1f additions a nanosecond\n", rate)
}
