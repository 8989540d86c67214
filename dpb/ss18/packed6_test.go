package ss18

import (
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
)

// TestPacked6SameBits compares the written-out d = 5 moves with the loops
// they replace, bit for bit: PackOuter6To against PackOuterLoop, Unpack5
// against TreeRegularizer.unpackLoop, on entries that are ordinary, ±0,
// NaN, huge (products overflow) or tiny (products underflow).
func TestPacked6SameBits(t *testing.T) {
	rng := bandit.Stream(1, 15)
	draw := func() float64 { return testkit.AwkwardFloat(rng) }
	var z [6]float64
	var got, want [21]float64
	r := &TreeRegularizer{d: 5, buf: make([]float64, 21)}
	var v1, v2 [25]float64
	var u1, u2 [5]float64
	for rep := range 10000 {
		for i := range z {
			z[i] = draw()
		}
		simd.PackOuter6To(&got, &z)
		simd.PackOuterLoop(want[:], z[:])
		if p := testkit.FirstDiffNaN(got[:], want[:]); p >= 0 { // NaN as NaN: its payload bits may differ (-race)
			t.Fatalf("rep %d: packOuter6To entry %d is %v, the loop gives %v", rep, p, got[p], want[p])
		}
		for i := range r.buf {
			r.buf[i] = draw()
		}
		r.diag = draw()
		simd.Unpack5(&v1, &u1, (*[21]float64)(r.buf), r.diag)
		r.unpackLoop(v2[:], u2[:], false)
		if p := testkit.FirstDiffNaN(v1[:], v2[:]); p >= 0 {
			t.Fatalf("rep %d: unpack5 V entry %d is %v, the loop gives %v", rep, p, v1[p], v2[p])
		}
		if p := testkit.FirstDiffNaN(u1[:], u2[:]); p >= 0 {
			t.Fatalf("rep %d: unpack5 ũ entry %d is %v, the loop gives %v", rep, p, u1[p], u2[p])
		}
	}
}
