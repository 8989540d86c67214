package simd

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// KernelID names one implementation of the LinUCB scoring kernel
// (linucb_kernel.go). All of them compute the same bits (one summation
// order); they differ only in speed.
type KernelID int32

const (
	kernelGo     KernelID = iota // the portable Go loop (math.FMA)
	kernelAVX2                   // AVX2/FMA assembly, eight actions per pass
	kernelAVX512                 // AVX-512 assembly, sixteen (or eight) actions × eight rows per pass
)

var kernelNames = [...]string{kernelGo: "go", kernelAVX2: "avx2", kernelAVX512: "avx512"}

func (k KernelID) String() string { return kernelNames[k] }

// KernelInUse is the kernel ScoreBlocks calls: the fastest available unless
// SetKernel chose another.
var KernelInUse atomic.Int32

func init() { KernelInUse.Store(int32(kernelsAvailable()[0])) }

// ScoreBlocks writes scores[k] = ⟨z, M x_k⟩ + β‖M x_k‖ for the first
// 4·nblk actions of x (each d floats, contiguous) with the kernel in use.
func ScoreBlocks(mt []float64, dp int, zp []float64, d int, x []float64, nblk int, beta float64, scores []float64) {
	ScoreBlocksWith(KernelID(KernelInUse.Load()), mt, dp, zp, d, x, nblk, beta, scores)
}

// Kernel returns the name of the LinUCB scoring kernel in use: "avx512",
// "avx2" or "go".
func Kernel() string { return KernelID(KernelInUse.Load()).String() }

// Kernels returns the names of the scoring kernels this CPU supports, the
// default (fastest) first.
func Kernels() []string {
	var names []string
	for _, k := range kernelsAvailable() {
		names = append(names, k.String())
	}
	return names
}

// SetKernel selects the LinUCB scoring kernel by name (one of Kernels()).
// Every kernel computes the same bits, so the choice changes speed only; it
// is meant for benchmarks and must not be called while policies are running
// on other goroutines.
func SetKernel(name string) error {
	for _, k := range kernelsAvailable() {
		if k.String() == name {
			KernelInUse.Store(int32(k))
			return nil
		}
	}
	return fmt.Errorf("simd: kernel is %q, must be one of %s on this CPU", name, strings.Join(Kernels(), ", "))
}
