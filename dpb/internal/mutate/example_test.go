package mutate_test

import (
	"fmt"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/internal/mutate"
)

// One catalogue entry, parsed and applied to a source text: the anchor, which
// must occur exactly once, is replaced by the defect. Run does this in a
// scratch copy of the repository for every selected defect and then runs the
// checks, the audit and the tests on it (minutes per defect), which an
// example cannot show.
func ExampleParse() {
	const catalogue = `
id:        laplace-x0.97
class:     privacy
category:  under-noise
file:      dpb/noise/noise.go
anchor:    e := b * rng.ExpFloat64()
replace:   e := 0.97 * b * rng.ExpFloat64()
desc:      every Laplace draw 3 % too small
`
	ds, err := mutate.Parse(strings.NewReader(catalogue))
	if err != nil {
		panic(err)
	}
	d := ds[0]
	fmt.Println(d.ID, d.Class, d.Category)
	src := "func draw(b float64) float64 {\n\te := b * rng.ExpFloat64()\n\treturn e\n}\n"
	out, err := mutate.Apply([]byte(src), d)
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	_, err = mutate.Apply([]byte("func draw() {}\n"), d)
	fmt.Println("a stale anchor is an error:", err != nil)
	// Output:
	// laplace-x0.97 privacy under-noise
	// func draw(b float64) float64 {
	// 	e := 0.97 * b * rng.ExpFloat64()
	// 	return e
	// }
	// a stale anchor is an error: true
}
