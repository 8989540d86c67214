// The kernels that run their Go reference on every CPU: their assembly
// versions gave less than 5 % on the (5, 25), (16, 256) and (64, 4096)
// Gaussian rounds and on SS18 Fig. 4's job-round (docs/performance.md), so
// only these portable forms remain, under the names the callers use.

package simd

import "github.com/dpbandits/dpbandits/dpb/internal/linalg"

// argmax

// Argmax is ArgmaxGo.
func Argmax(x []float64) int { return ArgmaxGo(x) }

// bartlett

// BartlettColLen is 0: without the AVX-512 Bartlett kernel no copy of A is
// made.
func BartlettColLen(int) int { return 0 }

// BartlettLanesTo reports false: the product is BartlettProductTo's loop.
func BartlettLanesTo(dst, off, diag, col []float64, s float64) bool { return false }

// chol

// Cholesky is linalg.Cholesky(a, d); c (scratch for the AVX-512 version)
// is not used.
func Cholesky(a, c []float64, d int) bool { return linalg.Cholesky(a, d) }

// CholScratchLen is d: the portable loop needs no scratch.
func CholScratchLen(d int) int { return d }

// CholLT reports ok false: the portable loop works on the row-major copy.
func CholLT(c []float64, d int) (lt []float64, s int, ok bool) { return nil, 0, false }

// CholFromLT is never called (CholLT is never ok).
func CholFromLT(a, c []float64, d int) bool { panic("simd: cholFromLT without the panel kernel") }

// invrow

// InvRow is InvRowGo.
func InvRow(li, mt []float64, dp, i int, mii float64) { InvRowGo(li, mt, dp, i, mii) }

// inverseFactorLanes reports that no vector-lanes path exists here (see
// the amd64 version).
func inverseFactorLanes(mt, zp, l, u, diag []float64, d, dp int) bool { return false }

// packed

// PackOuterFast reports false: this build has only PackOuterLoop.
func PackOuterFast(dst, z []float64) bool { return false }

// symlower

// SymLowerLanes is false: the tree regularizer's unpacking stores each entry
// twice in one pass.
const SymLowerLanes = false

// SymLowerFrom is where the unpacking would mirror the lower triangle with
// AVX-512 (symlower_amd64.go).
const SymLowerFrom = 16

// SymLower sets v[i·d+j] = v[j·d+i] for j < i (d×d row-major v): the lower
// triangle from the upper.
func SymLower(v []float64, d int) { symLowerRows(v, d, 1) }

// treelt

// TreeLT reports false: this build writes lt through SumTo and the loop.
func TreeLT(lt []float64, s int, a, b, c []float64, d int, shift float64, u []float64) bool {
	return false
}

// vec

func VecAddTo(dst, a, b []float64)     { VecAddGo(dst, a, b) }
func VecAdd3To(dst, a, b, c []float64) { VecAdd3Go(dst, a, b, c) }
func vecMulTo(dst, a, b []float64)     { VecMulGo(dst, a, b) }
