//go:build amd64 && !purego

package dpb

// zigAVX512 selects zigFastAVX512 for zigFast (tests switch it).
var zigAVX512 = hasAVX2FMA() && hasAVX512()

// zigFastAVX512 is zigFastGo with eight draws per pass (zig_amd64.s).
//
//go:noescape
func zigFastAVX512(dst []float64, s uint64) (n int, next, u uint64)

// zigFast is zigFastGo, through the AVX-512 kernel when the CPU has it (the
// same bits: TestZigFastSameBits).
func zigFast(dst []float64, s uint64) (n int, next, u uint64) {
	if zigAVX512 {
		return zigFastAVX512(dst, s)
	}
	return zigFastGo(dst, s)
}
