package crosstest

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/anytime"
	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
	"gonum.org/v1/gonum/stat/distuv"
)

// TestSecureTreeReleasesOnGrid checks that a tree with secure noise releases
// exact grid multiples, that release − rounded exact sum is an integer number
// of grid steps, and that the data are rounded (ties to even).
func TestSecureTreeReleasesOnGrid(t *testing.T) {
	nzAny, err := noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: noise.Secure, Dim: 2, Scale: 3.5, Sensitivity: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	nz := nzAny.(*noise.SecureNoise)
	g := nz.Grid()
	if g != math.Ldexp(1, 1-noise.SecureGridBits) { // 3.5 = 0.875·2², so g = 2^(2−1−20)
		t.Fatalf("grid %g, want 2^-19", g)
	}
	// τ covers 3.5·(1 + 2g)/g.
	if want := 3.5 * (1 + 2*g) / g; !(float64(nz.Tau()) >= want && float64(nz.Tau()) < want+1) {
		t.Fatalf("τ = %d, want ⌈%g⌉", nz.Tau(), want)
	}
	tree, err := counter.New(counter.Config{Kind: counter.Tree, Dim: 2, Horizon: 8, Noise: nz, Mode: counter.Padded})
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

// TestSecurePolicies runs each policy with noise.Secure: DP-UCB's released
// totals lie on its grid, DP-FTRL and the Gaussian tree run, the Wishart
// tree is rejected, and an unknown mode is an error.
func TestSecurePolicies(t *testing.T) {
	rng := bandit.Stream(1, 1)
	p, err := mt14.NewDPUCB(mt14.DPUCBConfig{Arms: 2, Horizon: 64, Epsilon: 1, Noise: noise.Secure}, rng)
	if err != nil {
		t.Fatal(err)
	}
	g := p.Tree(0).NodeNoise().(noise.Gridded).Grid()
	r := &bandit.Round{K: 2}
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
	f, err := as17.NewFTRL(as17.FTRLConfig{Dim: 3, Horizon: 16, Epsilon: 1, Noise: noise.Secure}, rng)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Observe([]float64{0.2, 0.5, 1}); err != nil {
		t.Fatal(err)
	}
	fp, err := as17.NewFTPL(as17.FTPLConfig{Dim: 3, Horizon: 16, Epsilon: 1, Delta: 0.1, Noise: noise.Secure}, rng)
	if err != nil {
		t.Fatal(err)
	}
	if err := fp.Observe([]float64{0.2, 0.5, 1}); err != nil {
		t.Fatal(err)
	}
	s := ss18.Setting{D: 2, N: 16, Epsilon: 1, Delta: 0.1, Lt2: 2}
	if _, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: s, Noise: noise.Secure}, rng); err != nil {
		t.Errorf("secure Gaussian tree: %v", err)
	}
	if _, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: ss18.Wishart, Setting: s, Noise: noise.Secure}, rng); err == nil {
		t.Error("secure Wishart tree accepted (there is no secure Wishart sampler)")
	}
	if _, err := mt14.NewDPUCB(mt14.DPUCBConfig{Arms: 2, Horizon: 64, Epsilon: 1, Noise: noise.Mode(7)}, rng); err == nil {
		t.Error("unknown noise mode accepted")
	}
}

// TestSecureOnlyOnNodeCounters: the Toeplitz counters (non-integer
// measurement coefficients) reject secure Laplace noise and secure noise
// without a data bound (their Gaussian secure mode: dpb/counter's
// TestToeplitzSecure* tests), the node counters (tree, padded tree,
// Honaker, smooth, k-ary: the grid wrapper) take it, and a secure
// own-stream policy saves and restores.
func TestSecureOnlyOnNodeCounters(t *testing.T) {
	nz, err := noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: noise.Secure, Dim: 1, Scale: 2, Sensitivity: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range counter.Kinds {
		_, err := counter.New(counter.Config{Kind: k, Dim: 1, Horizon: 16, Noise: nz})
		toeplitz := k == counter.Sqrt || k == counter.BLT
		if !toeplitz && err != nil {
			t.Errorf("%v counter rejected secure noise: %v", k, err)
		}
		if toeplitz && err == nil {
			t.Errorf("%v counter accepted secure noise", k)
		}
	}
	p, err := anytime.NewDPUCBFromSource(mt14.DPUCBConfig{Arms: 2, Horizon: 8, Epsilon: 1, Noise: noise.Secure}, rand.NewChaCha8([32]byte{}))
	if err != nil {
		t.Fatal(err)
	}
	snap, err := p.MarshalBinary()
	if err != nil {
		t.Errorf("a secure AnytimeDPUCB was not saved: %v", err)
	}
	if err := p.UnmarshalBinary(snap); err != nil {
		t.Errorf("a secure AnytimeDPUCB was not restored: %v", err)
	}
	if err := p.UnmarshalBinary(nil); err == nil {
		t.Error("a secure AnytimeDPUCB restored an empty snapshot")
	}
	s := ss18.Setting{D: 2, N: 8, Epsilon: 1, Delta: 0.1, Lt2: 2}
	q, err := anytime.NewSS18FromSource(ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: s, Noise: noise.Secure}, rand.NewChaCha8([32]byte{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.MarshalBinary(); err != nil {
		t.Errorf("a secure AnytimeSS18 was not saved: %v", err)
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
	lapAny, err := noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: noise.Secure, Dim: 1, Scale: 5, Sensitivity: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	lap := lapAny.(*noise.SecureNoise)
	gauAny, err := noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Secure, Sigmas: []float64{3}, Sensitivity: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	gau := gauAny.(*noise.SecureNoise)
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
		noise *noise.SecureNoise
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
			tree, err := counter.New(counter.Config{Kind: counter.Tree, Dim: 1, Horizon: 4, Noise: c.noise, Mode: counter.Plain})
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
		if pv := testkit.ChiSquareP(t, counts, p, n); !(pv >= testkit.SecureAlpha) {
			t.Errorf("%s release law: χ² p-value %.3g < %g (counts %v)", c.name, pv, testkit.SecureAlpha, counts)
		}
	}
}
