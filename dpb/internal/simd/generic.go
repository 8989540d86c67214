//go:build !amd64 || purego

// The portable stand-ins of the assembly kernels: on CPUs other than amd64,
// and in the purego build, every kernel is its Go reference.

package simd

import (
	"runtime"

	"github.com/dpbandits/dpbandits/dpb/internal/linalg"
)

// argmax

// ArgmaxAVX is false: this build has only the Go loop.
const ArgmaxAVX = false

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
func CholFromLT(a, c []float64, d int) bool { panic("dpb: cholFromLT without the panel kernel") }

// choose4

// LockPolicy is one policy's part of a lockstep choice (choose4_amd64.go).
type LockPolicy struct {
	D, Dp          int
	Mt, Zp, Scores []float64
	Beta           float64
}

// ChooseLockstep reports false: this build scores each policy on its own.
func ChooseLockstep(ps []LockPolicy, x []float64, k, d int, pad []float64, arms []int) bool {
	return false
}

// invrow

// InvRowAVX is false: this build has only the Go loop.
const InvRowAVX = false

// InvRow is InvRowGo.
func InvRow(li, mt []float64, dp, i int, mii float64) { InvRowGo(li, mt, dp, i, mii) }

// inverseFactorLanes reports that no vector-lanes path exists here (see
// the amd64 version).
func inverseFactorLanes(mt, zp, l, u, diag []float64, d, dp int) bool { return false }

// kernel

// kernelsAvailable lists the scoring kernels of this build: the Go loop.
func kernelsAvailable() []KernelID { return []KernelID{kernelGo} }

// KernelsRunnable is kernelsAvailable: this build has no variants.
func KernelsRunnable() []KernelID { return kernelsAvailable() }

// ScoreBlocksWith writes scores[k] = ⟨z, M x_k⟩ + β‖M x_k‖ for the first
// 4·nblk actions of x (each d floats, contiguous).
func ScoreBlocksWith(_ KernelID, mt []float64, dp int, zp []float64, d int, x []float64, nblk int, beta float64, scores []float64) {
	ScoreBlocksGo(mt, dp, zp, d, x, nblk, beta, scores)
}

// normalise

// NormAVX512 is false: this build has only the Go loop.
const NormAVX512 = false

// NormaliseBlocks is NormaliseBlocksGo.
func NormaliseBlocks(acts, theta, means []float64, d int) {
	NormaliseBlocksGo(acts, theta, means, d)
}

// packed

// PackOuterFast reports false: this build has only PackOuterLoop.
func PackOuterFast(dst, z []float64) bool { return false }

// peak

const (
	FmaPeak256Flops = 0
	FmaPeak512Flops = 0
)

func FmaPeak256(int)  {}
func FmaPeak512(int)  {}
func HasFMA256() bool { return false }
func HasFMA512() bool { return false }

// CpuModel returns GOARCH: this build reads no CPU identification.
func CpuModel() string { return runtime.GOARCH }

// prepare4

// Prep4AVX2 is false: this build prepares policies one at a time.
var Prep4AVX2 = false

// CholInvLanes is never called in this build (Prep4AVX2 is false).
func CholInvLanes(lanes *[16]*float64, s []float64, d, dp int) (bad int) {
	panic("dpb: cholInvLanes without AVX2")
}

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

// zig

// ZigAVX512 is false: this build has only the Go loop.
const ZigAVX512 = false

// ZigFast is ZigFastGo.
func ZigFast(dst []float64, s uint64) (n int, next, u uint64) { return ZigFastGo(dst, s) }
