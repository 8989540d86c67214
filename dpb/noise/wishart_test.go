package noise

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Statistical tests of the matrix noises. Every assertion is calibrated to a
// false-failure probability of about 1e-5 (stated at each one); seeds are
// fixed, so a failure is reproducible.

const (
	// zTwoSided1e5 is the two-sided 1 − 1e-5 normal quantile: P(|N(0,1)| > z) = 1e-5.
	zTwoSided1e5 = 4.41717
	// ksC1e5 solves 2·exp(−2c²) = 1e-5. By the Dvoretzky–Kiefer–Wolfowitz–
	// Massart inequality P(√N·D_N > c) <= 2exp(−2c²), so a one-sample KS test
	// with threshold c/√N fails spuriously with probability <= 1e-5. For two
	// samples the same c·√((N+M)/(NM)) is the asymptotic (Kolmogorov) level.
	ksC1e5 = 2.47037
)

// ksOneSample returns the Kolmogorov–Smirnov statistic of x (sorted in
// place) against the continuous CDF cdf.
func ksOneSample(x []float64, cdf func(float64) float64) float64 {
	sort.Float64s(x)
	n := float64(len(x))
	var d float64
	for i, v := range x {
		f := cdf(v)
		d = math.Max(d, math.Max(float64(i+1)/n-f, f-float64(i)/n))
	}
	return d
}

// ksTwoSample returns the two-sample KS statistic of x and y (sorted in place).
func ksTwoSample(x, y []float64) float64 {
	sort.Float64s(x)
	sort.Float64s(y)
	nx, ny := float64(len(x)), float64(len(y))
	var d float64
	i, j := 0, 0
	for i < len(x) && j < len(y) {
		v := math.Min(x[i], y[j])
		for i < len(x) && x[i] <= v {
			i++
		}
		for j < len(y) && y[j] <= v {
			j++
		}
		d = math.Max(d, math.Abs(float64(i)/nx-float64(j)/ny))
	}
	return d
}

// momentCheck accumulates the sample mean and variance of one variable and
// the fourth central moment needed for the standard error of the variance.
type momentCheck struct{ x []float64 }

// sampleColumns draws N samples of noise and returns one momentCheck per
// coordinate, holding that coordinate's N values.
func sampleColumns(noise Noise, N int) []momentCheck {
	cols := make([]momentCheck, noise.Dim())
	for i := range cols {
		cols[i].x = make([]float64, N)
	}
	buf := make([]float64, noise.Dim())
	for r := 0; r < N; r++ {
		noise.Sample(buf)
		for i, v := range buf {
			cols[i].x[r] = v
		}
	}
	return cols
}

// checkUncorrelated fails t for every pair of coordinates whose sample
// covariance is further than zTwoSided1e5 standard errors (sd(XY)/√N) from
// 0 (false-failure probability ≈ 1e-5 per pair).
func checkUncorrelated(t *testing.T, cols []momentCheck) {
	t.Helper()
	for p := range cols {
		for q := p + 1; q < len(cols); q++ {
			cov, se := sampleCov(cols[p].x, cols[q].x)
			if math.Abs(cov) > zTwoSided1e5*se {
				t.Errorf("Cov(packed %d, %d) = %.4g, want 0 ± %.3g", p, q, cov, zTwoSided1e5*se)
			}
		}
	}
}

func (m *momentCheck) meanVar() (mean, v, seMean, seVar float64) {
	n := float64(len(m.x))
	for _, x := range m.x {
		mean += x
	}
	mean /= n
	var m2, m4 float64
	for _, x := range m.x {
		d := (x - mean) * (x - mean)
		m2 += d
		m4 += d * d
	}
	m2 /= n
	m4 /= n
	// The sample mean has variance σ²/N; the sample variance has variance
	// ≈ (μ₄ − σ⁴)/N (delta method), both close to normal at these N.
	return mean, m2 * n / (n - 1), math.Sqrt(m2 / n), math.Sqrt((m4 - m2*m2) / n)
}

func TestGammaSamplerKS(t *testing.T) {
	const N = 20000
	for _, a := range []float64{0.05, 0.3, 1, 2.5, 70000} {
		f := NewFastRand(bandit.Stream(1, uint64(a*1000)))
		g := newGammaSampler(a)
		x := make([]float64, N)
		for i := range x {
			x[i] = g.draw(&f)
			if !(x[i] > 0) {
				t.Fatalf("a=%v: draw %v not > 0", a, x[i])
			}
		}
		dist := distuv.Gamma{Alpha: a, Beta: 1}
		// DKW–Massart: false-failure probability <= 1e-5 per shape.
		if d, tol := ksOneSample(x, dist.CDF), ksC1e5/math.Sqrt(N); d > tol {
			t.Errorf("Gamma(%v): KS distance %.4f > %.4f", a, d, tol)
		}
	}
}

// TestGammaSqueeze checks the gamma sampler's second squeeze: the bound
// x²/2 + d − d v + d ln v = d·φ(t) ≥ −x⁴/(108 d·min(1, 1+t)⁴) (t = c x) and
// that the largest u the squeeze accepts, the float just below squeezeBound,
// has ln u < d·φ(t), so the exact test accepts it too — on a grid of t over
// (−1, 4] for several shapes, with φ evaluated without cancellation (its
// series 3 Σ_{k≥4} (−1)^{k+1} t^k/k for |t| < 1/2). Deterministic.
func TestGammaSqueeze(t *testing.T) {
	phi := func(t float64) float64 {
		if math.Abs(t) >= 0.5 {
			return 4.5*t*t + 1 - (1+t)*(1+t)*(1+t) + 3*math.Log1p(t)
		}
		var s float64
		p := t * t * t
		for k := 4; k < 80; k++ {
			p *= t
			if k%2 == 1 {
				s += p / float64(k)
			} else {
				s -= p / float64(k)
			}
		}
		return 3 * s
	}
	for _, a := range []float64{0.05, 1, 2.5, 70000, 1e7} {
		g := newGammaSampler(a)
		for i := 1; i < 5000; i++ {
			tt := -1 + 5*float64(i)/5000
			x := tt / g.c
			m := min(1, 1+tt)
			rhs := g.d * phi(tt)
			if lower := g.q * x * x * x * x / (m * m * m * m); lower > rhs {
				t.Fatalf("a=%v t=%v: bound %v above d·φ = %v", a, tt, lower, rhs)
			}
			u := math.Nextafter(g.squeezeBound(x), 0)
			if u > 0 && !(math.Log(u) < rhs) {
				t.Fatalf("a=%v t=%v: squeeze accepts u = %v, but ln u = %v >= d·φ = %v", a, tt, u, math.Log(u), rhs)
			}
		}
	}
}

func TestWishartMoments(t *testing.T) {
	N := 100000
	if testing.Short() {
		N = 40000
	}
	for _, tc := range []struct {
		n        int
		scale, k float64
	}{
		{4, 1.7, 3.5},  // k barely above n−1: last χ² has 0.5 dof (gamma shape 0.25)
		{3, 2, 139115}, // the paper's order of magnitude
		{1, 0.5, 0.2},  // n = 1: W = s·χ²(k)
		{5, 1, 12},     // integer k
	} {
		t.Run(fmt.Sprintf("n=%d,k=%v", tc.n, tc.k), func(t *testing.T) {
			w, err := New(Config{Law: WishartLaw, Mode: Simulated, N: tc.n, Scale: tc.scale, DF: tc.k}, bandit.Stream(2, uint64(tc.n)))
			if err != nil {
				t.Fatal(err)
			}
			cols := sampleColumns(w, N)
			s2 := tc.scale * tc.scale
			for i := 0; i < tc.n; i++ {
				for j := i; j < tc.n; j++ {
					p := simd.PackedIndex(tc.n, i, j)
					wantMean, wantVar := 0.0, tc.k*s2 // Var W_ij = k s² (i ≠ j)
					if i == j {
						wantMean, wantVar = tc.k*tc.scale, 2*tc.k*s2 // E = k s, Var = 2k s²
					}
					mean, v, seM, seV := cols[p].meanVar()
					// Each of the two assertions: false-failure ≈ 1e-5 (normal approximation).
					if math.Abs(mean-wantMean) > zTwoSided1e5*seM {
						t.Errorf("E W[%d,%d] = %.6g, want %.6g ± %.3g", i, j, mean, wantMean, zTwoSided1e5*seM)
					}
					if math.Abs(v-wantVar) > zTwoSided1e5*seV {
						t.Errorf("Var W[%d,%d] = %.6g, want %.6g ± %.3g", i, j, v, wantVar, zTwoSided1e5*seV)
					}
				}
			}
			// Distinct entries of W_n(sI, k) are uncorrelated:
			// Cov(W_ij, W_kl) = k s²(δ_ik δ_jl + δ_il δ_jk). Check every pair;
			// the standard error of a sample covariance is sd(XY)/√N. Each pair:
			// false-failure ≈ 1e-5.
			checkUncorrelated(t, cols)
		})
	}
}

// sampleCov returns the sample covariance of x and y and its standard error.
func sampleCov(x, y []float64) (cov, se float64) {
	n := float64(len(x))
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= n
	my /= n
	var s, s2 float64
	for i := range x {
		p := (x[i] - mx) * (y[i] - my)
		s += p
		s2 += p * p
	}
	cov = s / n
	return cov, math.Sqrt((s2/n - cov*cov) / n)
}

// TestWishartQuadraticForm checks the exact law of linear functionals of W:
// for a fixed unit vector v, vᵀWv/s ~ χ²(k), and tr(W)/s ~ χ²(nk) (Muirhead
// 1982, Thm 3.2.8 and the additivity of the diagonal under the I scale).
// Both involve every Bartlett factor entry, so a wrong χ² degree or a missing
// normal shows up.
func TestWishartQuadraticForm(t *testing.T) {
	const N = 20000
	for _, tc := range []struct {
		n        int
		scale, k float64
	}{
		{3, 2, 2.5},
		{6, 2, 139115},
		{17, 0.3, 40},
	} {
		t.Run(fmt.Sprintf("n=%d,k=%v", tc.n, tc.k), func(t *testing.T) {
			rng := bandit.Stream(3, uint64(tc.n))
			w, err := New(Config{Law: WishartLaw, Mode: Simulated, N: tc.n, Scale: tc.scale, DF: tc.k}, rng)
			if err != nil {
				t.Fatal(err)
			}
			// v: a fixed unit vector with unequal entries.
			v := make([]float64, tc.n)
			var nv float64
			for i := range v {
				v[i] = float64(i+1) * math.Pow(-1, float64(i))
				nv += v[i] * v[i]
			}
			for i := range v {
				v[i] /= math.Sqrt(nv)
			}
			buf := make([]float64, simd.PackedLen(tc.n))
			full := make([]float64, tc.n*tc.n)
			quad := make([]float64, N)
			tr := make([]float64, N)
			for r := 0; r < N; r++ {
				w.Sample(buf)
				simd.UnpackSymTo(full, buf, tc.n)
				var q, trace float64
				for i := 0; i < tc.n; i++ {
					trace += full[i*tc.n+i]
					for j := 0; j < tc.n; j++ {
						q += v[i] * full[i*tc.n+j] * v[j]
					}
				}
				quad[r] = q / tc.scale
				tr[r] = trace / tc.scale
			}
			tol := ksC1e5 / math.Sqrt(N)
			// DKW–Massart: each KS assertion fails spuriously with probability <= 1e-5.
			if d := ksOneSample(quad, distuv.ChiSquared{K: tc.k}.CDF); d > tol {
				t.Errorf("vᵀWv/s: KS distance to χ²(%v) %.4f > %.4f", tc.k, d, tol)
			}
			if d := ksOneSample(tr, distuv.ChiSquared{K: float64(tc.n) * tc.k}.CDF); d > tol {
				t.Errorf("tr W/s: KS distance to χ²(%v) %.4f > %.4f", float64(tc.n)*tc.k, d, tol)
			}
		})
	}
}

// TestWishartEigenvaluesVsGram compares the laws of the extreme eigenvalues
// of the Bartlett sampler with those of the definition, the Gram matrix of k
// independent N(0, s I) vectors (integer k), by two-sample KS tests.
func TestWishartEigenvaluesVsGram(t *testing.T) {
	const (
		n     = 3
		k     = 5
		scale = 1.5
		N     = 8000
	)
	rngB, rngG := bandit.Stream(4, 1), bandit.Stream(4, 2)
	wAny, err := New(Config{Law: WishartLaw, Mode: Simulated, N: n, Scale: scale, DF: k}, rngB)
	if err != nil {
		t.Fatal(err)
	}
	w := wAny.(*WishartNoise)
	buf := make([]float64, simd.PackedLen(n))
	g := make([]float64, n)
	var eig mat.EigenSym
	vals := make([]float64, n)
	minB, maxB := make([]float64, N), make([]float64, N)
	minG, maxG := make([]float64, N), make([]float64, N)
	for r := 0; r < N; r++ {
		w.Sample(buf)
		if !eig.Factorize(simd.PackedToSym(buf, n), false) {
			t.Fatal("eigendecomposition failed")
		}
		eig.Values(vals) // ascending
		minB[r], maxB[r] = vals[0], vals[n-1]

		clear(buf)
		for range k {
			for i := range g {
				g[i] = math.Sqrt(scale) * rngG.NormFloat64()
			}
			simd.PackOuter(buf, g, 1)
		}
		if !eig.Factorize(simd.PackedToSym(buf, n), false) {
			t.Fatal("eigendecomposition failed")
		}
		eig.Values(vals)
		minG[r], maxG[r] = vals[0], vals[n-1]
	}
	// Asymptotic two-sample KS level: false-failure ≈ 1e-5 per assertion.
	tol := ksC1e5 * math.Sqrt(2.0/N)
	if d := ksTwoSample(minB, minG); d > tol {
		t.Errorf("smallest eigenvalue: KS distance Bartlett vs Gram %.4f > %.4f", d, tol)
	}
	if d := ksTwoSample(maxB, maxG); d > tol {
		t.Errorf("largest eigenvalue: KS distance Bartlett vs Gram %.4f > %.4f", d, tol)
	}
}

func TestWishartErrors(t *testing.T) {
	rng := bandit.Stream(5, 0)
	for _, tc := range []struct {
		n        int
		scale, k float64
	}{
		{0, 1, 5},
		{3, 0, 5},
		{3, -1, 5},
		{3, math.NaN(), 5},
		{3, math.Inf(1), 5},
		{3, 1, 2},
		{3, 1, 1.5},
		{3, 1, math.NaN()},
		{3, 1, math.Inf(1)},
	} {
		if _, err := New(Config{Law: WishartLaw, Mode: Simulated, N: tc.n, Scale: tc.scale, DF: tc.k}, rng); err == nil {
			t.Errorf("NewWishartNoise(%d, %v, %v) accepted", tc.n, tc.scale, tc.k)
		}
	}
	wAny, err := New(Config{Law: WishartLaw, Mode: Simulated, N: 3, Scale: 2, DF: 2.01}, rng)
	if err != nil {
		t.Fatalf("k just above n−1 rejected: %v", err)
	}
	w := wAny.(*WishartNoise)
	if w.Dim() != 6 || w.Scale() != 2 || w.DoF() != 2.01 || w.N() != 3 {
		t.Errorf("accessors: Dim %d Scale %v DoF %v N %d", w.Dim(), w.Scale(), w.DoF(), w.N())
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Sample with wrong length did not panic")
			}
		}()
		w.Sample(make([]float64, 5))
	}()
}

func TestWishartDeterministicAndZeroAlloc(t *testing.T) {
	a, _ := New(Config{Law: WishartLaw, Mode: Simulated, N: 6, Scale: 2, DF: 139115}, bandit.Stream(6, 0))
	b, _ := New(Config{Law: WishartLaw, Mode: Simulated, N: 6, Scale: 2, DF: 139115}, bandit.Stream(6, 0))
	x, y := make([]float64, 21), make([]float64, 21)
	for range 10 {
		a.Sample(x)
		b.Sample(y)
		for i := range x {
			if x[i] != y[i] {
				t.Fatalf("same stream, different draws: %v vs %v", x, y)
			}
		}
	}
	if allocs := testing.AllocsPerRun(100, func() { a.Sample(x) }); allocs != 0 {
		t.Errorf("Sample allocates %v times per call", allocs)
	}
	// A draw is positive definite (k > n−1).
	var ch mat.Cholesky
	if !ch.Factorize(simd.PackedToSym(x, 6)) {
		t.Error("Wishart draw not positive definite")
	}
}

func BenchmarkWishartSample(b *testing.B) {
	for _, n := range []int{6, 17, 65} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			w, err := New(Config{Law: WishartLaw, Mode: Simulated, N: n, Scale: 2, DF: 139115}, bandit.Stream(7, 0))
			if err != nil {
				b.Fatal(err)
			}
			dst := make([]float64, simd.PackedLen(n))
			b.ReportAllocs()
			cpu := testkit.StartCPUClock()
			for b.Loop() {
				w.Sample(dst)
			}
			testkit.ReportCPU(b, cpu)
		})
	}
}

// TestWishartBlockLaw checks the structure the regularizers use: partition
// W ~ W_{d+1}(sI, k) into H (top-left d×d), h (last column, first d entries)
// and w (corner). Then (Muirhead 1982, Thm 3.2.10; the proof of SS18
// Prop. 9, where hᵀH⁻¹h is a projected spherical Gaussian)
//
//	hᵀH⁻¹h / s ~ χ²(d),   (w − hᵀH⁻¹h) / s ~ χ²(k − d),
//
// so ‖h‖_{H⁻¹} ≤ √s (√d + √(2 ln(1/α′))) w.p. ≥ 1−α′ is Prop. 9's γ.
func TestWishartBlockLaw(t *testing.T) {
	const N = 20000
	for _, tc := range []struct {
		d        int
		scale, k float64
	}{
		{3, 2, 5.5},
		{5, 2, 139115},
	} {
		t.Run(fmt.Sprintf("d=%d,k=%v", tc.d, tc.k), func(t *testing.T) {
			n := tc.d + 1
			w, err := New(Config{Law: WishartLaw, Mode: Simulated, N: n, Scale: tc.scale, DF: tc.k}, bandit.Stream(8, uint64(tc.d)))
			if err != nil {
				t.Fatal(err)
			}
			buf := make([]float64, simd.PackedLen(n))
			H := mat.NewSymDense(tc.d, nil)
			h := mat.NewVecDense(tc.d, nil)
			x := mat.NewVecDense(tc.d, nil)
			var ch mat.Cholesky
			proj := make([]float64, N)
			schur := make([]float64, N)
			for r := 0; r < N; r++ {
				w.Sample(buf)
				for i := 0; i < tc.d; i++ {
					for j := i; j < tc.d; j++ {
						H.SetSym(i, j, buf[simd.PackedIndex(n, i, j)])
					}
					h.SetVec(i, buf[simd.PackedIndex(n, i, tc.d)])
				}
				if !ch.Factorize(H) {
					t.Fatal("H not positive definite")
				}
				if err := ch.SolveVecTo(x, h); err != nil {
					t.Fatal(err)
				}
				q := mat.Dot(h, x)
				proj[r] = q / tc.scale
				schur[r] = (buf[simd.PackedIndex(n, tc.d, tc.d)] - q) / tc.scale
			}
			tol := ksC1e5 / math.Sqrt(N)
			// DKW–Massart: each KS assertion fails spuriously with probability <= 1e-5.
			if dist := ksOneSample(proj, distuv.ChiSquared{K: float64(tc.d)}.CDF); dist > tol {
				t.Errorf("hᵀH⁻¹h/s: KS distance to χ²(%d) %.4f > %.4f", tc.d, dist, tol)
			}
			if dist := ksOneSample(schur, distuv.ChiSquared{K: tc.k - float64(tc.d)}.CDF); dist > tol {
				t.Errorf("(w − hᵀH⁻¹h)/s: KS distance to χ²(%v) %.4f > %.4f", tc.k-float64(tc.d), dist, tol)
			}
		})
	}
}

// TestWishartClaim19 counts how often an eigenvalue of W ~ W_d(sI, k) leaves
// the interval of SS18 Claim 19, s(√k ± (√d + √(2 ln(2/α))))², which should
// happen with probability at most α.
func TestWishartClaim19(t *testing.T) {
	const (
		d     = 5
		k     = 60
		scale = 2.0
		alpha = 0.05
		N     = 4000
	)
	w, err := New(Config{Law: WishartLaw, Mode: Simulated, N: d, Scale: scale, DF: k}, bandit.Stream(9, 0))
	if err != nil {
		t.Fatal(err)
	}
	dev := math.Sqrt(d) + math.Sqrt(2*math.Log(2/alpha))
	lo := scale * (math.Sqrt(k) - dev) * (math.Sqrt(k) - dev)
	hi := scale * (math.Sqrt(k) + dev) * (math.Sqrt(k) + dev)
	buf := make([]float64, simd.PackedLen(d))
	vals := make([]float64, d)
	var eig mat.EigenSym
	out := 0
	for range N {
		w.Sample(buf)
		if !eig.Factorize(simd.PackedToSym(buf, d), false) {
			t.Fatal("eigendecomposition failed")
		}
		eig.Values(vals)
		if vals[0] < lo || vals[d-1] > hi {
			out++
		}
	}
	// If the violation probability is p <= α, out ~ Binomial(N, p) and, by
	// the Chernoff bound, P(out >= 270) <= exp(−N·KL(270/N ‖ α)) = 8.5e-6:
	// the false-failure probability is below 1e-5.
	if out >= 270 {
		t.Errorf("Claim 19 interval [%.4g, %.4g] violated %d/%d times, want <= α·N = %v", lo, hi, out, N, alpha*N)
	}
	t.Logf("Claim 19 at α = %v: %d/%d violations (the bound is loose)", alpha, out, N)
}

// TestBartlettProductSameBits pins bartlett6To to the loop it replaces at
// n = 6 (BartlettProductTo), on 10⁵ factors: standard normals, values with
// exponents over ±2⁴⁰, and exact zeros; every entry's bits equal.
// Deterministic: no false failures.
func TestBartlettProductSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 21))
	var a [15]float64
	var g [6]float64
	var got [21]float64
	want := make([]float64, 21)
	draw := func(mode int) float64 {
		switch mode {
		case 0:
			return rng.NormFloat64()
		case 1:
			return math.Ldexp(rng.NormFloat64(), rng.IntN(81)-40)
		default:
			if rng.IntN(3) == 0 {
				return 0
			}
			return rng.NormFloat64()
		}
	}
	for rep := range 100000 {
		mode := rep % 3
		for i := range a {
			a[i] = draw(mode)
		}
		for i := range g {
			g[i] = math.Abs(draw(mode))
		}
		s := math.Ldexp(1+rng.Float64(), rng.IntN(21)-10)
		bartlett6To(&got, &a, &g, s)
		BartlettProductTo(want, a[:], g[:], s)
		if p := testkit.FirstDiff(got[:], want); p >= 0 {
			t.Fatalf("rep %d: entry %d is %v, the loop gives %v", rep, p, got[p], want[p])
		}
	}
}
