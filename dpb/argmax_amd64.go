//go:build amd64 && !purego

package dpb

// argmaxAVX selects argmaxAVX512 for argmax (tests switch it).
var argmaxAVX = hasAVX2FMA() && hasAVX512()

// argmaxAVX512 is argmaxGo eight entries per pass (argmax_amd64.s).
//
//go:noescape
func argmaxAVX512(x []float64) int

// argmax is argmaxGo, through the AVX-512 kernel when the CPU has it and x
// holds at least eight entries (the same index: TestArgmaxSame).
func argmax(x []float64) int {
	if argmaxAVX && len(x) >= 8 {
		return argmaxAVX512(x)
	}
	return argmaxGo(x)
}
