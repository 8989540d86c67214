package counter

import (
	"math"
	"testing"
)

// sinPi agrees with math.Sin(πβ) within 2 ulps on [½, 1) (a series error
// would show at the 10⁻¹⁰ level).
func TestSinPi(t *testing.T) {
	for i := 0; i < 500; i++ {
		b := 0.5 + float64(i)/1000
		got, want := sinPi(b), math.Sin(math.Pi*b)
		if math.Abs(got-want) > 4e-16 {
			t.Errorf("sinPi(%v) = %v, math.Sin gives %v", b, got, want)
		}
	}
	if sinPi(0.5) != 1 {
		t.Errorf("sinPi(½) = %v", sinPi(0.5))
	}
}
