package simd

import (
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
)

// TestUnrolled5SameBits compares zFromFactor5 and quadOne5 with the loops
// they write out, bit for bit, on entries that are ordinary, ±0, NaN, huge
// (products overflow) or tiny (products underflow). A NaN matches any NaN:
// which operand's payload an addition keeps is the compiler's choice of
// operand order, in the loops as in the written-out code.
func TestUnrolled5SameBits(t *testing.T) {
	rng := bandit.Stream(1, 16)
	draw := func() float64 { return testkit.AwkwardFloat(rng) }
	var mt [64]float64
	var u, x, z1, z2 [5]float64
	z2full := make([]float64, 8)
	for rep := range 10000 {
		for i := range mt {
			mt[i] = draw()
		}
		for i := range u {
			u[i], x[i] = draw(), draw()
		}
		zFromFactor5(&z1, (*[37]float64)(mt[:37]), &u)
		ZFromFactorLoop(z2full, mt[:], u[:], 5, 8)
		copy(z2[:], z2full)
		if p := testkit.FirstDiffNaN(z1[:], z2[:]); p >= 0 {
			t.Fatalf("rep %d: zFromFactor5 entry %d is %v, the loop gives %v", rep, p, z1[p], z2[p])
		}
		q1, s1 := quadOne5((*[37]float64)(mt[:37]), &z1, &x)
		q2, s2 := quadOneLoop(mt[:], 8, z1[:], 5, x[:])
		if p := testkit.FirstDiffNaN([]float64{q1, s1}, []float64{q2, s2}); p >= 0 {
			t.Fatalf("rep %d: quadOne5 gives (%v, %v), the loop (%v, %v)", rep, q1, s1, q2, s2)
		}
	}
}
