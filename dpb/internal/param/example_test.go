package param_test

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// A constructor's parameter checks: nil for a valid value, else an error
// that names the value and what it must be.
func ExampleCheckEpsilon() {
	fmt.Println(param.CheckEpsilon(1))
	fmt.Println(param.CheckEpsilon(-1))
	fmt.Println(param.CheckEpsilon(math.Inf(1)))
	fmt.Println(param.CheckDelta(2))
	// Output:
	// <nil>
	// epsilon is -1, must be > 0 and finite
	// epsilon is +Inf, must be > 0 and finite
	// delta is 2, must be in (0, 1)
}
