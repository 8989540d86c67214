//go:build amd64 && !purego

package simd

// The ziggurat's fast path, ZigFastGo, has two assembly versions with the
// same words, operations and bits (TestZigFastSameBits): ZigFastScalar, one
// draw at a time with BMI2's MULX and BMI1's BEXTR, and ZigFastAVX512, eight
// lanes a pass with the layer tables read by gathers (its slow passes use
// BMI1 and BMI2 too).
//
// ZigScalar and ZigAVX512 select them in ZigFast (tests switch them). On AMD
// family 25 (Zen 4, zmmHalfWidth), whose eight-lane gathers are slow, the
// scalar kernel is the faster one at every length: NormalsTo of the 125
// draws of a (5, 25) decision set takes 273 ns with the gathers, 195 with
// the scalar kernel and 320 with the Go loop, of 1000 draws 2.15, 1.52 and
// 2.32 µs (BenchmarkZigKernel), so there ZigAVX512 is off. Other AVX-512
// CPUs keep the eight-lane kernel for runs of 16 draws or more: it was
// tuned on Zen 5, where the scalar kernel has not been measured.
var (
	ZigScalar = HasAVX2FMA() && HasBMI12()
	ZigAVX512 = HasAVX2FMA() && HasAVX512() && HasBMI12() && !zmmHalfWidth()
)

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

// ZigFastAVX512 is ZigFastGo with eight draws per pass (zig_amd64.s).
//
//go:noescape
func ZigFastAVX512(dst []float64, s uint64) (n int, next, u uint64)

// ZigFast is ZigFastGo, through the eight-lane kernel when it is selected and
// dst holds at least 16 draws, otherwise through the scalar one. Shorter runs
// stay scalar: a caller that reads a few draws back right away (the band
// sampler's redraws of d = 5 normals) waits for the eight-lane kernel's
// vector stores, which a scalar load cannot take from the store buffer; with
// the threshold the (5, 25) Gaussian round was about 1.5 % faster than with
// none and than with 8 or 32 (AMD EPYC, Zen 5, interleaved runs; 8 also
// slowed the Wishart round).
func ZigFast(dst []float64, s uint64) (n int, next, u uint64) {
	if ZigAVX512 && len(dst) >= 16 {
		return ZigFastAVX512(dst, s)
	}
	if ZigScalar {
		return ZigFastScalar(dst, s)
	}
	return ZigFastGo(dst, s)
}
