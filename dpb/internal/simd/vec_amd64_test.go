//go:build amd64 && !purego

package simd_test

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// TestVecSameBits compares VecAdd, VecAdd3 and VecMul on AVX-512 with the Go loops
// for every length 0…40 (whole passes and every masked tail), with dst
// aliasing an input and not, on values of mixed sign and scale (so the
// order of the two additions matters), with guards after dst that a store
// past the end would overwrite. Deterministic: no false failures.
func TestVecSameBits(t *testing.T) {
	if !simd.VecAVX512 {
		t.Skip("no AVX-512 on this CPU")
	}
	f := noise.NewFastRand(bandit.Stream(9, 1))
	draw := func(n int) []float64 {
		x := make([]float64, n+2)
		for i := range x {
			x[i] = math.Ldexp(f.Norm(), f.Intn(120)-60)
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
			simd.VecAddGo(dstW[:n], want[:n], b[:n])
			simd.VecAdd(dstG[:n], got[:n], b[:n])
			if i := testkit.FirstDiff(dstG, dstW); i >= 0 {
				t.Fatalf("vecAdd n=%d alias=%d: entry %d is %v, Go %v", n, alias, i, dstG[i], dstW[i])
			}
			simd.VecAdd3Go(dstW[:n], want[:n], b[:n], c[:n])
			simd.VecAdd3(dstG[:n], got[:n], b[:n], c[:n])
			if i := testkit.FirstDiff(dstG, dstW); i >= 0 {
				t.Fatalf("vecAdd3 n=%d alias=%d: entry %d is %v, Go %v", n, alias, i, dstG[i], dstW[i])
			}
			simd.VecMulGo(dstW[:n], want[:n], b[:n])
			simd.VecMul(dstG[:n], got[:n], b[:n])
			if i := testkit.FirstDiff(dstG, dstW); i >= 0 {
				t.Fatalf("vecMul n=%d alias=%d: entry %d is %v, Go %v", n, alias, i, dstG[i], dstW[i])
			}
		}
	}
}
