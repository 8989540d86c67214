package noise

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/internal/noisescale"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
)

// WishartNoise draws W ~ W_n(s·I, k), the Wishart distribution with scale
// matrix s·I and k degrees of freedom: for integer k, the Gram matrix
// Σ_{i=1..k} g_i g_iᵀ of k independent g_i ~ N(0, s·I_n). It is the node noise
// of SS18 Section 4.1 (Sheffet's Wishart mechanism, SS18 Theorem 8), where
// n = d+1, s = L̃² and k is [Setting.WishartK]:
//
//	node noise ~ W_{d+1}(L̃² I, k)
//
// (the text of Section 4.1 once writes W_{d+1}(L̃ I, k); Theorem 8 and
// Proposition 9 use L̃² I, which is what is meant — callers pass scale = L̃²).
//
// Sample uses the Bartlett decomposition (Bartlett 1933; e.g. Muirhead 1982,
// Thm 3.2.14): W = s·A Aᵀ with A lower triangular and independent entries
//
//	A_ii = √χ²(k − i)   (i = 0..n−1),     A_ij ~ N(0, 1)   (i > j),
//
// so one draw costs n(n+1)/2 random variables whatever k is (k ≈ 1.4·10⁵ in
// the paper's experiments, where drawing k Gaussian vectors would be absurd),
// plus the n³/6 multiply-adds of A Aᵀ. The variables come from the fast
// generator of the environments and the Gaussian node noise (wyrand +
// 256-layer ziggurat, band.go), seeded from the caller's stream at
// construction: a deterministic function of that stream, about four times
// cheaper per normal than rng.NormFloat64 on ChaCha8. Real k > n − 1 is allowed: the
// Bartlett form defines W_n(s I, k) for every such k. Sample allocates nothing.
//
// Sample writes W in packed form (see [simd.PackedLen]); Dim() = PackedLen(n).
type WishartNoise struct {
	n     int
	scale float64
	k     float64
	f     FastRand       // wyrand + ziggurat, seeded from the caller's stream
	chi   []gammaSampler // chi[i] draws Gamma((k−i)/2, 1) = χ²(k−i)/2
	off   []float64      // A below the diagonal by rows: row i at i(i−1)/2, length i
	diag  []float64      // A's diagonal
	col   []float64      // A by columns for BartlettLanesTo (nil if unused)
}

var _ Noise = (*WishartNoise)(nil)

// newWishart returns a sampler of W_n(scale·I, k) ([New], WishartLaw). n must be >= 1,
// scale > 0 and finite, and k > n − 1 and finite (the condition for the
// distribution to exist and be nonsingular).
func newWishart(n int, scale float64, k float64, rng *rand.Rand) (*WishartNoise, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	if err := param.CheckDim("wishart dimension", n); err != nil {
		return nil, err
	}
	if err := param.CheckPositive("wishart scale", scale); err != nil {
		return nil, err
	}
	if math.IsNaN(k) || math.IsInf(k, 0) || k <= float64(n-1) {
		return nil, fmt.Errorf("noise: wishart degrees of freedom is %v, must be > n−1 = %d and finite", k, n-1)
	}
	w := &WishartNoise{
		n:     n,
		scale: scale,
		k:     k,
		f:     NewFastRand(rng),
		chi:   make([]gammaSampler, n),
		off:   make([]float64, n*(n-1)/2),
		diag:  make([]float64, n),
	}
	if m := simd.BartlettColLen(n); m > 0 {
		w.col = make([]float64, m)
	}
	for i := range w.chi {
		w.chi[i] = newGammaSampler((k - float64(i)) / 2)
	}
	return w, nil
}

// Dim returns PackedLen(n), the length of a packed n×n matrix.
func (w *WishartNoise) Dim() int { return simd.PackedLen(w.n) }

// N returns the matrix size n.
func (w *WishartNoise) N() int { return w.n }

// Scale returns s, the scale matrix being s·I.
func (w *WishartNoise) Scale() float64 { return w.scale }

// DoF returns the degrees of freedom k.
func (w *WishartNoise) DoF() float64 { return w.k }

// Sample overwrites dst (len PackedLen(n)) with a fresh draw of W in packed
// form.
func (w *WishartNoise) Sample(dst []float64) {
	n := w.n
	if len(dst) != simd.PackedLen(n) {
		panic(param.BadDim)
	}
	// Bartlett factor A: the n(n−1)/2 normals below the diagonal in one
	// run of the generator, then the diagonal.
	off, diag := w.off, w.diag
	w.f.NormalsTo(off)
	for i := range diag {
		diag[i] = math.Sqrt(2 * w.chi[i].draw(&w.f))
	}
	switch {
	case n == 6:
		bartlett6To((*[21]float64)(dst), (*[15]float64)(off), (*[6]float64)(diag), w.scale)
	case simd.BartlettLanesTo(dst, off, diag, w.col, w.scale):
	default:
		BartlettProductTo(dst, off, diag, w.scale)
	}
	noisescale.Apply(dst)
}

// bartlett6To is the product loop of Sample written out for n = 6 (d = 5,
// the papers' dimension): W_ij = s·(Σ_{l<i} A_il A_jl + A_ii A_ji), each sum
// from 0 in increasing l, every product rounded before its sum, the
// diagonal term last: the loop's operations in the loop's order, so the
// same bits (TestBartlettProductSameBits). At n = 6 the loops' bounds,
// slicing and short trip counts cost more than the 56 products, 56 sums and
// 21 scalings: BenchmarkWishartSample n = 6, 157 → 112 ns (AMD EPYC family
// 25, Zen 4; benchstat). a is A below the diagonal by rows (row i at i(i−1)/2), g its
// diagonal.
func bartlett6To(dst *[21]float64, a *[15]float64, g *[6]float64, s float64) {
	dst[0] = s * (0 + float64(g[0]*g[0]))
	dst[1] = s * (0 + float64(g[0]*a[0]))
	dst[2] = s * (0 + float64(g[0]*a[1]))
	dst[3] = s * (0 + float64(g[0]*a[3]))
	dst[4] = s * (0 + float64(g[0]*a[6]))
	dst[5] = s * (0 + float64(g[0]*a[10]))
	dst[6] = s * ((0 + float64(a[0]*a[0])) + float64(g[1]*g[1]))
	dst[7] = s * ((0 + float64(a[0]*a[1])) + float64(g[1]*a[2]))
	dst[8] = s * ((0 + float64(a[0]*a[3])) + float64(g[1]*a[4]))
	dst[9] = s * ((0 + float64(a[0]*a[6])) + float64(g[1]*a[7]))
	dst[10] = s * ((0 + float64(a[0]*a[10])) + float64(g[1]*a[11]))
	dst[11] = s * (((0 + float64(a[1]*a[1])) + float64(a[2]*a[2])) + float64(g[2]*g[2]))
	dst[12] = s * (((0 + float64(a[1]*a[3])) + float64(a[2]*a[4])) + float64(g[2]*a[5]))
	dst[13] = s * (((0 + float64(a[1]*a[6])) + float64(a[2]*a[7])) + float64(g[2]*a[8]))
	dst[14] = s * (((0 + float64(a[1]*a[10])) + float64(a[2]*a[11])) + float64(g[2]*a[12]))
	dst[15] = s * ((((0 + float64(a[3]*a[3])) + float64(a[4]*a[4])) + float64(a[5]*a[5])) + float64(g[3]*g[3]))
	dst[16] = s * ((((0 + float64(a[3]*a[6])) + float64(a[4]*a[7])) + float64(a[5]*a[8])) + float64(g[3]*a[9]))
	dst[17] = s * ((((0 + float64(a[3]*a[10])) + float64(a[4]*a[11])) + float64(a[5]*a[12])) + float64(g[3]*a[13]))
	dst[18] = s * (((((0 + float64(a[6]*a[6])) + float64(a[7]*a[7])) + float64(a[8]*a[8])) + float64(a[9]*a[9])) + float64(g[4]*g[4]))
	dst[19] = s * (((((0 + float64(a[6]*a[10])) + float64(a[7]*a[11])) + float64(a[8]*a[12])) + float64(a[9]*a[13])) + float64(g[4]*a[14]))
	dst[20] = s * ((((((0 + float64(a[10]*a[10])) + float64(a[11]*a[11])) + float64(a[12]*a[12])) + float64(a[13]*a[13])) + float64(a[14]*a[14])) + float64(g[5]*g[5]))
}

// BartlettProductTo sets dst (packed, PackedLen(n)) to s·A·Aᵀ for the lower
// triangular A with diagonal diag (n entries) and, below it, off (row i at
// i(i−1)/2, length i): W_ij = s·(Σ_{l<i} A_il A_jl + A_ii A_ji) for i ≤ j,
// a dot product of row prefixes, the diagonal term last.
func BartlettProductTo(dst, off, diag []float64, s float64) {
	n := len(diag)
	p := 0
	for i := 0; i < n; i++ {
		ri := off[i*(i-1)/2 : i*(i-1)/2+i]
		di := diag[i]
		var sii float64
		for _, v := range ri {
			sii += float64(v * v)
		}
		dst[p] = s * (sii + float64(di*di))
		p++
		for j := i + 1; j < n; j++ {
			rj := off[j*(j-1)/2 : j*(j-1)/2+j]
			rj, aji := rj[:len(ri)], rj[i]
			var sum float64
			for l, v := range ri {
				sum += v * rj[l]
			}
			dst[p] = s * (sum + float64(di*aji))
			p++
		}
	}
}
