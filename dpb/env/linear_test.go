package env

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/internal/testutil"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"gonum.org/v1/gonum/stat/distuv"
)

// Two-sided standard normal quantile at 1 − 10⁻⁵/2: a |z| > zFail assertion
// fails spuriously with probability 10⁻⁵.
const zFail = 4.41717

// envFail is the false-failure probability of each statistical assertion.
const envFail = 1e-5

func newTestLinearEnv(t testing.TB, cfg LinearEnvConfig, id uint64) *LinearEnv {
	t.Helper()
	e, err := NewLinearEnv(cfg, bandit.Stream(1, id))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// householderToE1 returns y = Hx for the reflection H mapping θ to e1, so
// y[1:] are x's coordinates in an orthonormal basis of θ⊥.
func householderToE1(theta, x, y []float64) {
	v := append([]float64(nil), theta...)
	v[0] -= 1
	var vv, vx float64
	for i := range v {
		vv += v[i] * v[i]
		vx += v[i] * x[i]
	}
	copy(y, x)
	if vv < 1e-300 {
		return
	}
	for i := range y {
		y[i] -= 2 * vx / vv * v[i]
	}
}

var linearCases = []struct {
	name string
	cfg  LinearEnvConfig
}{
	{"d=5,K=25,gap=0.1", LinearEnvConfig{Dim: 5, K: 25, Gap: 0.1}},
	{"d=2,K=6,gap=0", LinearEnvConfig{Dim: 2, K: 6}},
	{"d=3,K=9,gap=0.3", LinearEnvConfig{Dim: 3, K: 9, Gap: 0.3}},
	{"d=16,K=10,gap=0.1", LinearEnvConfig{Dim: 16, K: 10, Gap: 0.1}},
	// Band [−0.75, −0.7] holds < 1% of the sphere: the inverse-CDF path.
	{"d=5,K=8,narrow", LinearEnvConfig{Dim: 5, K: 8, Gap: 1.45}},
	{"d=2,K=4,narrow", LinearEnvConfig{Dim: 2, K: 4, Gap: 1.45}},
	{"d=64,K=5,gap=0.1", LinearEnvConfig{Dim: 64, K: 5, Gap: 0.1}},
	{"d=4,K=5,opt=1", LinearEnvConfig{Dim: 4, K: 5, OptReward: 1, Gap: 0.5, Noise: GaussianReward, Sigma: 2}},
}

// collectLinear runs n rounds and returns the sub-optimal actions' θ*
// components, the orthogonal directions w = (x − uθ*)/√(1−u²) in θ*⊥
// coordinates (optimal and sub-optimal), and the optimal positions.
func collectLinear(t *testing.T, e *LinearEnv, rounds int) (us []float64, ws [][]float64, opts []int) {
	t.Helper()
	d, k := e.Dim(), e.Arms()
	r := bandit.NewRound(e)
	theta := e.Theta()
	y := make([]float64, d)
	lo, hi := e.Band()
	for s := 1; s <= rounds; s++ {
		e.Next(r, s)
		opts = append(opts, e.OptimalArm())
		if e.BestMean(r) != e.cfg.OptReward || e.Mean(r, e.OptimalArm()) != e.cfg.OptReward {
			t.Fatalf("round %d: best mean %v, optimal arm's mean %v, want %v", s, e.BestMean(r), e.Mean(r, e.OptimalArm()), e.cfg.OptReward)
		}
		for a := range k {
			x := r.Action(a)
			var nn, u float64
			for i := range x {
				nn += x[i] * x[i]
				u += x[i] * theta[i]
			}
			if math.Abs(nn-1) > 1e-12 {
				t.Fatalf("round %d action %d: ‖x‖² = %v, want 1", s, a, nn)
			}
			mu := e.Mean(r, a)
			if math.Abs(u-mu) > 1e-12 {
				t.Fatalf("round %d action %d: ⟨x,θ⟩ = %v but Mean = %v", s, a, u, mu)
			}
			if a != e.OptimalArm() {
				if mu < lo || mu > hi {
					t.Fatalf("round %d action %d: mean %v outside band [%v, %v]", s, a, mu, lo, hi)
				}
				us = append(us, mu)
			}
			if 1-mu*mu < 1e-12 {
				continue
			}
			householderToE1(theta, x, y)
			w := make([]float64, d-1)
			for i := range w {
				w[i] = y[i+1] / math.Sqrt(1-mu*mu)
			}
			ws = append(ws, w)
		}
	}
	return us, ws, opts
}

// TestLinearEnvBandMarginal checks the sub-optimal actions' component along
// θ* against its exact law, (1+u)/2 ~ Beta((d−1)/2, (d−1)/2) truncated to the
// band, with a Kolmogorov–Smirnov test. By the Dvoretzky–Kiefer–Wolfowitz
// inequality (Massart's constant), P[D_n > √(ln(2/α)/(2n))] ≤ α; α = 10⁻⁵.
func TestLinearEnvBandMarginal(t *testing.T) {
	for i, tc := range linearCases {
		t.Run(tc.name, func(t *testing.T) {
			e := newTestLinearEnv(t, tc.cfg, uint64(100+i))
			if strings.HasSuffix(tc.name, "narrow") && e.band.reject {
				t.Fatalf("narrow band (mass %v) should use the inverse-CDF path", e.band.mass)
			}
			n := 20000
			if testing.Short() {
				n = 8000
			}
			us, _, _ := collectLinear(t, e, n/(e.Arms()-1)+1)
			slices.Sort(us)
			a := float64(e.Dim()-1) / 2
			beta := distuv.Beta{Alpha: a, Beta: a}
			lo, hi := e.Band()
			flo, fhi := beta.CDF((1+lo)/2), beta.CDF((1+hi)/2)
			var dmax float64
			m := float64(len(us))
			for j, u := range us {
				f := (beta.CDF((1+u)/2) - flo) / (fhi - flo)
				dmax = math.Max(dmax, math.Max(math.Abs(f-float64(j)/m), math.Abs(float64(j+1)/m-f)))
			}
			tol := math.Sqrt(math.Log(2/envFail) / (2 * m))
			if dmax > tol {
				t.Errorf("KS distance %.4f > %.4f over %d draws", dmax, tol, len(us))
			}
		})
	}
}

// TestLinearEnvOrthogonalUniform checks that the part of each action
// orthogonal to θ*, normalised to w ∈ S^{m−1} (m = d−1), is uniform: for
// uniform w, E w = 0, E wwᵀ = I/m, Var(w_i²) = 2(m−1)/(m²(m+2)) and
// Var(w_i w_j) = 1/(m(m+2)). Mean: n·m·‖w̄‖² ≈ χ²_m, compared with its
// 1 − 10⁻⁵ quantile. Second moments: |M_ij − δ_ij/m| ≤ z·sd/√n for each of
// the m(m+1)/2 entries, with z the two-sided normal quantile at
// 10⁻⁵/(m(m+1)/2) (Bonferroni; normal approximation), so all entries
// together fail spuriously with probability ≈ 10⁻⁵ per case.
func TestLinearEnvOrthogonalUniform(t *testing.T) {
	for i, tc := range linearCases {
		t.Run(tc.name, func(t *testing.T) {
			e := newTestLinearEnv(t, tc.cfg, uint64(200+i))
			n := 20000
			if testing.Short() {
				n = 8000
			}
			_, ws, _ := collectLinear(t, e, n/e.Arms()+1)
			m := e.Dim() - 1
			N := float64(len(ws))
			mean := make([]float64, m)
			mom := make([]float64, m*m)
			for _, w := range ws {
				for a := range m {
					mean[a] += w[a] / N
					for b := range m {
						mom[a*m+b] += w[a] * w[b] / N
					}
				}
			}
			var q float64
			for _, v := range mean {
				q += v * v
			}
			q *= N * float64(m)
			if lim := (distuv.ChiSquared{K: float64(m)}).Quantile(1 - envFail); q > lim {
				t.Errorf("n·m·‖mean‖² = %.2f > χ²_%d quantile %.2f (mean %v)", q, m, lim, mean)
			}
			fm := float64(m)
			entries := float64(m * (m + 1) / 2)
			z := distuv.UnitNormal.Quantile(1 - envFail/entries/2)
			for a := range m {
				for b := a; b < m; b++ {
					want, v := 0.0, 1/(fm*(fm+2))
					if a == b {
						want, v = 1/fm, 2*(fm-1)/(fm*fm*(fm+2))
					}
					tol := z*math.Sqrt(v/N) + 1e-12
					if got := mom[a*m+b]; math.Abs(got-want) > tol {
						t.Errorf("E[w_%d w_%d] = %.5f, want %.5f ± %.5f", a, b, got, want, tol)
					}
				}
			}
		})
	}
}

// TestLinearEnvOptimalPosition checks that the optimal action's position is
// uniform over the K slots: Pearson χ² with K−1 degrees of freedom, failing
// when its p-value is below 10⁻⁵.
func TestLinearEnvOptimalPosition(t *testing.T) {
	e := newTestLinearEnv(t, LinearEnvConfig{Dim: 3, K: 25, Gap: 0.1}, 300)
	rounds := 5000
	_, _, opts := collectLinear(t, e, rounds)
	counts := make([]float64, e.Arms())
	for _, o := range opts {
		counts[o]++
	}
	exp := float64(rounds) / float64(e.Arms())
	var chi2 float64
	for _, c := range counts {
		chi2 += (c - exp) * (c - exp) / exp
	}
	if p := (distuv.ChiSquared{K: float64(e.Arms() - 1)}).Survival(chi2); p < envFail {
		t.Errorf("optimal positions %v: χ² = %.1f, p = %.2g", counts, chi2, p)
	}
}

// TestLinearEnvRewards checks the reward laws. For each arm slot, the sum of
// (y_t − μ_t) over n rounds is a sum of independent zero-mean terms with
// variance 1 − μ_t² (Rademacher) or σ² (Gaussian); its standardised value is
// ≈ N(0, 1) and must be within zFail (false failure 10⁻⁵ per slot). The
// rewards of a round are monotone in the mean (common random numbers).
func TestLinearEnvRewards(t *testing.T) {
	for _, noise := range []RewardNoise{Rademacher, GaussianReward} {
		t.Run(noise.String(), func(t *testing.T) {
			e := newTestLinearEnv(t, LinearEnvConfig{Dim: 4, K: 3, Noise: noise, Sigma: 0.5}, 400)
			r := bandit.NewRound(e)
			n := 20000
			var sum, vars [3]float64
			var gsq float64
			for s := 1; s <= n; s++ {
				e.Next(r, s)
				for a := range 3 {
					y, mu := e.Reward(r, a), e.Mean(r, a)
					if noise == Rademacher {
						if y != 1 && y != -1 {
							t.Fatalf("rademacher reward %v", y)
						}
						vars[a] += 1 - mu*mu
					} else {
						vars[a] += 0.25
					}
					sum[a] += y - mu
					for b := range 3 {
						if e.Mean(r, b) > mu && e.Reward(r, b) < y {
							t.Fatalf("round %d: arm %d (mean %v) got %v < arm %d's %v (mean %v)", s, b, e.Mean(r, b), e.Reward(r, b), a, y, mu)
						}
					}
				}
				if noise == GaussianReward {
					z := (e.Reward(r, 0) - e.Mean(r, 0)) / 0.5
					gsq += z * z
				}
			}
			for a := range 3 {
				if z := sum[a] / math.Sqrt(vars[a]); math.Abs(z) > zFail {
					t.Errorf("arm %d: standardised reward error z = %.2f", a, z)
				}
			}
			if noise == GaussianReward {
				// Σz² ~ χ²_n ≈ N(n, 2n).
				if z := (gsq - float64(n)) / math.Sqrt(2*float64(n)); math.Abs(z) > zFail {
					t.Errorf("gaussian noise variance off: z = %.2f", z)
				}
			}
		})
	}
}

// TestFastNormal checks the ziggurat against N(0, 1) with a Pearson χ² test
// on 50 equiprobable bins further split at ±zigR (the tail sampler) and ±4;
// it fails when the p-value is below 10⁻⁵.
func TestFastNormal(t *testing.T) {
	f := noise.NewFastRand(bandit.Stream(1, 500))
	norm := distuv.UnitNormal
	var edges []float64
	for i := 1; i < 50; i++ {
		edges = append(edges, norm.Quantile(float64(i)/50))
	}
	edges = append(edges, -simd.ZigR, simd.ZigR, -4, 4)
	slices.Sort(edges)
	counts := make([]float64, len(edges)+1)
	n := 400000
	if testing.Short() {
		n = 200000
	}
	for range n {
		x := f.Norm()
		j, _ := slices.BinarySearch(edges, x)
		counts[j]++
	}
	var chi2 float64
	prev := 0.0
	for j := range counts {
		p := 1 - prev
		if j < len(edges) {
			p = norm.CDF(edges[j]) - prev
			prev = norm.CDF(edges[j])
		}
		e := p * float64(n)
		chi2 += (counts[j] - e) * (counts[j] - e) / e
	}
	if p := (distuv.ChiSquared{K: float64(len(counts) - 1)}).Survival(chi2); p < envFail {
		t.Errorf("ziggurat normals: χ² = %.1f on %d bins, p = %.2g", chi2, len(counts), p)
	}
}

// TestFastIntn checks Lemire's bounded integers with a χ² test (p < 10⁻⁵ fails).
func TestFastIntn(t *testing.T) {
	f := noise.NewFastRand(bandit.Stream(1, 501))
	const k, n = 7, 70000
	var counts [k]float64
	for range n {
		counts[f.Intn(k)]++
	}
	var chi2 float64
	for _, c := range counts {
		chi2 += (c - n/k) * (c - n/k) / (n / k)
	}
	if p := (distuv.ChiSquared{K: k - 1}).Survival(chi2); p < envFail {
		t.Errorf("intn(7) counts %v, p = %.2g", counts, p)
	}
}

func TestLinearEnvThetaUnit(t *testing.T) {
	for d := 2; d <= 64; d *= 2 {
		e := newTestLinearEnv(t, LinearEnvConfig{Dim: d, K: 2}, uint64(600+d))
		var s float64
		for _, v := range e.Theta() {
			s += v * v
		}
		if math.Abs(s-1) > 1e-12 {
			t.Errorf("d=%d: ‖θ*‖² = %v", d, s)
		}
	}
}

func TestLinearEnvDeterministic(t *testing.T) {
	cfg := LinearEnvConfig{Dim: 5, K: 25, Gap: 0.1}
	a, b := newTestLinearEnv(t, cfg, 7), newTestLinearEnv(t, cfg, 7)
	ra, rb := bandit.NewRound(a), bandit.NewRound(b)
	for s := 1; s <= 50; s++ {
		a.Next(ra, s)
		b.Next(rb, s)
		if !slices.Equal(ra.Actions, rb.Actions) || a.Reward(ra, 3) != b.Reward(rb, 3) {
			t.Fatalf("round %d differs between two environments from one seed", s)
		}
	}
}

func TestLinearEnvNoAllocs(t *testing.T) {
	for _, tc := range linearCases {
		e := newTestLinearEnv(t, tc.cfg, 8)
		r := bandit.NewRound(e)
		s := 0
		if n := testing.AllocsPerRun(50, func() { s++; e.Next(r, s) }); n != 0 {
			t.Errorf("%s: Next allocates %v times per round", tc.name, n)
		}
	}
}

func TestLinearEnvConfigErrors(t *testing.T) {
	for _, cfg := range []LinearEnvConfig{
		{Dim: 1, K: 4},
		{Dim: 3, K: 0},
		{Dim: 3, K: 4, OptReward: 1.5},
		{Dim: 3, K: 4, OptReward: -0.5},
		{Dim: 3, K: 4, OptReward: math.NaN()},
		{Dim: 3, K: 4, Gap: -0.1},
		{Dim: 3, K: 4, Gap: 1.5},
		{Dim: 3, K: 4, Gap: math.Inf(1)},
		{Dim: 3, K: 4, Noise: GaussianReward, Sigma: -1},
		{Dim: 3, K: 4, Noise: GaussianReward, Sigma: math.Inf(1)},
		{Dim: 3, K: 4, Noise: Bernoulli},
		{Dim: 3, K: 4, Noise: 9},
	} {
		if _, err := NewLinearEnv(cfg, bandit.Stream(1, 1)); err == nil {
			t.Errorf("config %+v accepted", cfg)
		}
	}
	e := newTestLinearEnv(t, LinearEnvConfig{Dim: 3, K: 4}, 1)
	if c := e.Config(); c.OptReward != 0.75 || c.Sigma != 1 || c.Noise != Rademacher {
		t.Errorf("defaults not filled: %+v", c)
	}
}

func TestRewardNoiseText(t *testing.T) {
	for _, n := range []RewardNoise{Rademacher, GaussianReward, Bernoulli} {
		b, err := n.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var m RewardNoise
		if err := m.UnmarshalText(b); err != nil || m != n {
			t.Errorf("%v round-trips to %v (%v)", n, m, err)
		}
	}
	if _, err := ParseRewardNoise("cauchy"); err == nil {
		t.Error("unknown noise parsed")
	}
}

// BenchmarkLinearEnvNext times one round's decision set and reward draw.
func BenchmarkLinearEnvNext(b *testing.B) {
	for _, dk := range [][2]int{{5, 25}, {16, 256}, {64, 4096}} {
		b.Run(fmt.Sprintf("d=%d,K=%d", dk[0], dk[1]), func(b *testing.B) {
			e, err := NewLinearEnv(LinearEnvConfig{Dim: dk[0], K: dk[1], Gap: 0.1}, bandit.Stream(1, 1))
			if err != nil {
				b.Fatal(err)
			}
			r := bandit.NewRound(e)
			b.ReportAllocs()
			cpu := testkit.StartCPUClock()
			t := 0
			for b.Loop() {
				t++
				e.Next(r, t)
			}
			testkit.ReportRound(b, cpu)
		})
	}
}

func BenchmarkFastNormal(b *testing.B) {
	f := noise.NewFastRand(bandit.Stream(1, 1))
	var s float64
	for b.Loop() {
		s += f.Norm()
	}
	_ = s
}

func BenchmarkFastNormalsTo(b *testing.B) {
	f := noise.NewFastRand(bandit.Stream(1, 1))
	dst := make([]float64, 125)
	for b.Loop() {
		f.NormalsTo(dst)
	}
}

// TestNormaliseBlocksGoIsNormaliseTo pins NormaliseBlocksGo (four actions at
// a time) to NormaliseTo called once per action, for d = 1…70 and K = 0…13
// (whole groups of four and tails), on the cases of NormaliseCases: the same
// bits in every component and mean. Deterministic: no false failures.
func TestNormaliseBlocksGoIsNormaliseTo(t *testing.T) {
	testutil.NormaliseCases(4, 70, 13, 5, func(d, k int, scale float64, a, theta []float64) {
		b := append([]float64(nil), a...)
		ma, mb := make([]float64, k), make([]float64, k)
		simd.NormaliseBlocksGo(a, theta, ma, d)
		for i := range mb {
			mb[i] = simd.NormaliseTo(b[i*d:(i+1)*d], theta)
		}
		if i := testkit.FirstDiff(a, b); i >= 0 {
			t.Fatalf("d %d, K %d, scale %g: component %d is %v, normaliseTo gives %v", d, k, scale, i, a[i], b[i])
		}
		if i := testkit.FirstDiff(ma, mb); i >= 0 {
			t.Fatalf("d %d, K %d, scale %g: mean %d is %v, normaliseTo gives %v", d, k, scale, i, ma[i], mb[i])
		}
	})
}
