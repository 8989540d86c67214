//go:build amd64 && !purego

package dpb

import (
	"math"
	"testing"
)

// TestNormaliseBlocksSameBits compares the AVX-512 normalisation kernel with
// the Go loop it replaces, for d = 1…8 (and 9, which stays in Go) and
// K = 0…41 (whole passes and tails), on normal draws, on vectors scaled by
// 2^±520 (so that s over- or underflows) and on zero vectors (NaN means and
// components): the same bits in every component and mean. Deterministic: no
// false failures. Skipped on CPUs without AVX-512.
func TestNormaliseBlocksSameBits(t *testing.T) {
	if !normAVX512 {
		t.Skip("no AVX-512 on this CPU")
	}
	f := newFastRand(Stream(3, 503))
	for d := 1; d <= 9; d++ {
		theta := make([]float64, d)
		f.normalsTo(theta)
		for k := 0; k <= 41; k++ {
			for _, scale := range []float64{1, 0x1p520, 0x1p-520, 0} {
				a := make([]float64, k*d)
				f.normalsTo(a)
				for i := range a {
					a[i] *= scale
				}
				if k > 3 {
					clear(a[2*d : 3*d]) // one zero vector in every set
				}
				b := append([]float64(nil), a...)
				ma, mb := make([]float64, k), make([]float64, k)
				normaliseBlocks(a, theta, ma, d)
				normaliseBlocksGo(b, theta, mb, d)
				for i := range a {
					if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
						t.Fatalf("d %d, K %d, scale %g: component %d is %v (AVX-512), %v (Go)", d, k, scale, i, a[i], b[i])
					}
				}
				for i := range ma {
					if math.Float64bits(ma[i]) != math.Float64bits(mb[i]) {
						t.Fatalf("d %d, K %d, scale %g: mean %d is %v (AVX-512), %v (Go)", d, k, scale, i, ma[i], mb[i])
					}
				}
			}
		}
	}
}
