//go:build amd64 && !purego

package simd

//go:generate go run -C _asm ./prepare4 -out ../prepare4_amd64.s

// Prep4AVX2 selects CholInv4AVX2 for PrepareLockstep (tests switch it).
var Prep4AVX2 = HasAVX2FMA()

// CholInv4AVX2 prepares four policies' factors in vector lanes
// (prepare4_amd64.s): lanes holds &v, &u, &mt, &zp of each; bit b of bad
// flags lane b's V_t as not positive definite.
//
//go:noescape
func CholInv4AVX2(lanes *[16]*float64, s []float64, d, dp int) (bad int)

// CholInvLanes prepares four policies' factors in the lanes of
// CholInv4AVX2 (of CholInv5x4AVX2 at d = 5, dp = 8): lanes holds &v, &u, &mt,
// &zp of each, s is the scratch; bit b of bad flags lane b's V_t as not
// positive definite. Only when Prep4AVX2 is set.
func CholInvLanes(lanes *[16]*float64, s []float64, d, dp int) (bad int) {
	if d == 5 && dp == 8 {
		return CholInv5x4AVX2(lanes, (*[Prep5x4Scratch]float64)(s[:Prep5x4Scratch]))
	}
	return CholInv4AVX2(lanes, s[:2*d*d*4+2*d*4], d, dp)
}
