//go:build amd64 && !purego

package simd

import (
	"github.com/dpbandits/dpbandits/dpb/internal/linalg"
)

// cholAVX512 selects cholPanelsAVX512 for cholesky from d = cholPanelsFrom
// on (tests switch it).
var cholAVX512 = HasAVX2FMA() && HasAVX512() && HasBMI12()

// Cholesky is linalg.Cholesky(a, d) with the same bits (the lower triangle
// of a becomes L, the upper one is left as it is, and false means not
// positive definite with a partly overwritten), through cholPanelsAVX512 on
// AVX-512 CPUs for d >= cholPanelsFrom when c, its scratch, holds
// CholScratchLen(d) floats (the portable loop otherwise).
func Cholesky(a, c []float64, d int) bool {
	if cholAVX512 && d >= cholPanelsFrom && len(c) >= CholScratchLen(d) {
		return cholPanels(a, c, d)
	}
	return linalg.Cholesky(a, d)
}

// cholPanelsFrom is the smallest d cholesky hands to cholPanelsAVX512 (when
// its scratch is long enough): below it the scalar loop's four chains are as
// fast. The factorisation alone (BenchmarkCholeskyKernels; Intel Xeon family
// 6 model 207), linalg.Cholesky against the panels, their copies included:
// D = 8 163 against 223 ns, d = 12 440 against 440, d = 16 530–630 against
// 452, d = 24 1.6 against 0.79 µs, d = 32 2.6 against 1.3, d = 64 16 against
// 5.6 µs (the right-looking AVX-512 kernel it replaces: 1.07, 2.1 and 10.3 µs
// at d = 24, 32, 64). (LinUCB factors d ≤ cholInvMaxDim with CholeskyCols.)
const cholPanelsFrom = 16

// CholScratchLen is the scratch cholesky needs to take the panel kernel at
// dimension d: d inverses and the lower triangle column-major, s×s with s =
// CholStride(d).
func CholScratchLen(d int) int {
	s := CholStride(d)
	return d + s*s
}

// CholStride is the column stride of the panel kernel's copy: d rounded up
// to 8, a whole number of vectors a column.
func CholStride(d int) int { return (d + 7) &^ 7 }

// cholPanelsAVX512 is linalg.Cholesky in panels of eight columns on a
// column-major copy of the lower triangle (chol_amd64.s).
//
//go:noescape
func cholPanelsAVX512(lt, c *float64, s, d int) (ok bool)

// cholPackAVX512 copies the lower triangle of a into lt column-major,
// zero-padded to s rows and columns (chol_amd64.s).
//
//go:noescape
func cholPackAVX512(a, lt *float64, d, s int)

// cholUnpackAVX512 copies the lower triangle back from lt into a.
//
//go:noescape
func cholUnpackAVX512(a, lt *float64, d, s int)

// CholLT returns the column-major copy in c that cholPanels factors, and
// its column stride, when cholesky takes the panel kernel at dimension d
// with scratch c (ok false otherwise): a caller that can write V's lower
// triangle there directly (the tree regularizers' statsLT) skips the
// row-major V and cholPackAVX512.
func CholLT(c []float64, d int) (lt []float64, s int, ok bool) {
	if !cholAVX512 || d < cholPanelsFrom || len(c) < CholScratchLen(d) {
		return nil, 0, false
	}
	s = CholStride(d)
	return c[d : d+s*s], s, true
}

// CholFromLT is cholPanels after the copy into lt: the factor of the
// matrix CholLT's lt holds (cholPackAVX512's layout, zeros included), its
// lower triangle written into a.
func CholFromLT(a, c []float64, d int) bool {
	s := CholStride(d)
	inv, lt := c[:d], c[d:d+s*s]
	_ = a[d*d-1]
	if !cholPanelsAVX512(&lt[0], &inv[0], s, d) {
		return false
	}
	cholUnpackAVX512(&a[0], &lt[0], d, s)
	return true
}

// cholPanels is cholesky through cholPanelsAVX512: the lower triangle of a
// copied column-major into c[d:], factored there, and copied back.
func cholPanels(a, c []float64, d int) bool {
	s := CholStride(d)
	lt := c[d : d+s*s]
	_ = a[d*d-1]
	cholPackAVX512(&a[0], &lt[0], d, s)
	return CholFromLT(a, c, d)
}
