//go:build amd64 && !purego

package simd

//go:generate go run -C _asm ./zig -out ../zig_amd64.s

// The ziggurat's fast path, ZigFastGo, has an assembly version with the
// same words, operations and bits (TestZigFastSameBits): ZigFastScalar, one
// draw at a time with BMI2's MULX and BMI1's BEXTR. ZigScalar selects it in
// ZigFast (tests switch it). An eight-lane AVX-512 version with the layer
// tables read by gathers was slower than it end to end on AMD EPYC Zen 5
// (family 26) and on Zen 4, and was retired (docs/performance.md).
var ZigScalar = HasAVX2FMA() && HasBMI12()

// zigKLo[i] = zigK[i] − 1 and zigKSpan[i] = 2·zigK[i] − 1 (0 when zigK[i] =
// 0) put ZigFastScalar's test in one add and one unsigned compare: for an
// integer j and K ≥ 1, |j| < K exactly when 0 ≤ j + K − 1 < 2K − 1, and a
// negative j + K − 1 is a huge unsigned value; for K = 0 nothing is below 0.
var zigKLo, zigKSpan [ZigN]uint64

func init() {
	for i, k := range ZigK {
		zigKLo[i] = uint64(int64(k) - 1)
		if k > 0 {
			zigKSpan[i] = 2*uint64(k) - 1
		}
	}
}

// ZigFastScalar is ZigFastGo in assembly (zig_amd64.s).
//
//go:noescape
func ZigFastScalar(dst []float64, s uint64) (n int, next, u uint64)

// ZigFast is ZigFastGo, through the scalar kernel when it is selected.
func ZigFast(dst []float64, s uint64) (n int, next, u uint64) {
	if ZigScalar {
		return ZigFastScalar(dst, s)
	}
	return ZigFastGo(dst, s)
}
