package simd

import (
	"math"
	"math/bits"

	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// Ziggurat tables for the standard normal, 256 layers (Marsaglia & Tsang,
// "The Ziggurat Method for Generating Random Variables", JSS 2000, with the
// 256-layer constants r and v used by Julia's randn), kept in Float64. One
// 64-bit word gives the sign and 31-bit magnitude (low 32 bits) and the layer
// (next 8 bits); more than 99% of draws take the fast path.
const (
	ZigR = 3.6541528853610088    // start of the tail
	zigV = 0.0049286732339746195 // area of each layer
	ZigM = 2147483648.0          // 2³¹
	ZigN = 256                   // layers
)

var (
	ZigK [ZigN]uint32
	ZigW [ZigN]float64
	ZigF [ZigN]float64

	// The wedge squeeze of NormSlow, for layers i ≥ 1: on |x| ∈ [a, b] =
	// [inner edge, outer edge] the density e^{−x²/2} lies within zigD[i] of
	// the chord through (a, zigF[i−1]) and (b, zigF[i]), whose slope is
	// ZigS[i]; zigA[i] = a.
	ZigA, ZigS, ZigD [ZigN]float64
)

func init() {
	dn, tn := ZigR, ZigR
	q := zigV / xmath.Exp(-0.5*dn*dn)
	ZigK[0] = uint32(dn / q * ZigM)
	ZigK[1] = 0
	ZigW[0] = q / ZigM
	ZigW[ZigN-1] = dn / ZigM
	ZigF[0] = 1
	ZigF[ZigN-1] = xmath.Exp(-0.5 * dn * dn)
	for i := ZigN - 2; i >= 1; i-- {
		dn = math.Sqrt(-2 * xmath.Log(zigV/dn+xmath.Exp(-0.5*dn*dn)))
		ZigK[i+1] = uint32(dn / tn * ZigM)
		tn = dn
		ZigF[i] = xmath.Exp(-0.5 * dn * dn)
		ZigW[i] = dn / ZigM
	}
	for i := 1; i < ZigN; i++ {
		a, b := 0.0, ZigW[i]*ZigM
		if i > 1 {
			a = ZigW[i-1] * ZigM
		}
		ZigA[i] = a
		ZigS[i] = (ZigF[i] - ZigF[i-1]) / (b - a)
		// Linear interpolation errs by at most max|φ''|·(b−a)²/8, and
		// |φ''(x)| = |x²−1|·φ(x) ≤ max(|a²−1|, |b²−1|)·φ(a) on [a, b]. The
		// 10⁻¹² covers the rounding of the chord and of math.Exp (relative
		// errors below 10⁻¹⁴ on values at most 1).
		ZigD[i] = float64(math.Max(math.Abs(float64(a*a)-1), math.Abs(float64(b*b)-1))*ZigF[i-1]*(b-a)*(b-a)/8) + 1e-12
	}
}

// Zig is the ziggurat's fast path on a wyrand state s: it advances the state
// (next), draws one 64-bit word u and returns a normal x that is valid in
// about 98.5% of calls (ok); otherwise the caller stores next in its
// FastRand and finishes with NormSlow(u). zig is small enough to be inlined,
// and it takes the state by value so that the loops below keep it in a
// register: a call per normal, or the state loaded from and stored to memory
// each draw, costs them a third and an eighth of their time (measured with
// benchstat). Uint64 and zig advance the state identically.
func Zig(s uint64) (next, u uint64, x float64, ok bool) {
	next = s + 0xa0761d6478bd642f
	hi, lo := bits.Mul64(next, next^0xe7037ed1a0b428db)
	u = hi ^ lo
	j := int32(u)
	i := (u >> 32) & (ZigN - 1)
	aj := uint32(j)
	if j < 0 {
		aj = uint32(-j)
	}
	return next, u, float64(j) * ZigW[i], aj < ZigK[i]
}

// ZigFastGo writes fast-path ziggurat draws (zig) from the wyrand state s
// into dst until dst is full (n = len(dst), next the state after the last
// word, u = 0) or a word u falls off the fast path (dst[:n] written, next the
// state after u, which NormSlow must finish).
func ZigFastGo(dst []float64, s uint64) (n int, next, u uint64) {
	for k := range dst {
		var x float64
		var ok bool
		s, u, x, ok = Zig(s)
		if !ok {
			return k, s, u
		}
		dst[k] = x
	}
	return len(dst), s, 0
}
