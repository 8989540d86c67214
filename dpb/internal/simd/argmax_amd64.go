//go:build amd64 && !purego

package simd

// ArgmaxAVX selects ArgmaxAVX512 for argmax (tests switch it).
var ArgmaxAVX = HasAVX2FMA() && HasAVX512()

// ArgmaxAVX512 is ArgmaxGo eight entries per pass (argmax_amd64.s).
//
//go:noescape
func ArgmaxAVX512(x []float64) int

// Argmax is ArgmaxGo, through the AVX-512 kernel when the CPU has it and x
// holds at least eight entries (the same index: TestArgmaxSame).
func Argmax(x []float64) int {
	if ArgmaxAVX && len(x) >= 8 {
		return ArgmaxAVX512(x)
	}
	return ArgmaxGo(x)
}
