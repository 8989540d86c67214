package dpb

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPacked6SameBits compares the written-out d = 5 moves with the loops
// they replace, bit for bit: packOuter6To against packOuterLoop, unpack5
// against TreeRegularizer.unpackLoop, on entries that are ordinary, ±0,
// NaN, huge (products overflow) or tiny (products underflow).
func TestPacked6SameBits(t *testing.T) {
	rng := Stream(1, 15)
	draw := func() float64 { return awkwardFloat(rng) }
	var z [6]float64
	var got, want [21]float64
	r := &TreeRegularizer{d: 5, buf: make([]float64, 21)}
	var v1, v2 [25]float64
	var u1, u2 [5]float64
	for rep := range 10000 {
		for i := range z {
			z[i] = draw()
		}
		packOuter6To(&got, &z)
		packOuterLoop(want[:], z[:])
		if p := firstDiff(got[:], want[:]); p >= 0 {
			t.Fatalf("rep %d: packOuter6To entry %d is %v, the loop gives %v", rep, p, got[p], want[p])
		}
		for i := range r.buf {
			r.buf[i] = draw()
		}
		r.diag = draw()
		unpack5(&v1, &u1, (*[21]float64)(r.buf), r.diag)
		r.unpackLoop(v2[:], u2[:], false)
		if p := firstDiff(v1[:], v2[:]); p >= 0 {
			t.Fatalf("rep %d: unpack5 V entry %d is %v, the loop gives %v", rep, p, v1[p], v2[p])
		}
		if p := firstDiff(u1[:], u2[:]); p >= 0 {
			t.Fatalf("rep %d: unpack5 ũ entry %d is %v, the loop gives %v", rep, p, u1[p], u2[p])
		}
	}
}

// awkwardFloat draws a float64 that is −0, a NaN with a random payload, a
// normal scaled by 2^600 (its products overflow) or by 2^−600 (they
// underflow) one time in six each, and a standard normal otherwise.
func awkwardFloat(rng *rand.Rand) float64 {
	switch rng.IntN(6) {
	case 0:
		return math.Copysign(0, -1)
	case 1:
		return math.Float64frombits(0x7ff8_0000_0000_0000 | rng.Uint64()>>13)
	case 2:
		return math.Ldexp(rng.NormFloat64(), 600)
	case 3:
		return math.Ldexp(rng.NormFloat64(), -600)
	}
	return rng.NormFloat64()
}
