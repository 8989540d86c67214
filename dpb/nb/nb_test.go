package nb

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestFloats(t *testing.T) {
	if got := Floats(" 0.1, 1,1e1"); !slices.Equal(got, []float64{0.1, 1, 10}) {
		t.Errorf("Floats = %v", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("Floats(\"1,x\") did not panic")
		}
	}()
	Floats("1,x")
}

func TestMustCheck(t *testing.T) {
	if Must(3, nil) != 3 {
		t.Error("Must(3, nil) != 3")
	}
	for _, f := range []func(){func() { Must(0, errors.New("e")) }, func() { Check(errors.New("e")) }} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic on an error")
				}
			}()
			f()
		}()
	}
	Check(nil)
}

type recorder struct{ logs, errs []string }

func (r *recorder) Helper()                   {}
func (r *recorder) Logf(f string, a ...any)   { r.logs = append(r.logs, fmt.Sprintf(f, a...)) }
func (r *recorder) Errorf(f string, a ...any) { r.errs = append(r.errs, fmt.Sprintf(f, a...)) }

func TestAnswer(t *testing.T) {
	for _, c := range []struct {
		answer, measured, tol float64
		ok                    bool
	}{
		{11, 11.2, 0.15, true},
		{1, 11.2, 0.15, false},
		{-11.2, 11.2, 0.15, false},
		{math.NaN(), 11.2, 0.15, false},
		{0, 0, 0, true},
	} {
		r := &recorder{}
		if got := Answer(r, "x", c.answer, c.measured, c.tol); got != c.ok || (len(r.errs) == 0) != c.ok {
			t.Errorf("Answer(%v, %v, %v) = %v with errors %q, want %v", c.answer, c.measured, c.tol, got, r.errs, c.ok)
		}
	}
}

func TestAgree(t *testing.T) {
	gen := func(d Draw) int { return d.Int(1, 1000) }
	square := func(x int) int { return x * x }
	r := &recorder{}
	if !Agree(r, "square", 50, gen, square, square, Same[int]) || len(r.errs) != 0 {
		t.Errorf("a right function fails: %q", r.errs)
	}
	// Controls: a wrong function, a stub that panics, and a function right
	// on small inputs only must each fail, naming the input.
	for name, got := range map[string]func(int) int{
		"wrong": func(x int) int { return 2 * x },
		"stub":  func(int) int { panic("exercise: write this") },
		"small": func(x int) int {
			if x > 900 {
				return 0
			}
			return x * x
		},
	} {
		r := &recorder{}
		if Agree(r, "square", 200, gen, got, square, Same[int]) || len(r.errs) != 1 || !strings.Contains(r.errs[0], "on input") {
			t.Errorf("%s: Agree passed or did not name the input: %q", name, r.errs)
		}
	}
	// The inputs are the same on every run.
	var a, b []int
	Agree(&recorder{}, "x", 5, func(d Draw) int { v := d.Int(0, 1<<30); a = append(a, v); return v }, square, square, Same[int])
	Agree(&recorder{}, "x", 5, func(d Draw) int { v := d.Int(0, 1<<30); b = append(b, v); return v }, square, square, Same[int])
	if !slices.Equal(a, b) {
		t.Errorf("inputs differ between runs: %v, %v", a, b)
	}
}

func TestNear(t *testing.T) {
	n := Near(1e-6)
	for _, c := range []struct {
		a, b float64
		ok   bool
	}{{1, 1 + 1e-7, true}, {1, 1.001, false}, {math.Inf(1), math.Inf(1), true}, {math.NaN(), math.NaN(), false}, {0, 1e-300, false}} {
		if n(c.a, c.b) != c.ok {
			t.Errorf("Near(1e-6)(%v, %v) = %v", c.a, c.b, !c.ok)
		}
	}
	na := NearAll(1e-6)
	if !na([]float64{1, 0}, []float64{1, 1e-9}) || na([]float64{1}, []float64{1, 0}) || na([]float64{1, 0.1}, []float64{1, 0}) {
		t.Error("NearAll")
	}
	if !SameAll([]int{1, 2}, []int{1, 2}) || SameAll([]int{1}, []int{2}) {
		t.Error("SameAll")
	}
}
