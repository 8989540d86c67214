package as17

import (
	"math"
	"math/bits"
	"sort"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// releaseNoise builds reps independent trees of horizon n (dim 1, Lap(b)
// node noise) and returns noise[t-1][rep], the noise of the release at t.
func releaseNoise(t *testing.T, mode counter.ReleaseMode, n, reps int, b float64, id uint64) [][]float64 {
	t.Helper()
	rng := bandit.Stream(1, id)
	nz := make([][]float64, n)
	for i := range nz {
		nz[i] = make([]float64, reps)
	}
	buf := make([]float64, 1)
	for r := range reps {
		lap, err := noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: noise.Simulated, Dim: 1, Scale: b}, rng)
		if err != nil {
			t.Fatal(err)
		}
		ts, err := counter.New(counter.Config{Kind: counter.Tree, Dim: 1, Horizon: n, Noise: lap, Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		for s := 1; s <= n; s++ {
			ts.Add([]float64{0.25})
			nz[s-1][r] = ts.NoiseTo(buf)[0]
		}
	}
	return nz
}

// sampleVarTol returns the sample variance of x and the 1e-5 two-sided
// tolerance for it when x is a sum of k i.i.d. Lap(b): Var(s²) ≈ (μ₄ − σ⁴)/n
// with σ² = 2kb² and μ₄ = 24kb⁴ + 12k(k−1)b⁴ (sum of k Laplace variables).
func sampleVarTol(x []float64, k int, b float64) (v, want, tol float64) {
	var m float64
	for _, e := range x {
		m += e
	}
	m /= float64(len(x))
	for _, e := range x {
		v += (e - m) * (e - m)
	}
	v /= float64(len(x) - 1)
	kf, b4 := float64(k), b*b*b*b
	want = 2 * kf * b * b
	mu4 := 24*kf*b4 + 12*kf*(kf-1)*b4
	tol = testkit.Z5 * math.Sqrt((mu4-want*want)/float64(len(x)))
	return v, want, tol
}

// TestTreeBasedAggVariance checks AS17 Lemma 3.3's "Distribution" claim on
// the second moment: in Padded mode the release noise at every t has variance
// m·2λ² (m = Levels()), while in Plain mode it is popcount(t)·2λ².
// Each assertion fails spuriously with probability ≈ 1e-5 (normal
// approximation of the sample variance, 20000 draws).
func TestTreeBasedAggVariance(t *testing.T) {
	const n, b = 12, 1.5
	reps := 20000
	if testing.Short() {
		reps = 8000
	}
	m := counter.TreeLevels(n)
	for _, mode := range []counter.ReleaseMode{counter.Padded, counter.Plain} {
		nz := releaseNoise(t, mode, n, reps, b, uint64(10+mode))
		for s := 1; s <= n; s++ {
			k := m
			if mode == counter.Plain {
				k = bits.OnesCount(uint(s))
			}
			v, want, tol := sampleVarTol(nz[s-1], k, b)
			if math.Abs(v-want) > tol {
				t.Errorf("%v t=%d: noise variance %.3f, want %d·2λ² = %.3f ± %.3f", mode, s, v, k, want, tol)
			}
		}
	}
}

// ks2 returns the two-sample Kolmogorov–Smirnov statistic D.
func ks2(a, b []float64) float64 {
	x := append([]float64(nil), a...)
	y := append([]float64(nil), b...)
	sort.Float64s(x)
	sort.Float64s(y)
	var i, j int
	var d float64
	for i < len(x) && j < len(y) {
		v := math.Min(x[i], y[j])
		for i < len(x) && x[i] <= v {
			i++
		}
		for j < len(y) && y[j] <= v {
			j++
		}
		d = math.Max(d, math.Abs(float64(i)/float64(len(x))-float64(j)/float64(len(y))))
	}
	return d
}

// ksCrit is the asymptotic two-sample KS critical value at level α = 1e-5:
// c(α)·√((n+m)/(nm)) with c(α) = √(−ln(α/2)/2) = 2.4705.
func ksCrit(n, m int) float64 {
	return 2.4705 * math.Sqrt(float64(n+m)/float64(n*m))
}

// TestTreeBasedAggIdenticalLaw compares the whole law of the release noise
// across rounds with two-sample KS tests: in Padded mode every round's noise
// (t = 1 holds one tree node and m−1 padding draws, t = 7 three nodes, …)
// must be indistinguishable from round n's. Each comparison uses independent
// trees (different streams), so the samples are independent; each assertion
// fails spuriously with probability ≈ 1e-5. The Plain-mode contrast (t = 1
// vs t = 7, variances 2λ² vs 6λ²) must be rejected: this shows the test has power.
func TestTreeBasedAggIdenticalLaw(t *testing.T) {
	const n, b = 12, 1.0
	reps := 6000
	if testing.Short() {
		reps = 3000
	}
	ref := releaseNoise(t, counter.Padded, n, reps, b, 20)[n-1]
	other := releaseNoise(t, counter.Padded, n, reps, b, 21)
	for _, s := range []int{1, 2, 3, 7, 8, 11} {
		if d, c := ks2(other[s-1], ref), ksCrit(reps, reps); d > c {
			t.Errorf("padded: KS distance between t=%d and t=%d is %.4f > %.4f", s, n, d, c)
		}
	}
	pa := releaseNoise(t, counter.Plain, n, reps, b, 22)
	pb := releaseNoise(t, counter.Plain, n, reps, b, 23)
	if d, c := ks2(pa[0], pb[6]), ksCrit(reps, reps); d <= c {
		t.Errorf("plain: KS distance between t=1 and t=7 is %.4f <= %.4f; the test has no power", d, c)
	}
}

// TestFTRLInitialNoise checks Algorithm 1 lines 2–3: before any loss, a
// padded learner's L̃_0 already carries m draws (variance m·2λ²), a plain one none.
func TestFTRLInitialNoise(t *testing.T) {
	const n, lam = 16, 2.0
	reps := 6000
	rng := bandit.Stream(1, 30)
	x := make([]float64, reps)
	m := counter.TreeLevels(n)
	for r := range reps {
		lap, _ := noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: noise.Simulated, Dim: 1, Scale: lam}, rng)
		ls, err := newLeaderSum(1, n, lap, counter.Padded)
		if err != nil {
			t.Fatal(err)
		}
		x[r] = ls.sum[0]
	}
	v, want, tol := sampleVarTol(x, m, lam)
	if math.Abs(v-want) > tol { // false-failure probability ≈ 1e-5
		t.Errorf("L̃_0 variance %.3f, want %.3f ± %.3f", v, want, tol)
	}
	lap, _ := noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: noise.Simulated, Dim: 1, Scale: lam}, rng)
	ls, _ := newLeaderSum(1, n, lap, counter.Plain)
	if ls.sum[0] != 0 {
		t.Errorf("plain L̃_0 = %v, want 0", ls.sum[0])
	}
}
