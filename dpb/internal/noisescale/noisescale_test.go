package noisescale

import "testing"

func TestFactor(t *testing.T) {
	if f, set := Factor(); set || f != 1 {
		t.Fatalf("default factor %v (set %v), want 1 unset", f, set)
	}
	x := []float64{1.5, -2}
	Apply(x)
	if x[0] != 1.5 || x[1] != -2 || Scale(3) != 3 {
		t.Fatalf("unset factor changed values: %v", x)
	}
	restore := Set(0)
	if f, set := Factor(); !set || f != 0 {
		t.Fatalf("factor %v (set %v), want 0 set", f, set)
	}
	Apply(x)
	if x[0] != 0 || x[1] != 0 || Scale(3) != 0 {
		t.Fatalf("factor 0: %v", x)
	}
	inner := Set(0.5)
	if Scale(4) != 2 {
		t.Fatal("factor 0.5")
	}
	inner()
	if f, _ := Factor(); f != 0 {
		t.Fatalf("restore gave %v, want 0", f)
	}
	restore()
	if _, set := Factor(); set {
		t.Fatal("restore did not unset the factor")
	}
	defer func() {
		if recover() == nil {
			t.Error("a negative factor did not panic")
		}
	}()
	Set(-1)
}
