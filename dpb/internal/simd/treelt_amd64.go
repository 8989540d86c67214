//go:build amd64 && !purego

package simd

import (
	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// treeLTAVX512 is TreeRegularizer.statsLT's copy from a TreeSum's parts in
// one pass (treelt_amd64.s); b may be nil (the plain release's a + c).
//
//go:noescape
func treeLTAVX512(lt *float64, s int, a, b, c *float64, d int, shift float64, u *float64)

// TreeLTOK selects treeLTAVX512 (tests switch it).
var TreeLTOK = HasAVX2FMA() && HasAVX512() && HasBMI12()

// TreeLT writes statsLT's lt and u from the release's parts (a + b) + c (a +
// c when b is nil), each PackedLen(d+1) long, with the shift on V's
// diagonal, and reports whether it did (on AVX-512 CPUs with BMI2). At
// D = 64 SumTo and the copy took ≈ 2.4 µs of the (64, 4096) step.
func TreeLT(lt []float64, s int, a, b, c []float64, d int, shift float64, u []float64) bool {
	if !TreeLTOK {
		return false
	}
	m := PackedLen(d + 1)
	if s < d || s%8 != 0 || len(lt) < s*s || len(a) != m || len(c) != m || (b != nil && len(b) != m) || len(u) < d {
		panic(param.BadDim)
	}
	var bp *float64
	if b != nil {
		bp = &b[0]
	}
	treeLTAVX512(&lt[0], s, &a[0], bp, &c[0], d, shift, &u[0])
	return true
}
