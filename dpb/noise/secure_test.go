package noise

import (
	"math"
	"math/big"
	"slices"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
)

func TestSecureDiscreteLaplaceLaw(t *testing.T) {
	for _, tau := range []uint64{1, 3, 10} {
		c := newCryptoSource()
		const n = 100000
		w := int(6 * tau)
		counts := testkit.Histogram(n, w, func() int64 { return c.discreteLaplace(tau) })
		p := testkit.PmfOnWindow(w, func(k int) float64 { return math.Exp(-math.Abs(float64(k)) / float64(tau)) })
		if pv := testkit.ChiSquareP(t, counts, p, n); !(pv >= testkit.SecureAlpha) {
			t.Errorf("discrete Laplace τ=%d: χ² p-value %.3g < %g", tau, pv, testkit.SecureAlpha)
		}
	}
}

func TestSecureDiscreteGaussianLaw(t *testing.T) {
	for _, sigma := range []uint64{1, 3, 8} {
		s := &SecureNoise{gauss: true, sigma: []uint64{sigma}, grid: 1, src: newCryptoSource()}
		const n = 100000
		w := int(4 * sigma)
		counts := testkit.Histogram(n, w, func() int64 { return s.SampleInt(0) })
		s2 := float64(sigma * sigma)
		p := testkit.PmfOnWindow(w, func(k int) float64 { return math.Exp(-float64(k*k) / (2 * s2)) })
		if pv := testkit.ChiSquareP(t, counts, p, n); !(pv >= testkit.SecureAlpha) {
			t.Errorf("discrete Gaussian σ=%d: χ² p-value %.3g < %g", sigma, pv, testkit.SecureAlpha)
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

// TestSecureNoiseScale checks the calibration of the constructors and the
// variance of the released noise at the real scale: the sample variance of
// 20000 secure Lap(2) draws is within 6 standard errors of 2b²(1+ϵ) (the
// fourth moment of Lap(b) is 24b⁴, so the standard error is
// √(20b⁴/n)); a correct sampler fails with probability below 10⁻⁸.
func TestSecureNoiseScale(t *testing.T) {
	const b, n = 2.0, 20000
	nz, err := New(Config{Law: LaplaceLaw, Mode: Secure, Dim: 1, Scale: b, Sensitivity: 1}, nil)
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
	gnAny, err := New(Config{Law: GaussianLaw, Mode: Secure, Sigmas: []float64{1.5}, Sensitivity: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	gn := gnAny.(*SecureNoise)
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
	sgAny, err := New(Config{Law: SymGaussianLaw, Mode: Secure, N: 3, Sigma: 5, Sensitivity: math.Sqrt2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sg := sgAny.(*SecureNoise)
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
	if _, err := New(Config{Law: LaplaceLaw, Mode: Secure, Dim: 0, Scale: 1, Sensitivity: 1}, nil); err == nil {
		t.Error("dimension 0 accepted")
	}
	if _, err := New(Config{Law: LaplaceLaw, Mode: Secure, Dim: 1, Scale: math.NaN(), Sensitivity: 1}, nil); err == nil {
		t.Error("NaN scale accepted")
	}
	if _, err := New(Config{Law: LaplaceLaw, Mode: Secure, Dim: 1, Scale: 1, Sensitivity: 0}, nil); err == nil {
		t.Error("zero sensitivity accepted")
	}
	if _, err := New(Config{Law: GaussianLaw, Mode: Secure, Sigmas: []float64{1, -1}, Sensitivity: 1}, nil); err == nil {
		t.Error("negative sigma accepted")
	}
	if _, err := New(Config{Law: SymGaussianLaw, Mode: Secure, N: 2, Sigma: math.Inf(1), Sensitivity: 1}, nil); err == nil {
		t.Error("infinite sigma accepted")
	}
}

// TestSecureSymSplit: the secure split symmetrised Gaussian has the grid
// SecureSymGrid names (for every n and with or without the split), and each
// entry's discrete σ is ⌈σ_i·f/g⌉ with σ_i = σ_V (√2σ_V) on the block's
// off-diagonal (diagonal), σ_u (√2σ_u) on the last column (corner) and
// f = 1 + (g√dim + slack)·(max σ_i/min σ_i)/sens.
func TestSecureSymSplit(t *testing.T) {
	for n := 1; n <= 4; n++ {
		for _, su := range []float64{0, 0.9, 1.3, 7} {
			if su != 0 && n < 2 {
				continue
			}
			const sv, sens, slack = 1.0, 2.0, 0.3
			nzAny, err := New(Config{Law: SymGaussianLaw, Mode: Secure, N: n, Sigma: sv, SigmaU: su, Sensitivity: sens, Slack: slack}, nil)
			if err != nil {
				t.Fatal(err)
			}
			nz := nzAny.(*SecureNoise)
			if g := SecureSymGrid(n, sv, su); nz.Grid() != g {
				t.Errorf("n %d σ_u %v: grid %v, SecureSymGrid %v", n, su, nz.Grid(), g)
			}
			want := make([]float64, 0, simd.PackedLen(n))
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					s := sv
					if su != 0 && j == n-1 {
						s = su
					}
					if i == j {
						s *= math.Sqrt2
					}
					want = append(want, s)
				}
			}
			lo, hi := slices.Min(want), slices.Max(want)
			g := nz.Grid()
			f := 1 + (g*math.Sqrt(float64(len(want)))+slack)*(hi/lo)/sens
			for i, s := range nz.Sigmas() {
				if w := math.Ceil(want[i] * f / g); float64(s) != w {
					t.Errorf("n %d σ_u %v entry %d: %d grid steps, want %v", n, su, i, s, w)
				}
			}
		}
	}
}
