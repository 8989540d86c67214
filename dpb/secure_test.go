package dpb

import (
	"math"
	"math/big"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// The secure samplers draw from crypto/rand and cannot be seeded, so these
// tests are not reproducible bit for bit; each goodness-of-fit test fails a
// correct sampler with probability 10⁻⁶ (its p-value threshold).
const secureAlpha = 1e-6

// chiSquareP returns the p-value of Pearson's χ² test of counts against
// probabilities p (bins with expectation below 5 are pooled into the last).
func chiSquareP(t *testing.T, counts []int, p []float64, n int) float64 {
	t.Helper()
	var stat, poolE float64
	var poolO, bins int
	for i := range counts {
		e := p[i] * float64(n)
		if e < 5 {
			poolE += e
			poolO += counts[i]
			continue
		}
		d := float64(counts[i]) - e
		stat += d * d / e
		bins++
	}
	if poolE > 0 {
		d := float64(poolO) - poolE
		stat += d * d / poolE
		bins++
	}
	return 1 - distuv.ChiSquared{K: float64(bins - 1)}.CDF(stat)
}

// histogram draws n integers and counts them on [−w, w] (the two ends
// collect the tails).
func histogram(n, w int, draw func() int64) []int {
	c := make([]int, 2*w+1)
	for range n {
		k := max(-w, min(w, int(draw())))
		c[k+w]++
	}
	return c
}

// pmfOnWindow returns the law w(k)/Σw on the integers folded onto [−w, w]
// (tails into the ends), summing the weight out to |k| = 40·w.
func pmfOnWindow(w int, weight func(k int) float64) []float64 {
	p := make([]float64, 2*w+1)
	total := 0.0
	for k := -40 * w; k <= 40*w; k++ {
		v := weight(k)
		total += v
		p[max(-w, min(w, k))+w] += v
	}
	for i := range p {
		p[i] /= total
	}
	return p
}

func TestSecureDiscreteLaplaceLaw(t *testing.T) {
	for _, tau := range []uint64{1, 3, 10} {
		c := newCryptoSource()
		const n = 100000
		w := int(6 * tau)
		counts := histogram(n, w, func() int64 { return c.discreteLaplace(tau) })
		p := pmfOnWindow(w, func(k int) float64 { return math.Exp(-math.Abs(float64(k)) / float64(tau)) })
		if pv := chiSquareP(t, counts, p, n); !(pv >= secureAlpha) {
			t.Errorf("discrete Laplace τ=%d: χ² p-value %.3g < %g", tau, pv, secureAlpha)
		}
	}
}

func TestSecureDiscreteGaussianLaw(t *testing.T) {
	for _, sigma := range []uint64{1, 3, 8} {
		s := &SecureNoise{gauss: true, sigma: []uint64{sigma}, grid: 1, src: newCryptoSource()}
		const n = 100000
		w := int(4 * sigma)
		counts := histogram(n, w, func() int64 { return s.SampleInt(0) })
		s2 := float64(sigma * sigma)
		p := pmfOnWindow(w, func(k int) float64 { return math.Exp(-float64(k*k) / (2 * s2)) })
		if pv := chiSquareP(t, counts, p, n); !(pv >= secureAlpha) {
			t.Errorf("discrete Gaussian σ=%d: χ² p-value %.3g < %g", sigma, pv, secureAlpha)
		}
	}
}

// TestBernoulliExp checks P[Bernoulli(exp(−n/d)) = 1] for γ below, at and
// above 1 (both code paths, and the big-integer one), with a two-sided
// binomial test at level 10⁻⁶ (|z| > 4.9).
func TestBernoulliExp(t *testing.T) {
	c := newCryptoSource()
	const n, n_ = 40000, 40000
	for _, g := range [][2]uint64{{0, 1}, {1, 3}, {1, 1}, {7, 2}, {5, 1}} {
		for _, big_ := range []bool{false, true} {
			hits := 0
			for range n {
				var b bool
				if big_ {
					b = c.bernoulliExpBig(new(big.Int).SetUint64(g[0]), new(big.Int).SetUint64(g[1]))
				} else {
					b = c.bernoulliExp(g[0], g[1])
				}
				if b {
					hits++
				}
			}
			p := math.Exp(-float64(g[0]) / float64(g[1]))
			// The 128-bit path with γ = n/d beyond 64 bits: d = g₁·2¹⁰⁰.
			if !big_ {
				d := u128{g[1] << 36, 0}
				n := u128{g[0] << 36, 0}
				h128 := 0
				for range n_ {
					if c.bernoulliExp128(n, d) {
						h128++
					}
				}
				if z := (float64(h128)/n_ - p) / math.Sqrt(p*(1-p)/n_+1e-300); p < 1 && !(math.Abs(z) <= 4.9) {
					t.Errorf("128-bit γ=%d/%d: frequency %.4f, want %.4f", g[0], g[1], float64(h128)/n_, p)
				}
			}
			sd := math.Sqrt(p * (1 - p) / n)
			got := float64(hits) / n
			if p == 1 {
				if hits != n {
					t.Errorf("γ=0 (big %v): %d of %d", big_, hits, n)
				}
				continue
			}
			if z := (got - p) / sd; !(math.Abs(z) <= 4.9) {
				t.Errorf("γ=%d/%d (big %v): frequency %.4f, want %.4f (z = %.2f)", g[0], g[1], big_, got, p, z)
			}
		}
	}
}

// TestSecureTreeReleasesOnGrid checks that a tree with secure noise releases
// exact grid multiples, that release − rounded exact sum is an integer number
// of grid steps, and that the data are rounded (ties to even).
func TestSecureTreeReleasesOnGrid(t *testing.T) {
	nz, err := NewSecureLaplaceNoise(2, 3.5, 1)
	if err != nil {
		t.Fatal(err)
	}
	g := nz.Grid()
	if g != math.Ldexp(1, 1-secureGridBits) { // 3.5 = 0.875·2², so g = 2^(2−1−20)
		t.Fatalf("grid %g, want 2^-19", g)
	}
	// τ covers 3.5·(1 + 2g)/g.
	if want := 3.5 * (1 + 2*g) / g; !(float64(nz.Tau()) >= want && float64(nz.Tau()) < want+1) {
		t.Fatalf("τ = %d, want ⌈%g⌉", nz.Tau(), want)
	}
	tree, err := NewTreeSum(2, 8, nz, Padded)
	if err != nil {
		t.Fatal(err)
	}
	z := []float64{0.3, 1}
	rel := make([]float64, 2)
	for range 8 {
		tree.Add(z)
		tree.SumTo(rel)
		for j, v := range rel {
			k := v / g
			if k != math.Trunc(k) || math.IsInf(k, 0) {
				t.Fatalf("release %v is not a multiple of the grid %g", v, g)
			}
			e := tree.Exact()[j] / g
			if e != math.Trunc(e) {
				t.Fatalf("exact sum %v not rounded to the grid", tree.Exact()[j])
			}
		}
	}
	if want := 8 * math.RoundToEven(0.3/g) * g; tree.Exact()[0] != want {
		t.Errorf("exact sum %v, want %v", tree.Exact()[0], want)
	}
}

// TestSecureNoiseScale checks the calibration of the constructors and the
// variance of the released noise at the real scale: the sample variance of
// 20000 secure Lap(2) draws is within 6 standard errors of 2b²(1+ϵ) (the
// fourth moment of Lap(b) is 24b⁴, so the standard error is
// √(20b⁴/n)); a correct sampler fails with probability below 10⁻⁸.
func TestSecureNoiseScale(t *testing.T) {
	const b, n = 2.0, 20000
	nz, err := NewSecureLaplaceNoise(1, b, 1)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, 1)
	var s2 float64
	for range n {
		nz.Sample(x)
		s2 += x[0] * x[0]
	}
	v := s2 / n
	want := 2 * b * b
	if se := math.Sqrt(20 * b * b * b * b / n); !(math.Abs(v-want) <= 6*se) {
		t.Errorf("variance %.4f, want %.4f ± %.4f", v, want, 6*se)
	}
	// The discrete Gaussian at its real grid (σ ≈ 2²⁰ steps): variance σ²
	// within 6 standard errors (√(2/n)σ²).
	gn, err := NewSecureGaussianNoise([]float64{1.5}, 1)
	if err != nil {
		t.Fatal(err)
	}
	s2 = 0
	for range n {
		gn.Sample(x)
		s2 += x[0] * x[0]
	}
	sg2 := float64(gn.Sigmas()[0]) * gn.Grid()
	sg2 *= sg2
	if v := s2 / n; !(math.Abs(v-sg2) <= 6*math.Sqrt(2.0/n)*sg2) {
		t.Errorf("discrete Gaussian variance %.4f, want %.4f", v, sg2)
	}
	sg, err := NewSecureSymGaussianNoise(3, 5, math.Sqrt2)
	if err != nil {
		t.Fatal(err)
	}
	g := sg.Grid()
	for i, s := range sg.Sigmas() {
		base := 5.0
		if i == 0 || i == 3 || i == 5 { // packed diagonal of a 3×3 matrix
			base = 5 * math.Sqrt2
		}
		f := 1 + g*math.Sqrt(6)*math.Sqrt2/math.Sqrt2
		if want := base * f / g; !(float64(s) >= want && float64(s) < want+1) {
			t.Errorf("σ_%d = %d grid steps, want ⌈%g⌉", i, s, want)
		}
	}
}

func TestSecureNoiseErrors(t *testing.T) {
	if _, err := NewSecureLaplaceNoise(0, 1, 1); err == nil {
		t.Error("dimension 0 accepted")
	}
	if _, err := NewSecureLaplaceNoise(1, math.NaN(), 1); err == nil {
		t.Error("NaN scale accepted")
	}
	if _, err := NewSecureLaplaceNoise(1, 1, 0); err == nil {
		t.Error("zero sensitivity accepted")
	}
	if _, err := NewSecureGaussianNoise([]float64{1, -1}, 1); err == nil {
		t.Error("negative sigma accepted")
	}
	if _, err := NewSecureSymGaussianNoise(2, math.Inf(1), 1); err == nil {
		t.Error("infinite sigma accepted")
	}
}

// TestSecurePolicies runs each policy with NoiseSecure: DP-UCB's released
// totals lie on its grid, DP-FTRL and the Gaussian tree run, the Wishart
// tree is rejected, and an unknown mode is an error.
func TestSecurePolicies(t *testing.T) {
	rng := Stream(1, 1)
	p, err := NewDPUCB(DPUCBConfig{Arms: 2, Horizon: 64, Epsilon: 1, Noise: NoiseSecure}, rng)
	if err != nil {
		t.Fatal(err)
	}
	g := p.Tree(0).nodeNoise().(Gridded).Grid()
	r := &Round{K: 2}
	for ti := 1; ti <= 64; ti++ {
		r.T = ti
		a := p.Choose(r)
		p.Update(r, a, 0.3)
	}
	for a, v := range p.PrivateTotals() {
		if k := v / g; k != math.Trunc(k) {
			t.Errorf("arm %d: private total %v not on the grid %g", a, v, g)
		}
	}
	f, err := NewFTRL(FTRLConfig{Dim: 3, Horizon: 16, Epsilon: 1, Noise: NoiseSecure}, rng)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Observe([]float64{0.2, 0.5, 1}); err != nil {
		t.Fatal(err)
	}
	fp, err := NewFTPL(FTPLConfig{Dim: 3, Horizon: 16, Epsilon: 1, Delta: 0.1, Noise: NoiseSecure}, rng)
	if err != nil {
		t.Fatal(err)
	}
	if err := fp.Observe([]float64{0.2, 0.5, 1}); err != nil {
		t.Fatal(err)
	}
	s := SS18Setting{D: 2, N: 16, Epsilon: 1, Delta: 0.1, Lt2: 2}
	if _, err := NewSS18Policy(SS18PolicyConfig{Alg: SS18Gaussian, Setting: s, Noise: NoiseSecure}, rng); err != nil {
		t.Errorf("secure Gaussian tree: %v", err)
	}
	if _, err := NewSS18Policy(SS18PolicyConfig{Alg: SS18Wishart, Setting: s, Noise: NoiseSecure}, rng); err == nil {
		t.Error("secure Wishart tree accepted (there is no secure Wishart sampler)")
	}
	if _, err := NewDPUCB(DPUCBConfig{Arms: 2, Horizon: 64, Epsilon: 1, Noise: NoiseMode(7)}, rng); err == nil {
		t.Error("unknown noise mode accepted")
	}
}

// TestSecureOnlyOnTrees: the counters that weight node draws by
// non-integer coefficients reject secure noise, the tree counters take it,
// and a secure own-stream policy refuses to be saved or restored.
func TestSecureOnlyOnTrees(t *testing.T) {
	nz, err := NewSecureLaplaceNoise(1, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range CounterKinds {
		_, err := NewCounter(k, 1, 16, nz)
		tree := k == CounterTree || k == CounterTreePadded
		if tree && err != nil {
			t.Errorf("%v counter rejected secure noise: %v", k, err)
		}
		if !tree && err == nil {
			t.Errorf("%v counter accepted secure noise", k)
		}
	}
	p, err := NewAnytimeDPUCB(DPUCBConfig{Arms: 2, Horizon: 8, Epsilon: 1, Noise: NoiseSecure}, rand.NewChaCha8([32]byte{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.MarshalBinary(); err == nil {
		t.Error("a secure AnytimeDPUCB was saved")
	}
	if err := p.UnmarshalBinary(nil); err == nil {
		t.Error("a secure AnytimeDPUCB was restored")
	}
	s := SS18Setting{D: 2, N: 8, Epsilon: 1, Delta: 0.1, Lt2: 2}
	q, err := NewAnytimeSS18(SS18PolicyConfig{Alg: SS18Gaussian, Setting: s, Noise: NoiseSecure}, rand.NewChaCha8([32]byte{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.MarshalBinary(); err == nil {
		t.Error("a secure AnytimeSS18 was saved")
	}
}

// TestSecureReleaseLaw tests the law of what a secure tree counter
// releases, at the real grid (τ and σ of about 2²⁰ grid steps): the
// round-1 release minus the (grid-rounded) value 1, in grid steps, must be
// discrete Laplace(τ) (discrete Gaussian(σ′) for the Gaussian noise). The
// χ² test uses 20 bins at the continuous quantiles; the bin probabilities
// are exact for the discrete Laplace (geometric sums) and, for the discrete
// Gaussian, the normal integral over the bin's half-integer-widened range,
// whose error (Poisson summation, e^{−2π²σ²}) is nil at σ ≈ 2²⁰. A correct
// pipeline fails with probability 10⁻⁶ per law.
func TestSecureReleaseLaw(t *testing.T) {
	const n, bins = 20000, 20
	lap, err := NewSecureLaplaceNoise(1, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	gau, err := NewSecureGaussianNoise([]float64{3}, 1)
	if err != nil {
		t.Fatal(err)
	}
	tau := float64(lap.Tau())
	q := math.Exp(-1 / tau)
	// CDF of DLap(τ) at the integer x: P(K ≤ x).
	lapCDF := func(x float64) float64 {
		if x >= 0 {
			return 1 - math.Pow(q, x+1)/(1+q)
		}
		return math.Pow(q, -x) / (1 + q)
	}
	sg := float64(gau.Sigmas()[0])
	gauCDF := func(x float64) float64 { return distuv.UnitNormal.CDF((x + 0.5) / sg) }
	for _, c := range []struct {
		name  string
		noise *SecureNoise
		cdf   func(float64) float64
		quant func(p float64) float64 // continuous quantile in grid steps
	}{
		{"laplace", lap, lapCDF, func(p float64) float64 { return distuv.Laplace{Mu: 0, Scale: tau}.Quantile(p) }},
		{"gaussian", gau, gauCDF, func(p float64) float64 { return distuv.Normal{Mu: 0, Sigma: sg}.Quantile(p) }},
	} {
		g := c.noise.Grid()
		// Integer bin edges: bin i holds K ≤ edge[i] and above edge[i−1].
		edges := make([]float64, bins-1)
		for i := range edges {
			edges[i] = math.Floor(c.quant(float64(i+1) / bins))
		}
		p := make([]float64, bins)
		prev := 0.0
		for i, e := range edges {
			cur := c.cdf(e)
			p[i] = cur - prev
			prev = cur
		}
		p[bins-1] = 1 - prev
		counts := make([]int, bins)
		z := []float64{1}
		rel := make([]float64, 1)
		for range n {
			tree, err := NewTreeSum(1, 4, c.noise, Plain)
			if err != nil {
				t.Fatal(err)
			}
			tree.Add(z)
			tree.SumTo(rel)
			k := rel[0]/g - math.RoundToEven(1/g)
			if k != math.Trunc(k) {
				t.Fatalf("%s: release %v is not on the grid", c.name, rel[0])
			}
			i := sort.SearchFloat64s(edges, k) // first edge ≥ k
			counts[i]++
		}
		if pv := chiSquareP(t, counts, p, n); !(pv >= secureAlpha) {
			t.Errorf("%s release law: χ² p-value %.3g < %g (counts %v)", c.name, pv, secureAlpha, counts)
		}
	}
}
