//go:build amd64 && !purego

package simd

//go:generate go run -C _asm ./prepare5x4 -out ../prepare5x4_amd64.s

// CholInv5x4AVX2 is CholInv4AVX2 at d = 5, dp = 8, written out
// (prepare5x4_amd64.s, by the avo program _asm/prepare5x4): PrepareFactors5
// in the four lanes.
//
//go:noescape
func CholInv5x4AVX2(lanes *[16]*float64, s *[Prep5x4Scratch]float64) (bad int)

// Prep5x4Scratch is CholInv5x4AVX2's scratch: 35 slots of four lanes (V's
// and M's lower triangles, ũ).
const Prep5x4Scratch = 140
