package dpb

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"gonum.org/v1/gonum/stat/distuv"
)

// fastRand is the environments' private generator: wyrand (Wang Yi's
// 64-bit multiply–xorshift generator; it passes BigCrush and PractRand),
// seeded from the caller's *rand.Rand at construction, held by value and
// called without an interface, plus a Marsaglia–Tsang ziggurat for normals.
// Decision sets need K·d normals a round, and the concrete generator makes
// them about three times cheaper than rng.NormFloat64 on a ChaCha8 stream.
// Everything stays a deterministic function of the caller's stream, so one
// seed still reproduces a run bit for bit. (A period of 2⁶⁴ is far beyond
// what any one stream of an experiment draws.)
type fastRand struct{ s uint64 }

func newFastRand(rng *rand.Rand) fastRand {
	return fastRand{s: rng.Uint64()}
}

// uint64 returns the next 64 random bits.
func (f *fastRand) uint64() uint64 {
	f.s += 0xa0761d6478bd642f
	hi, lo := bits.Mul64(f.s, f.s^0xe7037ed1a0b428db)
	return hi ^ lo
}

// float64 returns a uniform draw from [0, 1) with 53 random bits.
func (f *fastRand) float64() float64 { return float64(f.uint64()>>11) * 0x1p-53 }

// intn returns a uniform integer in [0, n), n > 0, without modulo bias
// (Lemire's multiply-and-reject).
func (f *fastRand) intn(n int) int {
	un := uint64(n)
	hi, lo := bits.Mul64(f.uint64(), un)
	if lo < un {
		thresh := -un % un
		for lo < thresh {
			hi, lo = bits.Mul64(f.uint64(), un)
		}
	}
	return int(hi)
}

// Ziggurat tables for the standard normal, 256 layers (Marsaglia & Tsang,
// "The Ziggurat Method for Generating Random Variables", JSS 2000, with the
// 256-layer constants r and v used by Julia's randn), kept in float64. One
// 64-bit word gives the sign and 31-bit magnitude (low 32 bits) and the layer
// (next 8 bits); more than 99% of draws take the fast path.
const (
	zigR = 3.6541528853610088    // start of the tail
	zigV = 0.0049286732339746195 // area of each layer
	zigM = 2147483648.0          // 2³¹
	zigN = 256                   // layers
)

var (
	zigK [zigN]uint32
	zigW [zigN]float64
	zigF [zigN]float64

	// The wedge squeeze of normSlow, for layers i ≥ 1: on |x| ∈ [a, b] =
	// [inner edge, outer edge] the density e^{−x²/2} lies within zigD[i] of
	// the chord through (a, zigF[i−1]) and (b, zigF[i]), whose slope is
	// zigS[i]; zigA[i] = a.
	zigA, zigS, zigD [zigN]float64
)

func init() {
	dn, tn := zigR, zigR
	q := zigV / xmath.Exp(-0.5*dn*dn)
	zigK[0] = uint32(dn / q * zigM)
	zigK[1] = 0
	zigW[0] = q / zigM
	zigW[zigN-1] = dn / zigM
	zigF[0] = 1
	zigF[zigN-1] = xmath.Exp(-0.5 * dn * dn)
	for i := zigN - 2; i >= 1; i-- {
		dn = math.Sqrt(-2 * xmath.Log(zigV/dn+xmath.Exp(-0.5*dn*dn)))
		zigK[i+1] = uint32(dn / tn * zigM)
		tn = dn
		zigF[i] = xmath.Exp(-0.5 * dn * dn)
		zigW[i] = dn / zigM
	}
	for i := 1; i < zigN; i++ {
		a, b := 0.0, zigW[i]*zigM
		if i > 1 {
			a = zigW[i-1] * zigM
		}
		zigA[i] = a
		zigS[i] = (zigF[i] - zigF[i-1]) / (b - a)
		// Linear interpolation errs by at most max|φ''|·(b−a)²/8, and
		// |φ''(x)| = |x²−1|·φ(x) ≤ max(|a²−1|, |b²−1|)·φ(a) on [a, b]. The
		// 10⁻¹² covers the rounding of the chord and of math.Exp (relative
		// errors below 10⁻¹⁴ on values at most 1).
		zigD[i] = float64(math.Max(math.Abs(float64(a*a)-1), math.Abs(float64(b*b)-1))*zigF[i-1]*(b-a)*(b-a)/8) + 1e-12
	}
}

// norm returns a standard normal draw (ziggurat; one 64-bit word in more
// than 98% of calls).
func (f *fastRand) norm() float64 {
	s, u, x, ok := zig(f.s)
	f.s = s
	if !ok {
		x = f.normSlow(u)
	}
	return x
}

// zig is the ziggurat's fast path on a wyrand state s: it advances the state
// (next), draws one 64-bit word u and returns a normal x that is valid in
// about 98.5% of calls (ok); otherwise the caller stores next in its
// fastRand and finishes with normSlow(u). zig is small enough to be inlined,
// and it takes the state by value so that the loops below keep it in a
// register: a call per normal, or the state loaded from and stored to memory
// each draw, costs them a third and an eighth of their time (measured with
// benchstat). uint64 and zig advance the state identically.
func zig(s uint64) (next, u uint64, x float64, ok bool) {
	next = s + 0xa0761d6478bd642f
	hi, lo := bits.Mul64(next, next^0xe7037ed1a0b428db)
	u = hi ^ lo
	j := int32(u)
	i := (u >> 32) & (zigN - 1)
	aj := uint32(j)
	if j < 0 {
		aj = uint32(-j)
	}
	return next, u, float64(j) * zigW[i], aj < zigK[i]
}

// normalsTo fills dst with standard normal draws: the fast path for runs of
// draws (zigFast: eight at a time on CPUs with AVX-512), normSlow for the
// rare draws that leave it. The draws are those of norm called len(dst)
// times.
func (f *fastRand) normalsTo(dst []float64) {
	for {
		n, next, u := zigFast(dst, f.s)
		f.s = next
		if n == len(dst) {
			return
		}
		dst[n] = f.normSlow(u)
		dst = dst[n+1:]
	}
}

// zigFastGo writes fast-path ziggurat draws (zig) from the wyrand state s
// into dst until dst is full (n = len(dst), next the state after the last
// word, u = 0) or a word u falls off the fast path (dst[:n] written, next the
// state after u, which normSlow must finish).
func zigFastGo(dst []float64, s uint64) (n int, next, u uint64) {
	for k := range dst {
		var x float64
		var ok bool
		s, u, x, ok = zig(s)
		if !ok {
			return k, s, u
		}
		dst[k] = x
	}
	return len(dst), s, 0
}

// scaledNormalsTo sets dst[k] = scale[k]·z_k with z_k standard normal draws
// (the same draws normalsTo would make).
func (f *fastRand) scaledNormalsTo(dst, scale []float64) {
	f.normalsTo(dst)
	vecMul(dst, scale[:len(dst)], dst)
}

// normSlow finishes a ziggurat draw whose first word u fell outside the
// layer's inner rectangle.
//
//go:noinline
func (f *fastRand) normSlow(u uint64) float64 {
	for first := true; ; first = false {
		if !first {
			u = f.uint64()
		}
		j := int32(u)
		i := (u >> 32) & (zigN - 1)
		x := float64(j) * zigW[i]
		aj := uint32(j)
		if j < 0 {
			aj = uint32(-j)
		}
		if aj < zigK[i] {
			return x
		}
		if i == 0 {
			// Base strip: sample the tail beyond zigR (Marsaglia 1964).
			for {
				x = -xmath.Log(f.float64()) / zigR
				y := -xmath.Log(f.float64())
				if y+y >= x*x {
					break
				}
			}
			if j > 0 {
				return zigR + x
			}
			return -(zigR + x)
		}
		// Accept when y lies under the density. The chord squeeze decides
		// without math.Exp unless y is within zigD[i] of the chord; it never
		// decides differently from the exact test, so the draws are the
		// same as with the exponential alone (TestZigSqueeze).
		y := zigF[i] + float64(f.float64()*(zigF[i-1]-zigF[i]))
		c := zigF[i-1] + (math.Abs(x)-zigA[i])*zigS[i]
		if y < c-zigD[i] || (y <= c+zigD[i] && y < xmath.Exp(-0.5*x*x)) {
			return x
		}
	}
}

// bandSampler draws x uniformly from the sphere band
//
//	{x ∈ R^d : ‖x‖ = 1, ⟨x, θ⟩ ∈ [lo, hi]}      (‖θ‖ = 1, d ≥ 2)
//
// exactly. For a uniform point on S^{d−1} the component u = ⟨x, θ⟩ has density
// ∝ (1 − u²)^{(d−3)/2} on [−1, 1], i.e. (1+u)/2 ~ Beta((d−1)/2, (d−1)/2), and
// given u the rest of x is uniform on the sphere of radius √(1−u²) in θ⊥. The
// band law is that law conditioned on u ∈ [lo, hi] (SS18 Appendix D; the
// authors' code draws u from the truncated Beta).
//
// When the band holds at least rejectMin of the sphere's mass, the sampler
// draws uniform sphere points (d normals, normalised) until one lands in the
// band — exact, and cheapest. Otherwise it draws u by inverting the
// truncated Beta CDF and the orthogonal part as in [sphereSlice].
type bandSampler struct {
	lo, hi   float64
	mass     float64 // P[u ∈ [lo, hi]] for a uniform sphere point
	reject   bool
	flo, fhi float64 // Beta CDF at (1+lo)/2 and (1+hi)/2
	beta     distuv.Beta
}

// rejectMin is the band mass above which rejection from the sphere is used
// (at most 1/rejectMin = 5 expected tries).
const rejectMin = 0.2

func newBandSampler(d int, lo, hi float64) bandSampler {
	a := float64(d-1) / 2
	b := bandSampler{lo: lo, hi: hi, beta: distuv.Beta{Alpha: a, Beta: a}}
	b.flo = b.beta.CDF((1 + lo) / 2)
	b.fhi = b.beta.CDF((1 + hi) / 2)
	b.mass = b.fhi - b.flo
	b.reject = b.mass >= rejectMin
	return b
}

// sample writes a draw into dst (len(dst) == len(theta)) and returns ⟨dst, θ⟩.
func (b *bandSampler) sample(f *fastRand, theta, dst []float64) float64 {
	if b.reject {
		f.normalsTo(dst)
		return b.finish(f, theta, dst)
	}
	p := b.flo + float64(f.float64()*(b.fhi-b.flo))
	u := 2*b.beta.Quantile(p) - 1
	u = math.Min(math.Max(u, b.lo), b.hi)
	sphereSlice(f, theta, u, dst)
	return u
}

// finish completes a rejection draw whose first candidate, a standard normal
// vector, is already in dst: it normalises the candidate and accepts it if it
// lands in the band, otherwise draws new candidates until one does. It
// returns ⟨dst, θ⟩. Only for b.reject.
func (b *bandSampler) finish(f *fastRand, theta, dst []float64) float64 {
	theta = theta[:len(dst)]
	for {
		var s, u float64
		for i, g := range dst {
			s += float64(g * g)
			u += float64(g * theta[i])
		}
		if s > 0 {
			inv := 1 / math.Sqrt(s)
			u *= inv
			if u >= b.lo && u <= b.hi {
				for i := range dst {
					dst[i] *= inv
				}
				return u
			}
		}
		f.normalsTo(dst)
	}
}

// sphereSlice writes into dst a uniform draw from {x : ‖x‖ = 1, ⟨x, θ⟩ = u}
// (|u| ≤ 1, ‖θ‖ = 1): x = uθ + √(1−u²)·w with w the normalised projection of a
// standard normal vector onto θ⊥, which is uniform on the unit sphere of θ⊥.
func sphereSlice(f *fastRand, theta []float64, u float64, dst []float64) {
	f.normalsTo(dst)
	sliceFinish(f, theta, u, dst)
}

// sliceFinish is sphereSlice with the first standard normal vector already in dst.
func sliceFinish(f *fastRand, theta []float64, u float64, dst []float64) {
	theta = theta[:len(dst)]
	r := math.Sqrt(math.Max(0, 1-u*u))
	for first := true; ; first = false {
		if !first {
			f.normalsTo(dst)
		}
		var c float64
		for i, g := range dst {
			c += g * theta[i]
		}
		// Project onto θ⊥ twice (classical Gram–Schmidt with one
		// re-orthogonalisation): when g is nearly parallel to θ one pass
		// leaves a component along θ that is large relative to what remains.
		var c2 float64
		for i := range dst {
			dst[i] -= c * theta[i]
			c2 += float64(dst[i] * theta[i])
		}
		var s float64
		for i := range dst {
			dst[i] -= c2 * theta[i]
			s += float64(dst[i] * dst[i])
		}
		if s == 0 {
			continue
		}
		k := r / math.Sqrt(s)
		for i := range dst {
			dst[i] = float64(u*theta[i]) + float64(k*dst[i])
		}
		return
	}
}
