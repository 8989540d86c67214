package counter

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/noise"
)

// recNoise draws i.i.d. N(0,1) entries and records every draw in order, so
// that a test can rebuild each release from the draws by an independent,
// naive implementation of the counter's definition.
type recNoise struct {
	n     int
	rng   *rand.Rand
	draws [][]float64
}

func (r *recNoise) Dim() int { return r.n }
func (r *recNoise) Sample(dst []float64) {
	d := make([]float64, r.n)
	for i := range d {
		d[i] = r.rng.NormFloat64()
	}
	copy(dst, d)
	r.draws = append(r.draws, d)
}

func TestCounterZeroNoiseExact(t *testing.T) {
	for _, kind := range Kinds {
		for _, n := range []int{1, 2, 3, 7, 8, 9, 100, 1025} {
			c, err := New(Config{Kind: kind, Dim: 3, Horizon: n, Noise: noise.ZeroNoise{N: 3}})
			if err != nil {
				t.Fatal(err)
			}
			checkZeroNoiseExact(t, fmt.Sprintf("%v n=%d", kind, n), c)
		}
	}
}

// checkZeroNoiseExact runs a 3-dimensional counter with zero node noise over
// its horizon and checks every release against the exact prefix sum.
func checkZeroNoiseExact(t *testing.T, name string, c Counter) {
	t.Helper()
	want := make([]float64, 3)
	got := make([]float64, 3)
	for r := 1; r <= c.Horizon(); r++ {
		z := []float64{float64(r), 0.5, -float64(r * r)}
		c.Add(z)
		for j := range want {
			want[j] += z[j]
		}
		c.SumTo(got)
		for j := range want {
			if got[j] != want[j] {
				t.Fatalf("%s t=%d: sum[%d] = %v, want %v", name, r, j, got[j], want[j])
			}
		}
	}
}

// naiveRelease returns, for each round t = 1..n, the noise of the release
// rebuilt from the recorded draws by the counter's definition (written
// without the counter's incremental bookkeeping).
func naiveRelease(t *testing.T, kind Kind, n int, draws [][]float64, c Counter) [][]float64 {
	dim := len(draws[0])
	out := make([][]float64, n+1)
	add := func(dst, x []float64, w float64) {
		for i := range dst {
			dst[i] += w * x[i]
		}
	}
	switch kind {
	case Honaker:
		// Draw order: round r draws levels 0..tz(r). est(i, r): the estimate
		// of the node of level i closing at r, by its definition.
		idx := map[[2]int]int{}
		k := 0
		for r := 1; r <= n; r++ {
			for i := 0; i <= bits.TrailingZeros(uint(r)); i++ {
				idx[[2]int{i, r}] = k
				k++
			}
		}
		v := []float64{1}
		for i := 1; i <= 64; i++ {
			v = append(v, 1/(1+1/(2*v[i-1])))
		}
		var est func(i, r int) []float64
		est = func(i, r int) []float64 {
			y := draws[idx[[2]int{i, r}]]
			if i == 0 {
				return y
			}
			w := (1 / 1.0) / (1/1.0 + 1/(2*v[i-1]))
			l, rr := est(i-1, r-(1<<(i-1))), est(i-1, r)
			e := make([]float64, dim)
			for j := range e {
				e[j] = w*y[j] + (1-w)*(l[j]+rr[j])
			}
			return e
		}
		for r := 1; r <= n; r++ {
			out[r] = make([]float64, dim)
			// Set bits of r: nodes (i, r with the bits below i cleared).
			for i := 0; i < 63; i++ {
				if r&(1<<i) != 0 {
					add(out[r], est(i, r&^(1<<i-1)), 1)
				}
			}
		}
	case Smooth:
		h, kk := c.(*SmoothBinary).Params()
		node := map[[2]uint64]int{}
		k := 0
		r := 0
		for l := uint64(0); r < n && l < 1<<h; l++ {
			if bits.OnesCount64(l) != kk {
				continue
			}
			r++
			out[r] = make([]float64, dim)
			add(out[r], draws[k], 1) // the leaf
			k++
			for j := 0; j < h; j++ {
				if l&(1<<j) == 0 {
					continue
				}
				key := [2]uint64{uint64(j), l >> (j + 1)}
				if _, ok := node[key]; !ok {
					node[key] = k
					k++
				}
				add(out[r], draws[node[key]], 1)
			}
		}
	case Sqrt, BLT:
		b := make([]float64, n)
		if kind == Sqrt {
			for j := range b {
				lg, _ := math.Lgamma(float64(2*j + 1))
				lj, _ := math.Lgamma(float64(j + 1))
				b[j] = math.Exp(lg - 2*lj - float64(2*j)*math.Ln2)
			}
		} else {
			om, la := BLTParams(n)
			b[0] = 1
			for j := 1; j < n; j++ {
				for i := range om {
					b[j] += om[i] * math.Pow(la[i], float64(j))
				}
			}
		}
		for r := 1; r <= n; r++ {
			out[r] = make([]float64, dim)
			for j := 0; j < r; j++ {
				add(out[r], draws[r-1-j], b[j])
			}
		}
	default:
		t.Fatalf("no naive release for %v", kind)
	}
	return out
}

func TestCounterNoiseMatchesDefinition(t *testing.T) {
	for _, kind := range []Kind{Honaker, Smooth, Sqrt, BLT} {
		for _, n := range []int{1, 5, 64, 100} {
			rn := &recNoise{n: 2, rng: rand.New(rand.NewPCG(1, uint64(n)))}
			c, err := New(Config{Kind: kind, Dim: 2, Horizon: n, Noise: rn})
			if err != nil {
				t.Fatal(err)
			}
			got := make([][]float64, n+1)
			for r := 1; r <= n; r++ {
				c.Add([]float64{0, 0})
				got[r] = c.NoiseTo(nil)
			}
			want := naiveRelease(t, kind, n, rn.draws, c)
			for r := 1; r <= n; r++ {
				for j := range want[r] {
					if !(math.Abs(got[r][j]-want[r][j]) <= 1e-9*(1+math.Abs(want[r][j]))) {
						t.Fatalf("%v n=%d t=%d: noise[%d] = %v, definition %v", kind, n, r, j, got[r][j], want[r][j])
					}
				}
			}
		}
	}
}

// TestCounterCost checks the reported per-record cost against a direct
// count (trees) or a naive O(n²) forward substitution (Toeplitz).
func TestCounterCost(t *testing.T) {
	const n = 300
	// Honaker: nodes (i, r), r ≤ n a multiple of 2^i, contain s iff r − 2^i < s ≤ r.
	h, _ := New(Config{Kind: Honaker, Dim: 1, Horizon: n, Noise: noise.ZeroNoise{N: 1}})
	most := 0
	for s := 1; s <= n; s++ {
		cnt := 0
		for i := 0; i < 20; i++ {
			for r := 1 << i; r <= n; r += 1 << i {
				if r-(1<<i) < s && s <= r {
					cnt++
				}
			}
		}
		most = max(most, cnt)
	}
	if !(float64(most) <= h.Cost().L2Sq) {
		t.Errorf("honaker: a record enters %d nodes, cost says %v", most, h.Cost().L2Sq)
	}
	// Smooth: the nodes drawn (leaf, left siblings) containing each leaf.
	sb, _ := New(Config{Kind: Smooth, Dim: 1, Horizon: n, Noise: noise.ZeroNoise{N: 1}})
	hh, kk := sb.(*SmoothBinary).Params()
	var leaves []uint64
	for l := uint64(0); len(leaves) < n; l++ {
		if bits.OnesCount64(l) == kk {
			leaves = append(leaves, l)
		}
	}
	used := map[[2]uint64]bool{}
	for _, l := range leaves {
		for j := 0; j < hh; j++ {
			if l&(1<<j) != 0 {
				used[[2]uint64{uint64(j), l >> (j + 1)}] = true
			}
		}
	}
	most = 0
	for _, l := range leaves {
		cnt := 1
		for j := 0; j < hh; j++ {
			if l&(1<<j) == 0 && used[[2]uint64{uint64(j), l >> (j + 1)}] {
				cnt++
			}
		}
		most = max(most, cnt)
	}
	if !(float64(most) <= sb.Cost().L2Sq) {
		t.Errorf("smooth: a record enters %d nodes, cost says %v", most, sb.Cost().L2Sq)
	}
	// Toeplitz: c from B c = 1 by naive forward substitution on b.
	for _, kind := range []Kind{Sqrt, BLT} {
		c, _ := New(Config{Kind: kind, Dim: 1, Horizon: n, Noise: noise.ZeroNoise{N: 1}})
		rn := &recNoise{n: 1, rng: rand.New(rand.NewPCG(2, 2))}
		_ = rn
		b := make([]float64, n)
		if kind == Sqrt {
			b = SqrtCoefficients(n)
		} else {
			om, la := BLTParams(n)
			b[0] = 1
			for j := 1; j < n; j++ {
				for i := range om {
					b[j] += om[i] * math.Pow(la[i], float64(j))
				}
			}
		}
		cc := make([]float64, n)
		var l2, l1, vn float64
		for j := 0; j < n; j++ {
			s := 1.0
			for l := 0; l < j; l++ {
				s -= b[j-l] * cc[l]
			}
			cc[j] = s / b[0]
			l2 += cc[j] * cc[j]
			l1 += math.Abs(cc[j])
			vn += b[j] * b[j]
		}
		got := c.Cost()
		if !(math.Abs(got.L2Sq-l2) <= 1e-9*l2 && math.Abs(got.L1-l1) <= 1e-9*l1) {
			t.Errorf("%v: cost %+v, naive (%v, %v)", kind, got, l2, l1)
		}
		if v := c.VarianceAt(n); !(math.Abs(v-vn) <= 1e-9*vn) {
			t.Errorf("%v: VarianceAt(n) = %v, naive %v", kind, v, vn)
		}
	}
}

// TestCounterEmpiricalVariance compares the empirical variance of each
// round's noise over R independent coordinates (the counter's dimension is
// the replication) with VarianceAt. The sample variance of R normals of
// variance V has standard deviation V√(2/(R−1)); the tolerance is 6 of
// them, so over the ≤ 6 counters × 64 rounds the false-failure probability
// is below 400 · 2·10⁻⁹ ≈ 10⁻⁶.
func TestCounterEmpiricalVariance(t *testing.T) {
	const n, R = 64, 4000
	for k, kind := range Kinds {
		nz, _ := noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Simulated, Dim: R, Sigma: 1}, rand.New(rand.NewPCG(7, uint64(k))))
		c, err := New(Config{Kind: kind, Dim: R, Horizon: n, Noise: nz})
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]float64, 2*R)
		for r := 1; r <= n; r++ {
			emp := stepMeanSquare(c, buf)
			v := c.VarianceAt(r)
			if tol := 6 * v * math.Sqrt(2.0/R); !(math.Abs(emp-v) <= tol) {
				t.Errorf("%v t=%d: empirical variance %.4g, reported %.4g (tol %.3g)", kind, r, emp, v, tol)
			}
		}
		if mv := c.MaxVariance(); kind != TreePadded {
			best := 0.0
			for r := 1; r <= n; r++ {
				best = max(best, c.VarianceAt(r))
			}
			if !(math.Abs(mv-best) <= 1e-12*best) {
				t.Errorf("%v: MaxVariance %v, scan %v", kind, mv, best)
			}
		}
	}
}

// stepMeanSquare adds a zero round to c and returns the mean square of the
// release's noise over its coordinates (the mean is 0 by construction:
// divided by Dim()); buf holds 2·Dim() scratch values.
func stepMeanSquare(c Counter, buf []float64) float64 {
	zero, nz := buf[:c.Dim()], buf[c.Dim():2*c.Dim()]
	clear(zero)
	c.Add(zero)
	c.NoiseTo(nz)
	var s float64
	for _, x := range nz {
		s += x * x
	}
	return s / float64(c.Dim())
}

func TestHonakerMaxVariance(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5, 6, 7, 8, 13, 100, 255, 256, 1000, 4097} {
		h, _ := New(Config{Kind: Honaker, Dim: 1, Horizon: n, Noise: noise.ZeroNoise{N: 1}})
		best := 0.0
		for r := 1; r <= n; r++ {
			best = max(best, h.VarianceAt(r))
		}
		if h.MaxVariance() != best {
			t.Errorf("n=%d: MaxVariance %v, scan %v", n, h.MaxVariance(), best)
		}
	}
}

func TestCounterErrors(t *testing.T) {
	for _, kind := range Kinds {
		if _, err := New(Config{Kind: kind, Dim: 0, Horizon: 10, Noise: noise.ZeroNoise{N: 0}}); err == nil {
			t.Errorf("%v: dim 0 accepted", kind)
		}
		if _, err := New(Config{Kind: kind, Dim: 2, Horizon: 0, Noise: noise.ZeroNoise{N: 2}}); err == nil {
			t.Errorf("%v: horizon 0 accepted", kind)
		}
		if _, err := New(Config{Kind: kind, Dim: 2, Horizon: 10, Noise: noise.ZeroNoise{N: 3}}); err == nil {
			t.Errorf("%v: noise of the wrong dimension accepted", kind)
		}
		if _, err := New(Config{Kind: kind, Dim: 2, Horizon: 10, Noise: nil}); err == nil {
			t.Errorf("%v: nil noise accepted", kind)
		}
		if k, err := ParseKind(kind.String()); err != nil || k != kind {
			t.Errorf("ParseKind(%q) = %v, %v", kind.String(), k, err)
		}
	}
	if _, err := New(Config{Kind: Sqrt, Dim: 1, Horizon: MaxSqrtHorizon + 1, Noise: noise.ZeroNoise{N: 1}}); err == nil {
		t.Error("sqrt counter above its horizon limit accepted")
	}
	if _, err := New(Config{Kind: BLT, Dim: 1, Horizon: 10, Noise: noise.ZeroNoise{N: 1}, Omega: []float64{1}, Lambda: []float64{1}}); err == nil {
		t.Error("BLT λ = 1 accepted")
	}
	if _, err := ParseKind("bogus"); err == nil {
		t.Error("unknown counter name accepted")
	}
}

func TestProfileCounterMatchesCounter(t *testing.T) {
	for _, kind := range Kinds {
		for _, n := range []int{1, 7, 64, 1000} {
			p, err := ProfileOf(kind, n)
			if err != nil {
				t.Fatal(err)
			}
			c, _ := New(Config{Kind: kind, Dim: 1, Horizon: n, Noise: noise.ZeroNoise{N: 1}})
			if mv, mean, cost := c.MaxVariance(), MeanVariance(c), c.Cost(); !(math.Abs(p.MaxVar-mv) <= 1e-9*mv && math.Abs(p.MeanVar-mean) <= 1e-9*mean &&
				math.Abs(p.Cost.L2Sq-cost.L2Sq) <= 1e-9*cost.L2Sq && math.Abs(p.Cost.L1-cost.L1) <= 1e-9*cost.L1) {
				t.Errorf("%v n=%d: profile %+v, counter max %v mean %v cost %+v", kind, n, p, mv, mean, cost)
			}
		}
	}
}

// TestCounterRatios logs the counters' table (noise variance at equal
// privacy relative to the plain tree) and checks the orderings the
// literature proves: Honaker below the tree it estimates on, the smooth
// binary mechanism's max below half the tree's, the square root below all.
func TestCounterRatios(t *testing.T) {
	ns := []int{1 << 16, 1 << 20}
	if !testing.Short() {
		ns = append(ns, 1<<24)
	}
	for _, n := range ns {
		base, _ := ProfileOf(Tree, n)
		for _, kind := range Kinds {
			p, err := ProfileOf(kind, n)
			if err != nil {
				t.Fatal(err)
			}
			rmax, rmean := p.MaxAtPrivacy()/base.MaxAtPrivacy(), p.MeanAtPrivacy()/base.MeanAtPrivacy()
			t.Logf("n=2^%d %-12v max %.3f mean %.3f (cost %.3f, max var %.3f)", bits.Len(uint(n))-1, kind, rmax, rmean, p.Cost.L2Sq, p.MaxVar)
			switch kind {
			case Honaker:
				if !(rmax < 1 && rmean < 1) {
					t.Errorf("honaker not below the tree at n=%d", n)
				}
			case Smooth:
				if !(rmax < 0.5) {
					t.Errorf("smooth max ratio %v not below 1/2 at n=%d", rmax, n)
				}
			case Sqrt:
				if !(rmax < 0.5 && rmean < 1) {
					t.Errorf("sqrt ratios %v %v at n=%d", rmax, rmean, n)
				}
			}
		}
	}
}
