//go:build amd64 && !purego

package dpb

import (
	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// useAVX2 is true when the CPU and OS support AVX2 and FMA.
var useAVX2 = hasAVX2FMA()

// scoreBlocks writes scores[k] = ⟨z, M x_k⟩ + β‖M x_k‖ for the first
// 4·nblk actions of x (each d floats, contiguous).
func scoreBlocks(mt []float64, dp int, zp []float64, d int, x []float64, nblk int, beta float64, scores []float64) {
	if nblk == 0 {
		return
	}
	if len(mt) < dp*dp || len(zp) < dp || len(x) < 4*nblk*d || len(scores) < 4*nblk || d > dp {
		panic(param.BadDim)
	}
	if useAVX2 {
		scoreBlocksAVX2(&mt[0], dp, &zp[0], d, &x[0], nblk, beta, &scores[0])
		return
	}
	scoreBlocksGo(mt, dp, zp, d, x, nblk, beta, scores)
}

// scoreBlocksAVX2 is scoreBlocksGo in AVX2/FMA assembly (kernel_amd64.s).
//
//go:noescape
func scoreBlocksAVX2(mt *float64, dp int, zp *float64, d int, x *float64, nblk int, beta float64, scores *float64)

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
func xgetbv() (eax, edx uint32)

func hasAVX2FMA() bool {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const fma, osxsave, avx = 1 << 12, 1 << 27, 1 << 28
	if ecx1&fma == 0 || ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 { // XMM and YMM state enabled by the OS
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0 // AVX2
}

// kernelName reports the scoring kernel in use.
func kernelName() string {
	if useAVX2 {
		return "avx2"
	}
	return "go"
}
