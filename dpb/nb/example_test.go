package nb_test

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/nb"
)

// printT is a stand-in for the *testing.T a GoNB %test cell passes.
type printT struct{}

func (printT) Helper()                           {}
func (printT) Logf(format string, args ...any)   { fmt.Printf("log: "+format+"\n", args...) }
func (printT) Errorf(format string, args ...any) { fmt.Printf("FAIL: "+format+"\n", args...) }

// A notebook exercise: the reader's function is compared with the library's
// on inputs drawn from a fixed seed, and a reader's numeric answer with the
// value the notebook measured.
func ExampleAgree() {
	want := func(x float64) float64 { return math.Log1p(x) }
	got := func(x float64) float64 { return math.Log(1 + x) } // the reader's version
	ok := nb.Agree(printT{}, "log1p", 100, func(d nb.Draw) float64 { return d.Uniform(0.5, 2) }, got, want, nb.Near(1e-12))
	fmt.Println("exercise passed:", ok)
	fmt.Println("answer passed:", nb.Answer(printT{}, "regret ratio", 2.1, 2.0, 0.1))
	fmt.Println("answer passed:", nb.Answer(printT{}, "regret ratio", 3, 2.0, 0.1))
	// Output:
	// log: right: log1p — agrees with the library on 100 random inputs
	// exercise passed: true
	// log: right: regret ratio — your answer 2.1, measured 2 (tolerance ±0.2)
	// answer passed: true
	// FAIL: not yet: regret ratio — your answer 3, measured 2 (tolerance ±0.2)
	// answer passed: false
}
