//go:build amd64 && !purego

package dpb

import "testing"

// TestNormaliseBlocksSameBits compares the AVX-512 normalisation kernels with
// the Go loop they replace, for d = 1…8 (components permuted into lanes) and
// 9…70 (one vector per lane, every d mod 8) and K = 0…70 (whole passes of 8
// and 32 vectors and tails), on normal draws, on vectors scaled by
// 2^±520 (so that s over- or underflows) and on zero vectors (NaN means and
// components): the same bits in every component and mean. Deterministic: no
// false failures. Then again as on a CPU without BMI2. Skipped on CPUs
// without AVX-512.
func TestNormaliseBlocksSameBits(t *testing.T) {
	if !normAVX512 {
		t.Skip("no AVX-512 on this CPU")
	}
	defer func(l bool) { normLanes = l }(normLanes)
	for _, lanes := range []bool{normLanes, false} {
		// Without BMI2: no lanes kernel, and the eight-vector kernel's
		// partial pass left to the Go loop.
		normLanes = lanes
		normaliseCases(3, 70, 70, 2, func(d, k int, scale float64, a, theta []float64) {
			b := append([]float64(nil), a...)
			ma, mb := make([]float64, k), make([]float64, k)
			normaliseBlocks(a, theta, ma, d)
			normaliseBlocksGo(b, theta, mb, d)
			if i := firstDiff(a, b); i >= 0 {
				t.Fatalf("BMI2 %v, d %d, K %d, scale %g: component %d is %v (AVX-512), %v (Go)", lanes, d, k, scale, i, a[i], b[i])
			}
			if i := firstDiff(ma, mb); i >= 0 {
				t.Fatalf("BMI2 %v, d %d, K %d, scale %g: mean %d is %v (AVX-512), %v (Go)", lanes, d, k, scale, i, ma[i], mb[i])
			}
		})
	}
}
