package check

import (
	"fmt"
	"math"
	"math/rand/v2"

	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distmat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/dpbandits/dpbandits/dpb/internal/linalg"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// Checks of the probabilistic facts SS18 uses (Appendix A.3: Claims 17–20),
// the operator-norm bound behind Υ (Section 4.2) and the elliptical
// potential lemma (Lemma 22). Each check states its statement in the
// verdict's Claim, draws independent instances from rng and counts failures.

// eigenSym computes eigenvalues (ascending) and eigenvectors of small
// symmetric matrices, reusing its storage: it calls LAPACK's Dsyev (the
// routine behind mat.EigenSym, so the same bits) with a workspace kept
// between calls, so a per-round check allocates nothing.
type eigenSym struct {
	n    int
	a    blas64.Symmetric // input upper triangle; eigenvectors (columns) after factor
	vals []float64
	work []float64
}

func newEigenSym(n int) *eigenSym {
	e := &eigenSym{n: n, vals: make([]float64, n)}
	e.a = blas64.Symmetric{N: n, Stride: n, Uplo: blas.Upper, Data: make([]float64, n*n)}
	q := []float64{0}
	lapack64.Syev(lapack.EVCompute, e.a, e.vals, q, -1)
	e.work = make([]float64, int(q[0]))
	return e
}

// factor decomposes the n×n symmetric matrix whose upper triangle is read
// from a (row-major n×n, or packed when packed is true). It reports false if
// the decomposition failed (non-finite input). Eigenvectors are computed
// when vectors is true.
func (e *eigenSym) factor(a []float64, packed, vectors bool) bool {
	n := e.n
	k := 0
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if packed {
				e.a.Data[i*n+j] = a[k]
				k++
			} else {
				e.a.Data[i*n+j] = a[i*n+j]
			}
		}
	}
	jobz := lapack.EVNone
	if vectors {
		jobz = lapack.EVCompute
	}
	return lapack64.Syev(jobz, e.a, e.vals, e.work, len(e.work))
}

// quadInv returns hᵀ (A + sI)⁻¹ h from the factored A (vectors needed), or
// +Inf when A + sI is not positive definite.
func (e *eigenSym) quadInv(h []float64, s float64) float64 {
	var q float64
	n := e.n
	for j, l := range e.vals {
		l += s
		if !(l > 0) {
			return math.Inf(1)
		}
		var p float64
		for i := range h {
			p += e.a.Data[i*n+j] * h[i]
		}
		q += p * p / l
	}
	return q
}

// Claims 17–19 and Υ are each checked twice (issue 52, item 5):
//
//   - a sampled row tests the statistic against its exact (1−α)-quantile
//     (χ²: gonum's distuv) or a simulated one (a reference sample drawn on an
//     independent PCG stream, for Claim 19 and Υ by an independent
//     implementation of the law): failures are draws above it, a binomial
//     test at α. Its control scales the sampler by the smallest factor
//     whose failure rate these trials reject with probability ≥ 0.999
//     (tailVerdict): a control sized to the statistic's own tail, not to the
//     printed bound's looseness;
//   - an arithmetic row ("-printed") compares the printed bound with that
//     quantile: it holds iff the bound is at least the quantile (for a
//     simulated quantile, at least its upper confidence bound at 10⁻⁶).

// factsMinTrials is the fewest draws behind a sampled fact row: at α = 0.01
// a test over 20,000 draws rejects a failure rate of 1.55 % with
// probability 0.999, a scale defect of about 10 % in the statistic.
const factsMinTrials = 20_000

// refDraws is the size of a simulated reference sample.
const refDraws = 100_000

// refRisk is the probability that a simulated reference misleads its row:
// the quantile estimate's true level exceeds the level tested (sampled
// rows), or the true quantile exceeds its upper bound (arithmetic rows).
// A sampled row then fails spuriously with probability ≤ PassPValue +
// refRisk = 1.1·10⁻⁵.
const refRisk = 1e-6

// refQuantile returns, for a sorted reference sample x of the statistic,
// the estimate q of its (1−α)-quantile (the r-th largest draw, r = ⌈αM⌉),
// the level α′ ≥ α at which a test against q is valid (the true
// exceedance probability of q exceeds α′ with probability ≤ refRisk:
// P[Bin(M, α′) < r] ≤ refRisk), and an upper confidence bound qUp of the
// true quantile (P[q_{1−α} > qUp] ≤ refRisk).
func refQuantile(x []float64, alpha float64) (q, alphaTest, qUp float64) {
	m := len(x)
	r := int(math.Ceil(alpha * float64(m)))
	q = x[m-r]
	lo, hi := alpha, 1.0
	for range 60 {
		mid := (lo + hi) / 2
		if 1-BinomialTail(m, r, mid) <= refRisk {
			hi = mid
		} else {
			lo = mid
		}
	}
	alphaTest = hi
	j := r
	for j > 1 && 1-BinomialTail(m, j, alpha) > refRisk {
		j--
	}
	return q, alphaTest, x[m-j]
}

// tailVerdict is the sampled row of "P[X > q] ≤ level", q the statistic's
// exact or simulated (1−level)-quantile, tested at levelTest (≥ level; see
// refQuantile). ratios(f) returns the sampler's draws of X/q under a scale
// defect f (f = 1: as built); exceed(f) the reference law's P[X > q] under
// the same defect. The control is ratios(c), c the smallest f ≥ 1 at which
// the row's trials reject with probability ≥ 0.999 (normal approximation
// to the failure count: mean − 3.09 s.d. ≥ the rejection count); defect
// names it ("%s" for c).
func tailVerdict(name, claim, ref string, levelTest float64, ratios func(f float64) []float64, exceed func(f float64) float64, defect, note string) Verdict {
	r := ratios(1)
	v := ratioVerdict(name, claim, ref, levelTest, r, note)
	n := float64(len(r))
	k := float64(rejectCount(len(r), levelTest))
	power := func(f float64) bool {
		p := exceed(f)
		return n*p-3.09*math.Sqrt(n*p*(1-p)) >= k
	}
	hi := 1.0
	for !power(hi) && hi < 1e3 {
		hi *= 1.25
	}
	lo := 1.0
	for range 40 {
		mid := (lo + hi) / 2
		if power(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	c := hi
	v = withControl(v, ratioVerdict("control", "", "", levelTest, ratios(c), ""), fmt.Sprintf(defect, fmt.Sprintf("%.5g", c)))
	v.Detects = fmt.Sprintf("a scale defect ×%.5g (failure rate %.3g against %.3g allowed) with probability 0.999", c, exceed(c), levelTest)
	return v
}

// boundRow is the arithmetic row of a printed bound against the quantile
// q it must cover: it holds iff bound ≥ q (upper) or bound ≤ q (lower).
func boundRow(name, claim, ref string, bound, q float64, upper bool, note string) Verdict {
	ok, slack := bound >= q, q/bound
	if !upper {
		// A lower bound at or below 0 holds trivially: slack 0.
		ok, slack = bound <= q, math.Max(bound/q, 0)
	}
	v := NewVerdict(name, claim, ref, 0, 0, boolFail(ok), slack, note)
	v.Tail = v.Slack
	v.Kind = KindArithmetic
	return v
}

// scaled returns f·x elementwise, capped at maxRatio.
func scaled(x []float64, f float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = math.Min(v*f, maxRatio)
	}
	return out
}

// pcgNormal returns a standard normal generator on a PCG stream seeded
// from rng: the independent generator of the simulated references (the
// samplers checked draw from ChaCha8 or the wyrand ziggurat).
func pcgNormal(rng *rand.Rand) func() float64 {
	r := rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))
	return r.NormFloat64
}

// ChiSquareTails checks SS18 Claim 17 (Laurent & Massart 2000, Lemma 1)
// for U ~ χ²(d):
//
//	P[U ≥ d + 2√(d ln(1/α)) + 2 ln(1/α)] ≤ α,   P[U ≤ d − 2√(d ln(1/α))] ≤ α.
//
// Sampled rows "claim17-upper" and "-lower": trials draws of U (sums of d
// squared normals) against the exact χ²(d) quantiles q_{1−α} and q_α
// (distuv.ChiSquared), binomial at α; control the variance ×c (upper) or
// ÷c (lower), c sized by tailVerdict. Arithmetic rows "-printed": the
// printed bounds against the exact quantiles.
func ChiSquareTails(rng *rand.Rand, d int, alpha float64, trials int) Verdicts {
	l := xmath.Log(1 / alpha)
	hi := float64(d) + 2*math.Sqrt(float64(d)*l) + 2*l
	lo := float64(d) - 2*math.Sqrt(float64(d)*l)
	chi := distuv.ChiSquared{K: float64(d)}
	qHi, qLo := chi.Quantile(1-alpha), chi.Quantile(alpha)
	us := make([]float64, trials)
	for i := range trials {
		var u float64
		for range d {
			z := rng.NormFloat64()
			u += float64(z * z)
		}
		us[i] = u
	}
	up := make([]float64, trials)
	down := make([]float64, trials)
	for i, u := range us {
		up[i] = u / qHi
		down[i] = lowerRatio(u, qLo)
	}
	ref := "SS18 Claim 17 (App. A.3); Laurent–Massart Lemma 1"
	v1 := tailVerdict("claim17-upper", fmt.Sprintf("χ²(%d) upper tail: P[U > q_{1−α}] ≤ α, q_{1−α} = %.4g the exact quantile (α = %g)", d, qHi, alpha), ref, alpha,
		func(f float64) []float64 { return scaled(up, f) }, func(f float64) float64 { return chi.Survival(qHi / f) },
		"biased sampler: variance ×%s", "slack: U/q_{1−α}")
	v2 := tailVerdict("claim17-lower", fmt.Sprintf("χ²(%d) lower tail: P[U < q_α] ≤ α, q_α = %.4g the exact quantile", d, qLo), ref, alpha,
		func(f float64) []float64 { return scaled(down, f) }, func(f float64) float64 { return chi.CDF(qLo * f) },
		"biased sampler: variance ÷%s", "slack: q_α/U")
	return Verdicts{v1,
		boundRow("claim17-upper-printed", fmt.Sprintf("printed χ²(%d) upper bound d + 2√(d ln 1/α) + 2 ln 1/α = %.4g ≥ the exact q_{1−α} = %.4g", d, hi, qHi), ref, hi, qHi, true, "slack: q_{1−α}/bound"),
		v2,
		boundRow("claim17-lower-printed", fmt.Sprintf("printed χ²(%d) lower bound d − 2√(d ln 1/α) = %.4g ≤ the exact q_α = %.4g", d, lo, qLo), ref, lo, qLo, false, "slack: bound/q_α")}
}

// extremes holds the draws' extreme singular values (Claim 18) or square
// roots of eigenvalues over the scale (Claim 19) and the centre c they
// deviate from; dev(f) is the statistic max(|f·lo − c|, |f·hi − c|) under a
// scale defect f.
type extremes struct {
	lo, hi []float64
	c      float64
}

func (e extremes) dev(f float64) []float64 {
	out := make([]float64, len(e.lo))
	for i := range out {
		out[i] = math.Max(math.Abs(float64(f*e.lo[i])-e.c), math.Abs(float64(f*e.hi[i])-e.c))
	}
	return out
}

// extremeRows are the sampled and arithmetic rows of a deviation statistic
// (Claims 18 and 19): the sampler's draws s against the reference draws r,
// at level alpha, the printed deviation bound dev.
func extremeRows(name, claim, ref string, s, r extremes, alpha, bound float64, defect, note string) Verdicts {
	rs := r.dev(1)
	slices.Sort(rs)
	q, at, qUp := refQuantile(rs, alpha)
	sampled := tailVerdict(name, fmt.Sprintf("%s: P[X > q̂_{1−α}] ≤ α, q̂ = %.4g the simulated quantile (α = %g, tested at %.4g)", claim, q, alpha, at), ref, at,
		func(f float64) []float64 { return scaled(s.dev(f), 1/q) },
		func(f float64) float64 {
			e := 0
			for _, x := range r.dev(f) {
				if x > q {
					e++
				}
			}
			return float64(e) / float64(len(r.lo))
		}, defect, note)
	return Verdicts{sampled, boundRow(name+"-printed", fmt.Sprintf("%s: printed deviation bound √d + √(2 ln 2/α) = %.4g ≥ the simulated q_{1−α} (upper confidence bound %.4g)", claim, bound, qUp),
		ref, bound, qUp, true, fmt.Sprintf("reference: %d draws on an independent PCG stream; q̂ = %.4g", len(r.lo), q))}
}

// GaussianSingularValues checks SS18 Claim 18 (after Vershynin,
// Corollary 5.35): for an rows×cols matrix A of i.i.d. N(0,1) entries, with
// probability ≥ 1 − α both σ_min(A) and σ_max(A) lie in
//
//	√rows ± (√cols + √(2 ln(2/α))).
//
// The statistic X = max|σ − √rows| over the extreme singular values: row
// "claim18" tests trials draws (rng's normals) against its (1−α)-quantile
// simulated on refDraws matrices of an independent PCG stream, control the
// entries' σ ×c (c by tailVerdict); "claim18-printed" the printed
// deviation against that quantile.
func GaussianSingularValues(rng *rand.Rand, rows, cols int, alpha float64, trials int) Verdicts {
	dev := math.Sqrt(float64(cols)) + math.Sqrt(2*xmath.Log(2/alpha))
	c := math.Sqrt(float64(rows))
	a := make([]float64, rows*cols)
	g := make([]float64, cols*cols)
	e := newEigenSym(cols)
	draw := func(norm func() float64, n int) extremes {
		x := extremes{lo: make([]float64, n), hi: make([]float64, n), c: c}
		for t := range n {
			for i := range a {
				a[i] = norm()
			}
			// AᵀA's eigenvalues are the squared singular values of A.
			clear(g)
			for r := 0; r < rows; r++ {
				row := a[r*cols : (r+1)*cols]
				for i, v := range row {
					for j := i; j < cols; j++ {
						g[i*cols+j] += v * row[j]
					}
				}
			}
			e.factor(g, false, false)
			x.lo[t] = math.Sqrt(math.Max(e.vals[0], 0))
			x.hi[t] = math.Sqrt(e.vals[cols-1])
		}
		return x
	}
	s := draw(rng.NormFloat64, trials)
	r := draw(pcgNormal(rng), refDraws)
	return extremeRows("claim18", fmt.Sprintf("%d×%d Gaussian matrix, X = max|σ_{min,max} − √n|", rows, cols),
		"SS18 Claim 18 (App. A.3); Vershynin Cor. 5.35", s, r, alpha, dev, "biased sampler: entries' σ ×%s", "slack: X/q̂")
}

// WishartEigenvalues checks SS18 Claim 19 (Sheffet 2015, Lemma A.3)
// with the project's [noise.WishartNoise] sampler: for W ~ W_d(s·I, k), with
// probability ≥ 1 − α every eigenvalue lies in
//
//	(√k ± (√d + √(2 ln(2/α))))² · s
//
// (the paper writes m for the degrees of freedom and requires
// k > d + 2 ln(2/α), α < 1/e). The statistic X = max_j |√(λ_j/s) − √k|: row
// "claim19-k<k>" tests trials draws of the sampler against its
// (1−α)-quantile simulated on refDraws draws of gonum's distmat.Wishart on
// an independent PCG stream (an independent implementation of the law),
// control the scale s ×c² (√λ ×c, c by tailVerdict); "-printed" the printed
// deviation against that quantile.
func WishartEigenvalues(rng *rand.Rand, d int, k, scale, alpha float64, trials int) (Verdicts, error) {
	w, err := noise.New(noise.Config{Law: noise.WishartLaw, Mode: noise.Simulated, N: d, Scale: scale, DF: k}, rng)
	if err != nil {
		return nil, err
	}
	dev := math.Sqrt(float64(d)) + math.Sqrt(2*xmath.Log(2/alpha))
	sk := math.Sqrt(k)
	p := make([]float64, simd.PackedLen(d))
	e := newEigenSym(d)
	draw := func(sample func([]float64), n int) extremes {
		x := extremes{lo: make([]float64, n), hi: make([]float64, n), c: sk}
		for t := range n {
			sample(p)
			e.factor(p, true, false)
			x.lo[t] = math.Sqrt(math.Max(e.vals[0], 0) / scale)
			x.hi[t] = math.Sqrt(e.vals[d-1] / scale)
		}
		return x
	}
	gw, ok := distmat.NewWishart(mat.NewDiagDense(d, slices.Repeat([]float64{scale}, d)), k, rand.NewPCG(rng.Uint64(), rng.Uint64()))
	if !ok {
		panic("check: identity scale not positive definite") // unreachable
	}
	var ws mat.SymDense
	s := draw(w.Sample, trials)
	r := draw(func(dst []float64) {
		gw.RandSymTo(&ws)
		for i := range d {
			for j := i; j < d; j++ {
				dst[simd.PackedIndex(d, i, j)] = ws.At(i, j)
			}
		}
	}, refDraws)
	return extremeRows(fmt.Sprintf("claim19-k%g", k), fmt.Sprintf("W_%d(sI, k=%g), X = max_j |√(λ_j/s) − √k|", d, k),
		"SS18 Claim 19 (App. A.3); Sheffet 2015 Lemma A.3; reference gonum stat/distmat", s, r, alpha, dev,
		"biased sampler: scale s ×%s² (√λ ×%[1]s)", "slack: X/q̂; sampler: dpb.WishartNoise (Bartlett)"), nil
}

// Upsilon checks the operator-norm bound behind Υ (SS18 Section 4.2):
// the top-left d×d block of the sum of m node noises Z = (Z′+Z′ᵀ)/√2,
// Z′ ∈ R^{(d+1)×(d+1)} with i.i.d. N(0, σ²_noise) entries (the Gaussian tree
// release in padded mode), has operator norm ≤ Υ with probability
// ≥ 1 − α/(2n). Four forms of Υ, each at failure probability α/(2n) of the
// setting s:
//
//	printed    Υ   = σ √(2m) (4√d + 2 ln(2n/α))       [Setting.Upsilon]
//	corrected  Υ_c = σ √(2m) (4√d + √(2 ln(2n/α)))    [Setting.UpsilonCorrected]
//	sharp      Υ_s = σ √(2m) (2√d + √(2 ln(2n/α)))    (Gaussian concentration, E‖GOE‖ ≤ 2√d)
//	SF         Υ_f = σ √m (2√d + 2√(ln(4n/α)))         (Sudakov–Fernique E λ_max ≤ 2√d, both tails)
//
// Υ_f is the form of ss18.GaussianCounterCalibrationSharp (which spends
// α/(4n), not α/(2n), on it).
//
// Row "upsilon-tail" tests the statistic ‖N_t block‖ of trials sums of m
// draws of [noise.SymGaussianNoise] against its (1 − α/2n)-quantile
// simulated on refDraws blocks σ√m (G + Gᵀ)/√2, G a d×d matrix of i.i.d.
// normals from an independent PCG stream (the law of §4.2 built
// independently of the packed sampler); control the node noise ×c (c by
// tailVerdict). The four forms are arithmetic rows ("upsilon-printed", …):
// each must be at least the quantile's upper confidence bound. Choose s
// with a moderate α/(2n) (e.g. n = 10, α = 0.1) for the sampled row to
// have power.
func Upsilon(rng *rand.Rand, s ss18.Setting, trials int) (Verdicts, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	z, err := noise.New(noise.Config{Law: noise.SymGaussianLaw, Mode: noise.Simulated, N: s.D + 1, Sigma: s.GaussianSigma()}, rng)
	if err != nil {
		return nil, err
	}
	return upsilonRows(rng, z, s, trials), nil
}

// upsilonRows are Upsilon's rows on the node-noise sampler z (packed
// (d+1)×(d+1) draws, meant to be σ_noise·(Z′+Z′ᵀ)/√2); rng feeds the
// reference's independent PCG stream.
func upsilonRows(rng *rand.Rand, z noise.Noise, s ss18.Setting, trials int) Verdicts {
	d, m := s.D, s.Levels()
	sigma := s.GaussianSigma()
	p := 2 * float64(s.N) / s.AlphaOrDefault()
	sharp := sigma * math.Sqrt(2*float64(m)) * (2*math.Sqrt(float64(d)) + math.Sqrt(2*xmath.Log(p)))
	sf := sigma * math.Sqrt(float64(m)) * (2*math.Sqrt(float64(d)) + 2*math.Sqrt(xmath.Log(2*p)))
	node := make([]float64, simd.PackedLen(d+1))
	sum := make([]float64, simd.PackedLen(d+1))
	block := make([]float64, simd.PackedLen(d))
	e := newEigenSym(d)
	norm := func() float64 {
		e.factor(block, true, false)
		return math.Max(-e.vals[0], e.vals[d-1])
	}
	x := make([]float64, trials)
	for t := range trials {
		clear(sum)
		for range m {
			z.Sample(node)
			for i, v := range node {
				sum[i] += v
			}
		}
		topLeftPacked(block, sum, d)
		x[t] = norm()
	}
	// The reference: σ√m (G + Gᵀ)/√2 from a full d×d G on a PCG stream.
	normal := pcgNormal(rng)
	g := make([]float64, d*d)
	sc := sigma * math.Sqrt(float64(m)) / math.Sqrt2
	ref := make([]float64, refDraws)
	for t := range ref {
		for i := range g {
			g[i] = normal()
		}
		k := 0
		for i := range d {
			for j := i; j < d; j++ {
				block[k] = sc * (g[i*d+j] + g[j*d+i])
				k++
			}
		}
		ref[t] = norm()
	}
	slices.Sort(ref)
	a := 1 / p
	q, at, qUp := refQuantile(ref, a)
	r := make([]float64, trials)
	for i, v := range x {
		r[i] = v / q
	}
	src := "SS18 §4.2 (Υ, before Prop. 11)"
	v := tailVerdict("upsilon-tail", fmt.Sprintf("‖N_t block‖ of m=%d summed node noises (d=%d): P[‖N‖ > q̂] ≤ α/(2n), q̂ = %.4g the simulated (1 − α/2n)-quantile (tested at %.4g)", m, d, q, at),
		src, at, func(f float64) []float64 { return scaled(r, f) },
		func(f float64) float64 {
			i, _ := slices.BinarySearch(ref, q/f)
			for i < len(ref) && ref[i] <= q/f {
				i++
			}
			return float64(len(ref)-i) / float64(len(ref))
		}, "node noise σ×%s", fmt.Sprintf("slack: ‖N‖/q̂; reference %d blocks σ√m(G+Gᵀ)/√2 on an independent PCG stream", refDraws))
	note := fmt.Sprintf("against the upper confidence bound %.4g of the simulated quantile q̂ = %.4g (refRisk 1e-6)", qUp, q)
	return Verdicts{v,
		boundRow("upsilon-printed", fmt.Sprintf("Υ = σ√(2m)(4√d + 2 ln(2n/α)) = %.4g ≥ q_{1−α/2n}(‖N_t block‖), m=%d, d=%d", s.Upsilon(), m, d), src, s.Upsilon(), qUp, true, "as printed (2 ln, not √(2 ln)); "+note),
		boundRow("upsilon-corrected", fmt.Sprintf("Υ_c = σ√(2m)(4√d + √(2 ln(2n/α))) = %.4g ≥ q_{1−α/2n}", s.UpsilonCorrected()), src+"; dpb.UpsilonCorrected", s.UpsilonCorrected(), qUp, true, "deviation as a square root of the log; "+note),
		boundRow("upsilon-sharp", fmt.Sprintf("σ√(2m)(2√d + √(2 ln(2n/α))) = %.4g ≥ q_{1−α/2n}", sharp), "Gaussian concentration (this project)", sharp, qUp, true, "without the factor-2 slack on √d; "+note),
		boundRow("upsilon-sudakov-fernique", fmt.Sprintf("σ√m(2√d + 2√(ln(4n/α))) = %.4g ≥ q_{1−α/2n}", sf), "Sudakov–Fernique + Gaussian concentration (dpb.GaussianCounterCalibrationSharp)", sf, qUp, true, "E λ_max(GOE) ≤ 2√d, √2-Lipschitz, two tails; "+note),
	}
}

// topLeftPacked copies the top-left d×d block of the packed (d+1)×(d+1)
// matrix p into the packed d×d matrix dst.
func topLeftPacked(dst, p []float64, d int) {
	k, q := 0, 0
	for i := 0; i < d; i++ {
		copy(dst[q:q+d-i], p[k:k+d-i])
		q += d - i
		k += d + 1 - i
	}
}

// lastColumnPacked writes the first d entries of the last column of the
// packed (d+1)×(d+1) matrix p into dst.
func lastColumnPacked(dst, p []float64, d int) {
	for i := 0; i < d; i++ {
		dst[i] = p[simd.PackedIndex(d+1, i, d)]
	}
}

// Claim20 checks SS18 Claim 20 (deterministic) on random instances: for
// H ⪰ ρI ≻ 0, any v and 0 ≤ c < ρ,
//
//	‖v‖_{(H−cI)⁻¹} ≤ ‖v‖_{H⁻¹} √(ρ/(ρ−c)).
//
// H = ρI + AAᵀ with A a d×d Gaussian matrix scaled at random, half of the
// instances with c close to ρ. Rounding is allowed a relative 1e-9.
func Claim20(rng *rand.Rand, d, trials int) Verdict {
	e := newEigenSym(d)
	h := make([]float64, d*d)
	a := make([]float64, d*d)
	v := make([]float64, d)
	ratios := make([]float64, trials)
	fails := 0
	for t := range trials {
		rho := xmath.Exp(4 * (rng.Float64() - 0.5))
		scale := xmath.Exp(6 * (rng.Float64() - 0.5))
		for i := range a {
			a[i] = scale * rng.NormFloat64()
		}
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				var s float64
				for l := 0; l < d; l++ {
					s += a[i*d+l] * a[j*d+l]
				}
				h[i*d+j] = s
			}
			h[i*d+i] += rho
		}
		c := rho * rng.Float64()
		if t%2 == 1 {
			c = rho * (1 - 1e-3*rng.Float64())
		}
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		e.factor(h, false, true)
		lhs := math.Sqrt(e.quadInv(v, -c))
		rhs := math.Sqrt(e.quadInv(v, 0)) * math.Sqrt(rho/(rho-c))
		ratios[t] = upperRatio(lhs, rhs)
		if lhs > rhs*(1+1e-9) {
			fails++
		}
	}
	vd := NewVerdict("claim20",
		fmt.Sprintf("‖v‖_{(H−cI)⁻¹} ≤ ‖v‖_{H⁻¹}√(ρ/(ρ−c)) for H ⪰ ρI, d=%d (deterministic)", d),
		"SS18 Claim 20 (App. A.3)", 0, trials, fails, median(ratios), "random instances; half with c near ρ")
	vd.Tail = quantile(ratios, 1)
	return scaleControl(vd, ratios, 1.01, "right side cut by 1%")
}

// EllipticalPotential checks SS18 Lemma 22 (deterministic) on random
// sequences: for U_{t+1} = U_t + x_t x_tᵀ, ‖x_t‖ ≤ L and U_1 ≻ 0,
//
//	Σ_t min{1, ‖x_t‖²_{U_t⁻¹}} ≤ 2 ln(det U_{n+1}/det U_1) ≤ 2d ln((tr U_1 + nL²)/(d det^{1/d} U_1)).
//
// U_1 = λI + BBᵀ (random λ and B), x_t uniform in the ball of radius L or on
// its sphere, n rounds. It returns one verdict per inequality.
func EllipticalPotential(rng *rand.Rand, d, n, trials int) Verdicts {
	u := make([]float64, d*d)
	l := make([]float64, d*d)
	x := make([]float64, d)
	y := make([]float64, d)
	r1 := make([]float64, trials)
	r2 := make([]float64, trials)
	f1, f2 := 0, 0
	for t := range trials {
		L := xmath.Exp(rng.Float64() - 0.5)
		lambda := xmath.Exp(4 * (rng.Float64() - 0.5))
		clear(u)
		for i := 0; i < d; i++ {
			u[i*d+i] = lambda
		}
		for range d / 2 {
			for i := range y {
				y[i] = rng.NormFloat64()
			}
			for i := 0; i < d; i++ {
				for j := 0; j < d; j++ {
					u[i*d+j] += y[i] * y[j]
				}
			}
		}
		var tr float64
		for i := 0; i < d; i++ {
			tr += u[i*d+i]
		}
		copy(l, u)
		linalg.Cholesky(l, d)
		logDet1 := linalg.LogDetChol(l, d)
		var sum float64
		for range n {
			var nrm float64
			for i := range x {
				x[i] = rng.NormFloat64()
				nrm += float64(x[i] * x[i])
			}
			r := L / math.Sqrt(nrm)
			if rng.IntN(2) == 0 {
				r *= xmath.Pow(rng.Float64(), 1/float64(d))
			}
			for i := range x {
				x[i] *= r
			}
			// ‖x‖²_{U⁻¹} = ‖L⁻¹x‖² with U = L Lᵀ.
			copy(l, u)
			linalg.Cholesky(l, d)
			copy(y, x)
			linalg.ForwardSolve(l, d, y)
			sum += math.Min(1, linalg.Dot(y, y))
			for i := 0; i < d; i++ {
				for j := 0; j < d; j++ {
					u[i*d+j] += x[i] * x[j]
				}
			}
		}
		copy(l, u)
		linalg.Cholesky(l, d)
		mid := 2 * (linalg.LogDetChol(l, d) - logDet1)
		right := 2 * float64(d) * xmath.Log((tr+float64(float64(n)*L*L))/(float64(d)*xmath.Exp(logDet1/float64(d))))
		r1[t] = upperRatio(sum, mid)
		r2[t] = upperRatio(mid, right)
		if sum > mid*(1+1e-9) {
			f1++
		}
		if mid > right*(1+1e-9) {
			f2++
		}
	}
	ref := "SS18 Lemma 22 (App. B)"
	v1 := NewVerdict("lemma22-potential", fmt.Sprintf("Σ min{1, ‖x_t‖²_{U_t⁻¹}} ≤ 2 ln(det U_{n+1}/det U_1), d=%d, n=%d (deterministic)", d, n),
		ref, 0, trials, f1, median(r1), "random U_1 and ‖x_t‖ ≤ L")
	v1.Tail = quantile(r1, 1)
	v2 := NewVerdict("lemma22-trace-det", "2 ln(det U_{n+1}/det U_1) ≤ 2d ln((tr U_1 + nL²)/(d det^{1/d} U_1)) (deterministic)",
		ref, 0, trials, f2, median(r2), "trace–determinant inequality")
	v2.Tail = quantile(r2, 1)
	v1 = scaleControl(v1, r1, 2, "bound halved")
	v2 = scaleControl(v2, r2, 2, "bound halved")
	return Verdicts{v1, v2}
}
