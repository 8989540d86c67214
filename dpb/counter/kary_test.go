package counter

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

var karyArities = []int{2, 3, 4, 5, 7, 10, 16, 64}

// karyDigits returns the base-k digits of t, lowest first (a naive
// reference written apart from the counter's carry bookkeeping).
func karyDigits(t, k int) []int {
	var d []int
	for ; t > 0; t /= k {
		d = append(d, t%k)
	}
	return d
}

// karyRelease returns the blocks of the release at t by the definition:
// per level i, the d_i blocks of k^i rounds ending at base + j·k^i,
// j = 1..d_i, base = ⌊t/k^{i+1}⌋·k^{i+1}; each as (level, end round).
func karyRelease(t, k int) [][2]int {
	var out [][2]int
	pw := 1
	for i, d := range karyDigits(t, k) {
		base := t / (pw * k) * (pw * k)
		for j := 1; j <= d; j++ {
			out = append(out, [2]int{i, base + j*pw})
		}
		pw *= k
	}
	return out
}

func TestKaryZeroNoiseExact(t *testing.T) {
	for _, k := range karyArities {
		for _, n := range []int{1, 2, 8, 9, 26, 27, 28, 100, 1000, 4097} {
			c, err := New(Config{Kind: Kary, Dim: 3, Horizon: n, Noise: noise.ZeroNoise{N: 3}, Arity: k})
			if err != nil {
				t.Fatal(err)
			}
			checkZeroNoiseExact(t, fmt.Sprintf("k=%d n=%d", k, n), c)
		}
	}
}

// TestKaryNoiseMatchesDefinition rebuilds every release from the recorded
// draws: round r draws the block of level v_k(r) (the lowest nonzero digit
// of r) ending at r, so the block (i, e) is draw e − 1; the release at t is
// the sum, all with sign +1, of karyRelease(t). VarianceAt(t) must be the
// number of those blocks, with no block twice.
func TestKaryNoiseMatchesDefinition(t *testing.T) {
	for _, k := range karyArities {
		for _, n := range []int{1, 5, 64, 100, 730} {
			rn := &recNoise{n: 2, rng: rand.New(rand.NewPCG(3, uint64(n*k)))}
			c, err := New(Config{Kind: Kary, Dim: 2, Horizon: n, Noise: rn, Arity: k})
			if err != nil {
				t.Fatal(err)
			}
			for r := 1; r <= n; r++ {
				c.Add([]float64{0, 0})
				if len(rn.draws) != r {
					t.Fatalf("k=%d n=%d: %d draws after round %d", k, n, len(rn.draws), r)
				}
				got := c.NoiseTo(nil)
				want := make([]float64, 2)
				seen := map[[2]int]bool{}
				for _, b := range karyRelease(r, k) {
					if seen[b] || b[1] > r {
						t.Fatalf("k=%d t=%d: block %v repeated or not closed", k, r, b)
					}
					seen[b] = true
					lowest := 0
					for _, d := range karyDigits(b[1], k) {
						if d != 0 {
							break
						}
						lowest++
					}
					if lowest != b[0] {
						t.Fatalf("k=%d t=%d: block %v is not the one round %d draws (level %d)", k, r, b, b[1], lowest)
					}
					for j := range want {
						want[j] += rn.draws[b[1]-1][j]
					}
				}
				for j := range want {
					if !(math.Abs(got[j]-want[j]) <= 1e-12*(1+math.Abs(want[j]))) {
						t.Fatalf("k=%d n=%d t=%d: noise[%d] = %v, definition %v", k, n, r, j, got[j], want[j])
					}
				}
				if v := c.VarianceAt(r); v != float64(len(seen)) {
					t.Fatalf("k=%d t=%d: VarianceAt %v, definition counts %d nodes", k, r, v, len(seen))
				}
			}
		}
	}
}

// TestKaryExactStatistics: MaxVariance, the mean digit sum, the levels and
// the cost against direct scans. The cost is the largest number of
// released blocks (over all t ≤ n) that contain one record s.
func TestKaryExactStatistics(t *testing.T) {
	for _, k := range karyArities {
		for _, n := range []int{1, 2, 3, 7, 8, 9, 63, 64, 65, 100, 255, 1000, 4097} {
			cc, _ := New(Config{Kind: Kary, Dim: 1, Horizon: n, Noise: noise.ZeroNoise{N: 1}, Arity: k})
			c := cc.(*KaryTree)
			best, sum := 0.0, 0.0
			used := map[[2]int]bool{}
			for r := 1; r <= n; r++ {
				v := c.VarianceAt(r)
				best, sum = max(best, v), sum+v
				for _, b := range karyRelease(r, k) {
					used[b] = true
				}
			}
			if c.MaxVariance() != best {
				t.Errorf("k=%d n=%d: MaxVariance %v, scan %v", k, n, c.MaxVariance(), best)
			}
			if m := KaryMeanDigitSum(n, k); !(math.Abs(m-sum/float64(n)) <= 1e-12*m) {
				t.Errorf("k=%d n=%d: KaryMeanDigitSum %v, scan %v", k, n, m, sum/float64(n))
			}
			most := 0
			for s := 1; s <= n; s++ {
				cnt := 0
				pw := 1
				for i := 0; pw <= n; i++ {
					// The level-i block containing s ends at ⌈s/k^i⌉·k^i.
					if used[[2]int{i, (s + pw - 1) / pw * pw}] {
						cnt++
					}
					if pw > n/k {
						break
					}
					pw *= k
				}
				most = max(most, cnt)
			}
			h := len(karyDigits(n, k))
			if got := c.Cost(); got.L1 != float64(most) || got.L2Sq != float64(most) || c.Levels() != h {
				t.Errorf("k=%d n=%d: cost %+v, levels %d; a record enters at most %d used blocks, n has %d digits", k, n, got, c.Levels(), most, h)
			}
		}
	}
}

// TestKaryArity: the default arity is the argmin of max digit sum × h² by
// a brute-force scan of every t ≤ n.
func TestKaryArity(t *testing.T) {
	for _, n := range []int{1, 2, 10, 100, 1000, 5000} {
		best, arg := -1, 0
		for k := MinKaryArity; k <= MaxKaryArity; k++ {
			mx := 0
			for r := 1; r <= n; r++ {
				s := 0
				for _, d := range karyDigits(r, k) {
					s += d
				}
				mx = max(mx, s)
			}
			h := len(karyDigits(n, k))
			if c := mx * h * h; best < 0 || c < best {
				best, arg = c, k
			}
		}
		if got := KaryArity(n); got != arg {
			t.Errorf("n=%d: KaryArity %d, scan %d", n, got, arg)
		}
	}
}

// TestKaryEmpiricalVarianceLaplace: the release noise with Laplace(b)
// node draws has per-coordinate variance 2b²·VarianceAt(t). Over R
// independent coordinates the mean of the squares of a sum of m i.i.d.
// Laplace draws (variance V) has standard deviation V·√((2 + 3/m)/R) ≤
// V·√(5/R) (the fourth cumulant of Lap(b) is 12b⁴). The tolerance is 6 of
// those: with 3 arities × ≤ 300 rounds, the false-failure probability is
// below 900 · 2·10⁻⁹ < 10⁻⁵ (normal approximation at R = 4000).
func TestKaryEmpiricalVarianceLaplace(t *testing.T) {
	const n, R, b = 300, 4000, 0.7
	for i, k := range []int{3, 5, 17} {
		nz, _ := noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: noise.Simulated, Dim: R, Scale: b}, rand.New(rand.NewPCG(11, uint64(i))))
		c, err := New(Config{Kind: Kary, Dim: R, Horizon: n, Noise: nz, Arity: k})
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]float64, 2*R)
		for r := 1; r <= n; r++ {
			emp := stepMeanSquare(c, buf)
			v := 2 * b * b * c.VarianceAt(r)
			if tol := 6 * v * math.Sqrt(5.0/R); !(math.Abs(emp-v) <= tol) {
				t.Errorf("k=%d t=%d: empirical variance %.4g, reported %.4g (tol %.3g)", k, r, emp, v, tol)
			}
		}
	}
}

func TestKaryErrors(t *testing.T) {
	for _, a := range []int{-1, 1, 65, 1000} { // 0 is the default arity (TestNewConfig)
		_, err := New(Config{Kind: Kary, Dim: 1, Horizon: 10, Noise: noise.ZeroNoise{N: 1}, Arity: a})
		if err == nil || !strings.Contains(err.Error(), "arity") || !strings.Contains(err.Error(), fmt.Sprint(a)) {
			t.Errorf("arity %d: error %v", a, err)
		}
	}
	bad := []struct {
		dim, n int
		noise  noise.Noise
	}{{0, 10, noise.ZeroNoise{N: 0}}, {1, 0, noise.ZeroNoise{N: 1}}, {1, -3, noise.ZeroNoise{N: 1}}, {2, 10, noise.ZeroNoise{N: 1}}, {1, 10, nil}}
	for _, c := range bad {
		if _, err := New(Config{Kind: Kary, Dim: c.dim, Horizon: c.n, Noise: c.noise, Arity: 4}); err == nil {
			t.Errorf("dim %d, n %d, noise %v accepted", c.dim, c.n, c.noise)
		}
	}
	if sec, err := noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: noise.Secure, Dim: 1, Scale: 1, Sensitivity: 1}, nil); err == nil {
		if _, err := New(Config{Kind: Kary, Dim: 1, Horizon: 10, Noise: sec, Arity: 4}); err != nil {
			t.Errorf("gridded secure noise refused: %v", err)
		}
	}
	c, _ := New(Config{Kind: Kary, Dim: 2, Horizon: 3, Noise: noise.ZeroNoise{N: 2}, Arity: 2})
	testkit.MustPanic(t, func() { c.Add([]float64{1}) })
	for range 3 {
		c.Add([]float64{1, 1})
	}
	testkit.MustPanic(t, func() { c.Add([]float64{1, 1}) })
}

func TestKaryNoAllocs(t *testing.T) {
	nz, _ := noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: noise.Simulated, Dim: 21, Scale: 1}, rand.New(rand.NewPCG(1, 1)))
	c, _ := New(Config{Kind: Kary, Dim: 21, Horizon: 1 << 20, Noise: nz, Arity: 8})
	z, dst := make([]float64, 21), make([]float64, 21)
	if a := testing.AllocsPerRun(2000, func() {
		c.Add(z)
		c.SumTo(dst)
		c.NoiseTo(dst)
	}); a != 0 {
		t.Errorf("%v allocations per round", a)
	}
}

// TestKaryRatios logs the k-ary tree against the plain binary tree with
// Laplace noise at equal ε (variance × L1², max and mean over rounds) for
// k = 2..32 and the default arity, and checks that the default beats the
// binary tree, Honaker's estimator and the smooth binary mechanism at every
// horizon of the table, and that MaxAtLaplace is the explicit product.
func TestKaryRatios(t *testing.T) {
	ns := []int{10_000, 100_000, 1 << 16}
	if !testing.Short() {
		ns = append(ns, 1_000_000, 1<<20, 1<<24)
	}
	for _, n := range ns {
		tree, _ := ProfileOf(Tree, n)
		bmax, bmean := tree.MaxAtLaplace(), tree.MeanAtLaplace()
		var line strings.Builder
		for k := 2; k <= 32; k++ {
			h := float64(KaryLevels(n, k))
			fmt.Fprintf(&line, " %d:%.3f/%.3f", k, float64(KaryMaxDigitSum(n, k))*h*h/bmax, KaryMeanDigitSum(n, k)*h*h/bmean)
		}
		k := KaryArity(n)
		h := float64(KaryLevels(n, k))
		p, _ := ProfileOf(Kary, n)
		if want := float64(KaryMaxDigitSum(n, k)) * h * h; p.MaxAtLaplace() != want {
			t.Errorf("n=%d: MaxAtLaplace %v, want %v", n, p.MaxAtLaplace(), want)
		}
		rmax, rmean := p.MaxAtLaplace()/bmax, p.MeanAtLaplace()/bmean
		t.Logf("n=%d default k=%d: max %.3f mean %.3f; k:max/mean%s", n, k, rmax, rmean, line.String())
		for _, other := range []Kind{Tree, Honaker, Smooth} {
			q, _ := ProfileOf(other, n)
			if !(p.MaxAtLaplace() < q.MaxAtLaplace() && p.MeanAtLaplace() < q.MeanAtLaplace()) {
				t.Errorf("n=%d: the k-ary tree (k=%d) is not below %v with Laplace noise: max %v vs %v, mean %v vs %v",
					n, k, other, p.MaxAtLaplace(), q.MaxAtLaplace(), p.MeanAtLaplace(), q.MeanAtLaplace())
			}
		}
	}
}
