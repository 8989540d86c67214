package check_test

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/check"
)

// A proof check: each verdict counts the trials in which a "with
// probability ≥ 1−α" statement failed, compares the count with
// Bin(trials, α), and runs a planted defect beside it (its negative control),
// which the same threshold must reject for the verdict to count as a pass.
func ExampleChiSquareTails() {
	vs := check.ChiSquareTails(bandit.Stream(1, 0), 4, 0.05, 2000)
	for _, v := range vs {
		if v.Kind != "" {
			fmt.Printf("%s: %s (%s)\n", v.Name, v.Status(), v.Kind)
			continue
		}
		fmt.Printf("%s: %s, control caught %v\n", v.Name, v.Status(), v.ControlCaught != nil && *v.ControlCaught)
	}
	fmt.Println("all held:", vs.OK())
	// Output:
	// claim17-upper: PASS, control caught true
	// claim17-upper-printed: PASS (arithmetic)
	// claim17-lower: PASS, control caught true
	// claim17-lower-printed: PASS (arithmetic)
	// all held: true
}
