package as17

import (
	"math"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

func TestGaussianWidthExact(t *testing.T) {
	// Closed forms at n = 2: E|G₁ − G₂| = 2/√π; E 2‖G‖₂ = √(2π); E 2‖G‖₁ = 4√(2/π).
	for _, c := range []struct {
		set  DecisionSet
		want float64
	}{{Simplex, 2 / math.Sqrt(math.Pi)}, {Ball, math.Sqrt(2 * math.Pi)}, {Cube, 4 * math.Sqrt(2/math.Pi)}} {
		if got := GaussianWidth(c.set, 2); !(math.Abs(got-c.want) <= 1e-10) {
			t.Errorf("%v: GaussianWidth(2) = %.15g, want %.15g", c.set, got, c.want)
		}
	}
}

// TestGaussianWidthMonteCarlo compares GaussianWidth with the mean of
// W(G) over 10⁵ draws at n = 4 and 7: a failure needs a deviation beyond 5
// standard errors (false-failure probability ≈ 6·10⁻⁷ per case).
func TestGaussianWidthMonteCarlo(t *testing.T) {
	rng := bandit.Stream(10, 17)
	for _, set := range []DecisionSet{Simplex, Ball, Cube} {
		for _, n := range []int{4, 7} {
			const k = 100_000
			g := make([]float64, n)
			var s, ss float64
			for range k {
				for i := range g {
					g[i] = rng.NormFloat64()
				}
				w := set.Width(g)
				s += w
				ss += w * w
			}
			mean := s / k
			se := math.Sqrt((ss/k - mean*mean) / k)
			if w := GaussianWidth(set, n); !(math.Abs(mean-w) <= 5*se) {
				t.Errorf("%v n=%d: GaussianWidth %.5f, Monte Carlo %.5f ± %.5f", set, n, w, mean, se)
			}
		}
	}
}

// ftrlCounterSDs returns s_1..s_T of FTRLCounterBound: s_1 = 0 and
// s_t = σ√V_{t−1}.
func ftrlCounterSDs(t *testing.T, kind counter.Kind, horizon int, sigma float64) []float64 {
	t.Helper()
	c, err := counter.New(counter.Config{Kind: kind, Dim: 1, Horizon: horizon, Noise: noise.ZeroNoise{N: 1}})
	if err != nil {
		t.Fatal(err)
	}
	s := make([]float64, horizon+1)
	for r := 2; r <= horizon; r++ {
		s[r] = sigma * math.Sqrt(c.VarianceAt(r-1))
	}
	return s
}

// TestFTRLCounterBoundVariationPointwise checks bound (a) of
// FTRLCounterBound where it is a deterministic inequality: for every fixed
// G, FTRL on L_{t−1} + s_t G has regret ≤ D_R/η + ηTG² + W(G)·U against the
// best fixed decision. The statement has no randomness to fail by, so any
// violation (beyond rounding) is an error in the derivation or the code.
func TestFTRLCounterBoundVariationPointwise(t *testing.T) {
	rng := bandit.Stream(11, 3)
	const n, T = 4, 300
	worst := 0.0
	for _, set := range []DecisionSet{Simplex, Ball, Cube} {
		for _, kind := range []counter.Kind{counter.Tree, counter.TreePadded, counter.Honaker, counter.Smooth, counter.Sqrt, counter.BLT} {
			for _, sigma := range []float64{0.3, 3, 30} {
				for _, lk := range []LossKind{Stochastic, WorstCase, Switching} {
					eta := FTRLEta(set, n, T)
					b, err := NewFTRLCounterBound(set, n, T, eta, sigma, kind)
					if err != nil {
						t.Fatal(err)
					}
					s := ftrlCounterSDs(t, kind, T, sigma)
					losses, err := NewLosses(LossConfig{Set: set, Dim: n, Kind: lk, Horizon: T}, rng)
					if err != nil {
						t.Fatal(err)
					}
					g, l, L, z, x := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
					for i := range g {
						g[i] = rng.NormFloat64()
					}
					var suffered float64
					for r := 1; r <= T; r++ {
						for i := range z {
							z[i] = L[i] + s[r]*g[i]
						}
						FTRLArgminTo(set, x, z, eta)
						losses.Next(r, l)
						for i, v := range l {
							suffered += v * x[i]
							L[i] += v
						}
					}
					regret := suffered - set.MinLinear(L)
					bound := b.Base + set.Width(g)*b.Variation
					worst = math.Max(worst, regret/bound)
					if !(regret <= bound*(1+1e-9)) {
						t.Errorf("%v %v σ=%g %v: regret %.6g > D_R/η + ηTG² + W(G)U = %.6g", set, kind, sigma, lk, regret, bound)
					}
				}
			}
		}
	}
	t.Logf("largest regret/bound: %.3f", worst)
}

// TestFTRLNoiseLipschitz checks the deterministic inequality behind bound
// (b): |⟨l, x(L+z) − x(L)⟩| ≤ c η W(z) for l ∈ 𝒴, on random L, z, l and η
// (any violation is an error, there is no randomness to fail by).
func TestFTRLNoiseLipschitz(t *testing.T) {
	rng := bandit.Stream(12, 5)
	const n = 5
	for _, set := range []DecisionSet{Simplex, Ball, Cube} {
		c := FTRLNoiseLipschitz(set)
		worst := 0.0
		for range 20000 {
			eta := math.Exp(4 * (rng.Float64() - 0.5))
			L, z, l, x0, x1, zz := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
			for i := range L {
				L[i] = 3 * rng.NormFloat64()
				z[i] = math.Exp(2*rng.NormFloat64()) * rng.NormFloat64()
				l[i] = 2*rng.Float64() - 1
			}
			if nl := set.Norm(l); nl > 1 {
				for i := range l {
					l[i] /= nl
				}
			}
			FTRLArgminTo(set, x0, L, eta)
			for i := range zz {
				zz[i] = L[i] + z[i]
			}
			FTRLArgminTo(set, x1, zz, eta)
			var d float64
			for i := range l {
				d += l[i] * (x1[i] - x0[i])
			}
			r := math.Abs(d) / (c * eta * set.Width(z))
			worst = math.Max(worst, r)
			if !(r <= 1+1e-9) {
				t.Fatalf("%v: |⟨l, Δx⟩| = %.6g > cηW(z) = %.6g", set, math.Abs(d), c*eta*set.Width(z))
			}
		}
		t.Logf("%v: largest |⟨l, Δx⟩|/(cηW(z)) = %.3f", set, worst)
	}
}

func TestFTRLCounterBoundShape(t *testing.T) {
	const n, T, sigma = 4, 1 << 12, 2.0
	eta := FTRLEta(Ball, n, T)
	get := func(kind counter.Kind) FTRLCounterBound {
		b, err := NewFTRLCounterBound(Ball, n, T, eta, sigma, kind)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// A constant release variance (padded tree, smooth binary) has
	// U = its s.d.: Theorem 3.4 with D' = N(0, s²I).
	for _, k := range []counter.Kind{counter.TreePadded, counter.Smooth} {
		b := get(k)
		if !(math.Abs(b.Variation-b.MaxSD) <= 1e-12*b.MaxSD) || !(math.Abs(b.MaxSD-b.MeanSD) <= 1e-12*b.MaxSD) || b.Which != "variation" {
			t.Errorf("%v: U = %v, max s.d. %v, mean s.d. %v, %s; want U = max = mean, variation", k, b.Variation, b.MaxSD, b.MeanSD, b.Which)
		}
		if want := b.Base + b.Width*b.MaxSD; !(math.Abs(b.Bound-want) <= 1e-9*want) {
			t.Errorf("%v: bound %v, want %v", k, b.Bound, want)
		}
	}
	// Nondecreasing variance (square root, BLT): U = s_T ≤ the largest s.d.
	for _, k := range []counter.Kind{counter.Sqrt, counter.BLT} {
		if b := get(k); !(b.Variation <= b.MaxSD && b.Variation >= 0.99*b.MaxSD) {
			t.Errorf("%v: U = %v, max s.d. %v", k, b.Variation, b.MaxSD)
		}
	}
	// The plain tree's variance follows popcount(t): U grows like T and
	// the stability form is the smaller.
	if b := get(counter.Tree); b.Which != "stability" || !(b.Variation > 100*b.MaxSD) {
		t.Errorf("tree: %s, U = %v, max s.d. %v", b.Which, b.Variation, b.MaxSD)
	}
	// σ = 0 is the non-private bound.
	if b, _ := NewFTRLCounterBound(Ball, n, T, eta, 0, counter.BLT); b.Bound != FTRLBound(Ball, n, T, eta, 0) {
		t.Errorf("σ = 0: bound %v, want %v", b.Bound, FTRLBound(Ball, n, T, eta, 0))
	}
	for _, c := range []struct {
		eta, sigma float64
		want       string
	}{{0, 1, "eta"}, {math.NaN(), 1, "eta"}, {1, -1, "sigma"}, {1, math.Inf(1), "sigma"}} {
		if _, err := NewFTRLCounterBound(Ball, n, T, c.eta, c.sigma, counter.BLT); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("eta %v sigma %v: error %v, want one naming %s", c.eta, c.sigma, err, c.want)
		}
	}
	if _, err := NewFTRLCounterBound(Ball, n, 1, eta, 1, counter.BLT); err == nil {
		t.Error("horizon 1 accepted")
	}
}
