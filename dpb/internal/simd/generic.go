//go:build !amd64 || purego

// The portable stand-ins of the assembly kernels: on CPUs other than amd64,
// and in the purego build, every kernel is its Go reference.

package simd

import "runtime"

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
	panic("simd: cholInvLanes without AVX2")
}

// zig

// ZigFast is ZigFastGo.
func ZigFast(dst []float64, s uint64) (n int, next, u uint64) { return ZigFastGo(dst, s) }
