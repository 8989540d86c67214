package nb

import (
	"errors"
	"fmt"
	"math"
	"slices"
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
