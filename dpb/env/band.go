package env

import (
	"math"

	"github.com/dpbandits/dpbandits/dpb/noise"
	"gonum.org/v1/gonum/stat/distuv"
)

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
func (b *bandSampler) sample(f *noise.FastRand, theta, dst []float64) float64 {
	if b.reject {
		f.NormalsTo(dst)
		return b.finish(f, theta, dst)
	}
	p := b.flo + float64(f.Float64()*(b.fhi-b.flo))
	u := 2*b.beta.Quantile(p) - 1
	u = math.Min(math.Max(u, b.lo), b.hi)
	sphereSlice(f, theta, u, dst)
	return u
}

// finish completes a rejection draw whose first candidate, a standard normal
// vector, is already in dst: it normalises the candidate and accepts it if it
// lands in the band, otherwise draws new candidates until one does. It
// returns ⟨dst, θ⟩. Only for b.reject.
func (b *bandSampler) finish(f *noise.FastRand, theta, dst []float64) float64 {
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
		f.NormalsTo(dst)
	}
}

// sphereSlice writes into dst a uniform draw from {x : ‖x‖ = 1, ⟨x, θ⟩ = u}
// (|u| ≤ 1, ‖θ‖ = 1): x = uθ + √(1−u²)·w with w the normalised projection of a
// standard normal vector onto θ⊥, which is uniform on the unit sphere of θ⊥.
func sphereSlice(f *noise.FastRand, theta []float64, u float64, dst []float64) {
	f.NormalsTo(dst)
	sliceFinish(f, theta, u, dst)
}

// sliceFinish is sphereSlice with the first standard normal vector already in dst.
func sliceFinish(f *noise.FastRand, theta []float64, u float64, dst []float64) {
	theta = theta[:len(dst)]
	r := math.Sqrt(math.Max(0, 1-u*u))
	for first := true; ; first = false {
		if !first {
			f.NormalsTo(dst)
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
