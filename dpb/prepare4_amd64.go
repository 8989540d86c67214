//go:build amd64 && !purego

package dpb

// prep4AVX2 selects cholInv4AVX2 for PrepareLockstep (tests switch it).
var prep4AVX2 = hasAVX2FMA()

// cholInv4AVX2 prepares four policies' factors in vector lanes
// (prepare4_amd64.s): lanes holds &v, &u, &mt, &zp of each; bit b of bad
// flags lane b's V_t as not positive definite.
//
//go:noescape
func cholInv4AVX2(lanes *[16]*float64, s []float64, d, dp int) (bad int)

// cholInv5x4AVX2 is cholInv4AVX2 at d = 5, dp = 8, written out
// (prepare5x4_amd64.s, from internal/asmgen/prepare5x4.py): prepareFactors5
// in the four lanes.
//
//go:noescape
func cholInv5x4AVX2(lanes *[16]*float64, s *[prep5x4Scratch]float64) (bad int)

// prep5x4Scratch is cholInv5x4AVX2's scratch: 35 slots of four lanes (V's
// and M's lower triangles, ũ).
const prep5x4Scratch = 140

// cholInvLanes prepares four policies' factors in the lanes of
// cholInv4AVX2 (of cholInv5x4AVX2 at d = 5, dp = 8): lanes holds &v, &u, &mt,
// &zp of each, s is the scratch; bit b of bad flags lane b's V_t as not
// positive definite. Only when prep4AVX2 is set.
func cholInvLanes(lanes *[16]*float64, s []float64, d, dp int) (bad int) {
	if d == 5 && dp == 8 {
		return cholInv5x4AVX2(lanes, (*[prep5x4Scratch]float64)(s[:prep5x4Scratch]))
	}
	return cholInv4AVX2(lanes, s[:2*d*d*4+2*d*4], d, dp)
}
