// Package nb holds the few helpers every GoNB notebook of this project uses,
// so that notebooks stay thin: a notebook cell stops on the first error by
// panicking, which the notebook checker (.ci/notebooks) reports as a failure.
package nb

import (
	"fmt"
	"strconv"
	"strings"
)

// Must returns v, or panics with err: a notebook cell stops on the first error.
func Must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Check panics with err unless it is nil.
func Check(err error) {
	if err != nil {
		panic(err)
	}
}

// Floats parses a comma-separated list of numbers such as "0.1,1,10" (a
// notebook flag's value) and panics, naming the entry, on anything else.
func Floats(s string) []float64 {
	var v []float64
	for _, f := range strings.Split(s, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			panic(fmt.Errorf("nb: list %q: %w", s, err))
		}
		v = append(v, x)
	}
	return v
}
