package nb

import (
	"errors"
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
