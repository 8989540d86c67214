//go:build amd64 && !purego

package simd

// packOuterAVX512 is PackOuterLoop for n > 0 entries of z (packed_amd64.s).
//
//go:noescape
func packOuterAVX512(dst, z *float64, n int)

// PackOuterFast runs PackOuterLoop through packOuterAVX512 on AVX-512 CPUs
// (VecAVX512) and reports whether it did. The round's outer product
// [x; y][x; y]ᵀ at d = 64 took ≈ 1.1 µs as a scalar loop (6 % of the
// (64, K) step's work besides the scoring).
func PackOuterFast(dst, z []float64) bool {
	if !VecAVX512 || len(z) == 0 {
		return false
	}
	_ = dst[PackedLen(len(z))-1]
	packOuterAVX512(&dst[0], &z[0], len(z))
	return true
}
