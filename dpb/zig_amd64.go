//go:build amd64 && !purego

package dpb

// The ziggurat's fast path, zigFastGo, has two assembly versions with the
// same words, operations and bits (TestZigFastSameBits): zigFastScalar, one
// draw at a time with BMI2's MULX and BMI1's BEXTR, and zigFastAVX512, eight
// lanes a pass with the layer tables read by gathers (its slow passes use
// BMI1 and BMI2 too).
//
// zigScalar and zigAVX512 select them in zigFast (tests switch them). On AMD
// family 25 (Zen 4, zmmHalfWidth), whose eight-lane gathers are slow, the
// scalar kernel is the faster one at every length: normalsTo of the 125
// draws of a (5, 25) decision set takes 273 ns with the gathers, 195 with
// the scalar kernel and 320 with the Go loop, of 1000 draws 2.15, 1.52 and
// 2.32 µs (BenchmarkZigKernel), so there zigAVX512 is off. Other AVX-512
// CPUs keep the eight-lane kernel for runs of 16 draws or more: it was
// tuned on Zen 5, where the scalar kernel has not been measured.
var (
	zigScalar = hasAVX2FMA() && hasBMI12()
	zigAVX512 = hasAVX2FMA() && hasAVX512() && hasBMI12() && !zmmHalfWidth()
)

// zigKLo[i] = zigK[i] − 1 and zigKSpan[i] = 2·zigK[i] − 1 (0 when zigK[i] =
// 0) put zigFastScalar's test in one add and one unsigned compare: for an
// integer j and K ≥ 1, |j| < K exactly when 0 ≤ j + K − 1 < 2K − 1, and a
// negative j + K − 1 is a huge unsigned value; for K = 0 nothing is below 0.
var zigKLo, zigKSpan [zigN]uint64

func init() {
	for i, k := range zigK {
		zigKLo[i] = uint64(int64(k) - 1)
		if k > 0 {
			zigKSpan[i] = 2*uint64(k) - 1
		}
	}
}

// zigFastScalar is zigFastGo in assembly (zig_amd64.s).
//
//go:noescape
func zigFastScalar(dst []float64, s uint64) (n int, next, u uint64)

// zigFastAVX512 is zigFastGo with eight draws per pass (zig_amd64.s).
//
//go:noescape
func zigFastAVX512(dst []float64, s uint64) (n int, next, u uint64)

// zigFast is zigFastGo, through the eight-lane kernel when it is selected and
// dst holds at least 16 draws, otherwise through the scalar one. Shorter runs
// stay scalar: a caller that reads a few draws back right away (the band
// sampler's redraws of d = 5 normals) waits for the eight-lane kernel's
// vector stores, which a scalar load cannot take from the store buffer; with
// the threshold the (5, 25) Gaussian round was about 1.5 % faster than with
// none and than with 8 or 32 (AMD EPYC, Zen 5, interleaved runs; 8 also
// slowed the Wishart round).
func zigFast(dst []float64, s uint64) (n int, next, u uint64) {
	if zigAVX512 && len(dst) >= 16 {
		return zigFastAVX512(dst, s)
	}
	if zigScalar {
		return zigFastScalar(dst, s)
	}
	return zigFastGo(dst, s)
}
