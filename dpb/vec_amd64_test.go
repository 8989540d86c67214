//go:build amd64 && !purego

package dpb

import (
	"math"
	"testing"
)

// TestVecSameBits compares vecAdd, vecAdd3 and vecMul on AVX-512 with the Go loops
// for every length 0…40 (whole passes and every masked tail), with dst
// aliasing an input and not, on values of mixed sign and scale (so the
// order of the two additions matters), with guards after dst that a store
// past the end would overwrite. Deterministic: no false failures.
func TestVecSameBits(t *testing.T) {
	if !vecAVX512 {
		t.Skip("no AVX-512 on this CPU")
	}
	f := newFastRand(Stream(9, 1))
	draw := func(n int) []float64 {
		x := make([]float64, n+2)
		for i := range x {
			x[i] = math.Ldexp(f.norm(), f.intn(120)-60)
		}
		return x
	}
	for n := 0; n <= 40; n++ {
		for alias := range 2 {
			a, b, c := draw(n), draw(n), draw(n)
			want, got := make([]float64, n+2), make([]float64, n+2)
			copy(want, a)
			copy(got, a)
			dstW, dstG := make([]float64, n+2), make([]float64, n+2)
			if alias == 1 {
				dstW, dstG = want, got // dst is a
			}
			vecAddGo(dstW[:n], want[:n], b[:n])
			vecAdd(dstG[:n], got[:n], b[:n])
			if i := firstDiff(dstG, dstW); i >= 0 {
				t.Fatalf("vecAdd n=%d alias=%d: entry %d is %v, Go %v", n, alias, i, dstG[i], dstW[i])
			}
			vecAdd3Go(dstW[:n], want[:n], b[:n], c[:n])
			vecAdd3(dstG[:n], got[:n], b[:n], c[:n])
			if i := firstDiff(dstG, dstW); i >= 0 {
				t.Fatalf("vecAdd3 n=%d alias=%d: entry %d is %v, Go %v", n, alias, i, dstG[i], dstW[i])
			}
			vecMulGo(dstW[:n], want[:n], b[:n])
			vecMul(dstG[:n], got[:n], b[:n])
			if i := firstDiff(dstG, dstW); i >= 0 {
				t.Fatalf("vecMul n=%d alias=%d: entry %d is %v, Go %v", n, alias, i, dstG[i], dstW[i])
			}
		}
	}
}
