// Package nb holds the few helpers every GoNB notebook of this project uses,
// so that notebooks stay thin: a notebook cell stops on the first error by
// panicking, which the notebook checker (.ci/notebooks) reports as a failure.
package nb

import (
	"fmt"
	"math"
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

// T is the part of *testing.T that [Answer] uses (a GoNB %test cell passes
// its *testing.T).
type T interface {
	Helper()
	Logf(format string, args ...any)
	Errorf(format string, args ...any)
}

// Answer checks a notebook exercise: the reader's answer passes when it is
// within relTol·|measured| of the value the notebook measured, and otherwise
// fails t with both values, so that a %test cell prints "--- FAIL" (which
// the notebook checkers report). what names the exercise.
func Answer(t T, what string, answer, measured, relTol float64) bool {
	t.Helper()
	tol := relTol * math.Abs(measured)
	if math.Abs(answer-measured) <= tol && !math.IsNaN(answer) {
		t.Logf("right: %s — your answer %.4g, measured %.4g (tolerance ±%.2g)", what, answer, measured, tol)
		return true
	}
	t.Errorf("not yet: %s — your answer %.4g, measured %.4g (tolerance ±%.2g)", what, answer, measured, tol)
	return false
}
