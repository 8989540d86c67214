//go:build amd64 && !purego

package simd_test

import (
	"testing"

	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/internal/testutil"
)

// TestNormaliseBlocksSameBits compares the AVX-512 normalisation kernels with
// the Go loop they replace, for d = 1…8 (components permuted into lanes) and
// 9…70 (one vector per lane, every d mod 8) and K = 0…70 (whole passes of 8
// and 32 vectors and tails), on normal draws, on vectors scaled by
// 2^±520 (so that s over- or underflows) and on zero vectors (NaN means and
// components): the same bits in every component and mean. Deterministic: no
// false failures. Then again as on a CPU without BMI2. Skipped on CPUs
// without AVX-512.
func TestNormaliseBlocksSameBits(t *testing.T) {
	if !simd.NormAVX512 {
		t.Skip("no AVX-512 on this CPU")
	}
	defer func(l bool) { simd.NormLanes = l }(simd.NormLanes)
	for _, lanes := range []bool{simd.NormLanes, false} {
		// Without BMI2: no lanes kernel.
		simd.NormLanes = lanes
		testutil.NormaliseCases(3, 70, 70, 2, func(d, k int, scale float64, a, theta []float64) {
			b := append([]float64(nil), a...)
			ma, mb := make([]float64, k), make([]float64, k)
			simd.NormaliseBlocks(a, theta, ma, d)
			simd.NormaliseBlocksGo(b, theta, mb, d)
			if i := testkit.FirstDiff(a, b); i >= 0 {
				t.Fatalf("BMI2 %v, d %d, K %d, scale %g: component %d is %v (AVX-512), %v (Go)", lanes, d, k, scale, i, a[i], b[i])
			}
			if i := testkit.FirstDiff(ma, mb); i >= 0 {
				t.Fatalf("BMI2 %v, d %d, K %d, scale %g: mean %d is %v (AVX-512), %v (Go)", lanes, d, k, scale, i, ma[i], mb[i])
			}
		})
	}
}
