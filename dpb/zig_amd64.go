//go:build amd64 && !purego

package dpb

// zigAVX512 selects zigFastAVX512 for zigFast (tests switch it).
var zigAVX512 = hasAVX2FMA() && hasAVX512()

// zigFastAVX512 is zigFastGo with eight draws per pass (zig_amd64.s).
//
//go:noescape
func zigFastAVX512(dst []float64, s uint64) (n int, next, u uint64)

// zigFast is zigFastGo, through the AVX-512 kernel when the CPU has it and
// dst holds at least 16 draws (the same bits: TestZigFastSameBits). Shorter
// runs stay in Go: a caller that reads a few draws back right away (the band
// sampler's redraws of d = 5 normals) waits for the kernel's vector stores,
// which a scalar load cannot take from the store buffer; with the threshold
// the (5, 25) Gaussian round is about 1.5 % faster than with none and than with
// 8 or 32 (AMD EPYC, interleaved runs; 8 also slows the Wishart round).
func zigFast(dst []float64, s uint64) (n int, next, u uint64) {
	if zigAVX512 && len(dst) >= 16 {
		return zigFastAVX512(dst, s)
	}
	return zigFastGo(dst, s)
}
