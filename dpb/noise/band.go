package noise

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// FastRand is the environments' private generator: wyrand (Wang Yi's
// 64-bit multiply–xorshift generator; it passes BigCrush and PractRand),
// seeded from the caller's *rand.Rand at construction, held by value and
// called without an interface, plus a Marsaglia–Tsang ziggurat for normals.
// Decision sets need K·d normals a round, and the concrete generator makes
// them about three times cheaper than rng.NormFloat64 on a ChaCha8 stream.
// Everything stays a deterministic function of the caller's stream, so one
// seed still reproduces a run bit for bit. (A period of 2⁶⁴ is far beyond
// what any one stream of an experiment draws.)
type FastRand struct{ S uint64 }

func NewFastRand(rng *rand.Rand) FastRand {
	return FastRand{S: rng.Uint64()}
}

// Uint64 returns the next 64 random bits.
func (f *FastRand) Uint64() uint64 {
	f.S += 0xa0761d6478bd642f
	hi, lo := bits.Mul64(f.S, f.S^0xe7037ed1a0b428db)
	return hi ^ lo
}

// Float64 returns a uniform draw from [0, 1) with 53 random bits.
func (f *FastRand) Float64() float64 { return float64(f.Uint64()>>11) * 0x1p-53 }

// Intn returns a uniform integer in [0, n), n > 0, without modulo bias
// (Lemire's multiply-and-reject).
func (f *FastRand) Intn(n int) int {
	un := uint64(n)
	hi, lo := bits.Mul64(f.Uint64(), un)
	if lo < un {
		thresh := -un % un
		for lo < thresh {
			hi, lo = bits.Mul64(f.Uint64(), un)
		}
	}
	return int(hi)
}

// Norm returns a standard normal draw (ziggurat; one 64-bit word in more
// than 98% of calls).
func (f *FastRand) Norm() float64 {
	s, u, x, ok := simd.Zig(f.S)
	f.S = s
	if !ok {
		x = f.NormSlow(u)
	}
	return x
}

// NormalsTo fills dst with standard normal draws: the fast path for runs of
// draws (ZigFast: in assembly on CPUs with BMI2), NormSlow for the
// rare draws that leave it. The draws are those of Norm called len(dst)
// times.
func (f *FastRand) NormalsTo(dst []float64) {
	for {
		n, next, u := simd.ZigFast(dst, f.S)
		f.S = next
		if n == len(dst) {
			return
		}
		dst[n] = f.NormSlow(u)
		dst = dst[n+1:]
	}
}

// scaledNormalsTo sets dst[k] = scale[k]·z_k with z_k standard normal draws
// (the same draws NormalsTo would make).
func (f *FastRand) scaledNormalsTo(dst, scale []float64) {
	f.NormalsTo(dst)
	simd.VecMul(dst, scale[:len(dst)], dst)
}

// NormSlow finishes a ziggurat draw whose first word u fell outside the
// layer's inner rectangle.
//
//go:noinline
func (f *FastRand) NormSlow(u uint64) float64 {
	for first := true; ; first = false {
		if !first {
			u = f.Uint64()
		}
		j := int32(u)
		i := (u >> 32) & (simd.ZigN - 1)
		x := float64(j) * simd.ZigW[i]
		aj := uint32(j)
		if j < 0 {
			aj = uint32(-j)
		}
		if aj < simd.ZigK[i] {
			return x
		}
		if i == 0 {
			// Base strip: sample the tail beyond zigR (Marsaglia 1964).
			for {
				x = -xmath.Log(f.Float64()) / simd.ZigR
				y := -xmath.Log(f.Float64())
				if y+y >= x*x {
					break
				}
			}
			if j > 0 {
				return simd.ZigR + x
			}
			return -(simd.ZigR + x)
		}
		// Accept when y lies under the density. The chord squeeze decides
		// without math.Exp unless y is within zigD[i] of the chord; it never
		// decides differently from the exact test, so the draws are the
		// same as with the exponential alone (TestZigSqueeze).
		y := simd.ZigF[i] + float64(f.Float64()*(simd.ZigF[i-1]-simd.ZigF[i]))
		c := simd.ZigF[i-1] + (math.Abs(x)-simd.ZigA[i])*simd.ZigS[i]
		if y < c-simd.ZigD[i] || (y <= c+simd.ZigD[i] && y < xmath.Exp(-0.5*x*x)) {
			return x
		}
	}
}
