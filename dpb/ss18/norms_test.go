package ss18

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mathext"
)

var genGOE = flag.Bool("gen-goe", false, "print goeLambdaMaxMC (norms.go) recomputed from its draws")

// goeLambdaMax returns λ_max of the symmetric d×d matrix a (row-major,
// overwritten) by cyclic Jacobi rotations (Golub & Van Loan §8.5), in plain
// float64 arithmetic with explicit roundings (no fused multiply-add), so
// that the table is the same on every architecture.
func goeLambdaMax(a []float64, d int) float64 {
	for sweep := 0; sweep < 100; sweep++ {
		var off float64
		for p := 0; p < d; p++ {
			for q := p + 1; q < d; q++ {
				off += float64(a[p*d+q] * a[p*d+q])
			}
		}
		if off < 1e-30 {
			break
		}
		for p := 0; p < d; p++ {
			for q := p + 1; q < d; q++ {
				apq := a[p*d+q]
				if apq == 0 {
					continue
				}
				theta := (a[q*d+q] - a[p*d+p]) / float64(2*apq)
				t := 1 / (math.Abs(theta) + math.Sqrt(float64(theta*theta)+1))
				if theta < 0 {
					t = -t
				}
				c := 1 / math.Sqrt(float64(t*t)+1)
				s := float64(t * c)
				for k := 0; k < d; k++ {
					akp, akq := a[k*d+p], a[k*d+q]
					a[k*d+p] = float64(c*akp) - float64(s*akq)
					a[k*d+q] = float64(s*akp) + float64(c*akq)
				}
				for k := 0; k < d; k++ {
					apk, aqk := a[p*d+k], a[q*d+k]
					a[p*d+k] = float64(c*apk) - float64(s*aqk)
					a[q*d+k] = float64(s*apk) + float64(c*aqk)
				}
			}
		}
	}
	m := math.Inf(-1)
	for i := 0; i < d; i++ {
		m = max(m, a[i*d+i])
	}
	return m
}

// goeMCMean returns the sample mean of λ_max(W) over m d×d GOE matrices
// from rand.New(rand.NewPCG(goeMCSeed, d)): the table's recipe.
func goeMCMean(d, m int) float64 {
	rng := rand.New(rand.NewPCG(goeMCSeed, uint64(d)))
	a := make([]float64, d*d)
	var sum float64
	for range m {
		for i := 0; i < d; i++ {
			a[i*d+i] = float64(math.Sqrt2 * rng.NormFloat64())
			for j := i + 1; j < d; j++ {
				v := rng.NormFloat64()
				a[i*d+j], a[j*d+i] = v, v
			}
		}
		sum += goeLambdaMax(a, d)
	}
	return sum / float64(m)
}

// TestGOELambdaMaxTable: with -gen-goe it prints the table; in its long
// form it re-derives the entries d ≤ 4 bit for bit (the larger ones take
// minutes); always, every entry lies below Sudakov–Fernique's 2√d and
// increases with d, and d = 1 (λ_max = √2 Z, mean 0) is within 5 s.e.
// (sd √2/√m) of 0 (false-failure probability < 10⁻⁶).
func TestGOELambdaMaxTable(t *testing.T) {
	if *genGOE {
		var b strings.Builder
		for d := 1; d <= 16; d++ {
			fmt.Fprintf(&b, "\t%v, // d = %d\n", goeMCMean(d, goeMCSamples), d)
		}
		t.Logf("goeLambdaMaxMC:\n%s", b.String())
		return
	}
	if len(goeLambdaMaxMC) < 10 {
		t.Fatalf("goeLambdaMaxMC has %d entries, want ≥ 10 (regenerate with -gen-goe)", len(goeLambdaMaxMC))
	}
	for i, v := range goeLambdaMaxMC {
		d := i + 1
		if v >= 2*math.Sqrt(float64(d)) {
			t.Errorf("d = %d: Ê = %v ≥ 2√d", d, v)
		}
		if i > 0 && v <= goeLambdaMaxMC[i-1] {
			t.Errorf("d = %d: Ê = %v not above d − 1's %v", d, v, goeLambdaMaxMC[i-1])
		}
	}
	if se := math.Sqrt2 / math.Sqrt(goeMCSamples); math.Abs(goeLambdaMaxMC[0]) > 5*se {
		t.Errorf("d = 1: Ê = %v, want 0 within 5 s.e. (%v)", goeLambdaMaxMC[0], 5*se)
	}
	if testing.Short() {
		return
	}
	for d := 1; d <= 4; d++ {
		if got := goeMCMean(d, goeMCSamples); got != goeLambdaMaxMC[d-1] {
			t.Errorf("d = %d: recomputed %v, table %v", d, got, goeLambdaMaxMC[d-1])
		}
	}
}

// TestGOELambdaMaxJacobi: the Jacobi λ_max against the closed form of 2×2
// matrices and of diagonal ones.
func TestGOELambdaMaxJacobi(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		a, b, c := rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()
		want := (a+c)/2 + math.Sqrt((a-c)*(a-c)/4+b*b)
		if got := goeLambdaMax([]float64{a, b, b, c}, 2); math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
			t.Fatalf("[[%v %v] [%v %v]]: λ_max %v, want %v", a, b, b, c, got, want)
		}
	}
	if got := goeLambdaMax([]float64{1, 0, 0, 0, 3, 0, 0, 0, -2}, 3); got != 3 {
		t.Fatalf("diag(1, 3, −2): λ_max %v, want 3", got)
	}
}

// TestChiQuantileUpper: q_d(p) is at least the exact quantile (gonum's
// inverse regularised gamma, an independent implementation) and within
// 2 % of it for p ≤ 10⁻², and below the Lipschitz bound √d + √(2 ln(1/p)) it replaces.
func TestChiQuantileUpper(t *testing.T) {
	for d := 1; d <= 16; d++ {
		for _, p := range []float64{0.3, 1e-2, 1e-4, 1e-6, 1e-9, 1e-12, 1e-15} {
			q := chiQuantileUpper(d, p)
			exact := math.Sqrt(2 * mathext.GammaIncRegCompInv(float64(d)/2, p))
			if q < exact*(1-1e-9) || (p <= 1e-2 && q > exact*1.02) {
				t.Errorf("d = %d, p = %g: q = %v, exact %v", d, p, q, exact)
			}
			if lip := math.Sqrt(float64(d)) + math.Sqrt(2*math.Log(1/p)); q > lip {
				t.Errorf("d = %d, p = %g: q = %v above the Lipschitz bound %v", d, p, q, lip)
			}
		}
	}
}

// TestChiTailUpperControl: chiTailUpper's defect of the kind a transcription
// would make (the odd-d sum from j = 0, or erfc's bound with 2 for 4/π,
// which is a lower bound) puts q below the exact quantile: the test above
// would fail on it. Here: the lower bound of A&S 7.1.13 gives a q below
// the exact one at d = 3, p = 10⁻⁶.
func TestChiTailUpperControl(t *testing.T) {
	d, p := 3, 1e-6
	exact := math.Sqrt(2 * mathext.GammaIncRegCompInv(float64(d)/2, p))
	tail := func(x float64) float64 { // chiTailUpper with erfc's lower bound
		h := x / 2
		z := math.Sqrt(h)
		erfc := 2 * math.Exp(-h) / (math.Sqrt(math.Pi) * (z + math.Sqrt(z*z+2)))
		return erfc + math.Exp(-h)*z/(math.Sqrt(math.Pi)/2)
	}
	lo, hi := 0.0, 10.0
	for range 100 {
		if mid := (lo + hi) / 2; tail(mid*mid) <= p {
			hi = mid
		} else {
			lo = mid
		}
	}
	if hi >= exact*(1-1e-9) {
		t.Fatalf("control q = %v not below the exact %v: the test could not catch it", hi, exact)
	}
}

// TestGOEMeanBound: Ê_d is the table's mean plus the half-width, at least
// the mean and below 2√d inside the table, and 2√d beyond it.
func TestGOEMeanBound(t *testing.T) {
	for d := 1; d <= len(goeLambdaMaxMC)+2; d++ {
		got, sf := goeMeanBound(d, 1e-6), 2*math.Sqrt(float64(d))
		if d > len(goeLambdaMaxMC) {
			if got != sf {
				t.Errorf("d = %d beyond the table: Ê = %v, want 2√d = %v", d, got, sf)
			}
			continue
		}
		hw := math.Sqrt(4 * math.Log(1e6) / goeMCSamples)
		if want := min(sf, goeLambdaMaxMC[d-1]+hw); math.Abs(got-want) > 1e-12 {
			t.Errorf("d = %d: Ê = %v, want the table's %v + %v", d, got, goeLambdaMaxMC[d-1], hw)
		}
	}
}

// TestRoundNoiseNorms: for the same σ's, variance and budget the Norms
// bounds are below roundNoise's (Ê_d < 2√d, q_d below the Lipschitz bound)
// and g is at least the exact χ_d quantile at the budget's half.
func TestRoundNoiseNorms(t *testing.T) {
	for _, d := range []int{3, 5, 10} {
		for _, a := range []float64{1e-3, 1e-6, 1e-9} {
			u0, g0 := roundNoise(2, 3, 1.7, math.Sqrt(float64(d)), a)
			u1, g1 := roundNoiseNorms(2, 3, 1.7, goeMeanBound(d, 1e-3), a, normsQuantile(d, a))
			exact := 3 * math.Sqrt(1.7) * math.Sqrt(2*mathext.GammaIncRegCompInv(float64(d)/2, a/2))
			if u1 >= u0 || g1 >= g0 || g1 < exact*(1-1e-9) {
				t.Errorf("d = %d, a = %g: Υ %v (was %v), g %v (was %v, exact %v)", d, a, u1, u0, g1, g0, exact)
			}
		}
	}
}
