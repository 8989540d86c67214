package noise

import (
	"fmt"
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"gonum.org/v1/gonum/stat/distuv"
)

func TestSymGaussianMoments(t *testing.T) {
	N := 100000
	if testing.Short() {
		N = 40000
	}
	for _, tc := range []struct {
		n     int
		sigma float64
	}{{1, 3}, {4, 0.7}, {6, 1e-3}} {
		t.Run(fmt.Sprintf("n=%d", tc.n), func(t *testing.T) {
			g, err := New(Config{Law: SymGaussianLaw, Mode: Simulated, N: tc.n, Sigma: tc.sigma}, bandit.Stream(10, uint64(tc.n)))
			if err != nil {
				t.Fatal(err)
			}
			cols := sampleColumns(g, N)
			s2 := tc.sigma * tc.sigma
			for i := 0; i < tc.n; i++ {
				for j := i; j < tc.n; j++ {
					wantVar := s2 // off-diagonal: ((Z′_ij + Z′_ji)/√2) ~ N(0, σ²)
					if i == j {
						wantVar = 2 * s2 // diagonal: √2 Z′_ii ~ N(0, 2σ²)
					}
					x := cols[simd.PackedIndex(tc.n, i, j)].x
					mean, v, _, _ := (&momentCheck{x}).meanVar()
					// Exact sampling laws for normal data: mean ~ N(0, σ²/N),
					// (N−1)s²/σ² ~ χ²(N−1) ≈ N(σ², 2σ⁴/(N−1)). Each assertion:
					// false-failure ≈ 1e-5.
					if tol := zTwoSided1e5 * math.Sqrt(wantVar/float64(N)); math.Abs(mean) > tol {
						t.Errorf("E Z[%d,%d] = %.4g, want 0 ± %.3g", i, j, mean, tol)
					}
					if tol := zTwoSided1e5 * wantVar * math.Sqrt(2/float64(N-1)); math.Abs(v-wantVar) > tol {
						t.Errorf("Var Z[%d,%d] = %.6g, want %.6g ± %.3g", i, j, v, wantVar, tol)
					}
				}
			}
			// Independence of distinct entries: for independent normals the
			// sample correlation r satisfies √N·r ≈ N(0, 1). Each pair:
			// false-failure ≈ 1e-5.
			checkUncorrelated(t, cols)
			// Normality of the diagonal and off-diagonal marginals (KS,
			// DKW–Massart bound: false-failure <= 1e-5 each).
			tol := ksC1e5 / math.Sqrt(float64(N))
			diag := append([]float64(nil), cols[0].x...)
			if d := ksOneSample(diag, distuv.Normal{Sigma: math.Sqrt2 * tc.sigma}.CDF); d > tol {
				t.Errorf("diagonal: KS distance to N(0, 2σ²) %.4f > %.4f", d, tol)
			}
			if tc.n > 1 {
				off := append([]float64(nil), cols[1].x...)
				if d := ksOneSample(off, distuv.Normal{Sigma: tc.sigma}.CDF); d > tol {
					t.Errorf("off-diagonal: KS distance to N(0, σ²) %.4f > %.4f", d, tol)
				}
			}
		})
	}
}

func TestSymGaussianErrorsAndAllocs(t *testing.T) {
	rng := bandit.Stream(11, 0)
	for _, tc := range []struct {
		n     int
		sigma float64
	}{{0, 1}, {3, 0}, {3, -2}, {3, math.NaN()}, {3, math.Inf(1)}} {
		if _, err := New(Config{Law: SymGaussianLaw, Mode: Simulated, N: tc.n, Sigma: tc.sigma}, rng); err == nil {
			t.Errorf("NewSymGaussianNoise(%d, %v) accepted", tc.n, tc.sigma)
		}
	}
	gAny, err := New(Config{Law: SymGaussianLaw, Mode: Simulated, N: 5, Sigma: 2}, rng)
	if err != nil {
		t.Fatal(err)
	}
	g := gAny.(*SymGaussianNoise)
	if g.Dim() != 15 || g.N() != 5 || g.Sigma() != 2 {
		t.Errorf("accessors: Dim %d N %d Sigma %v", g.Dim(), g.N(), g.Sigma())
	}
	dst := make([]float64, 15)
	if allocs := testing.AllocsPerRun(100, func() { g.Sample(dst) }); allocs != 0 {
		t.Errorf("Sample allocates %v times per call", allocs)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Sample with wrong length did not panic")
			}
		}()
		g.Sample(make([]float64, 14))
	}()
}

func BenchmarkSymGaussianSample(b *testing.B) {
	for _, n := range []int{6, 17, 65} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			g, err := New(Config{Law: SymGaussianLaw, Mode: Simulated, N: n, Sigma: 1}, bandit.Stream(12, 0))
			if err != nil {
				b.Fatal(err)
			}
			dst := make([]float64, simd.PackedLen(n))
			b.ReportAllocs()
			cpu := testkit.StartCPUClock()
			for b.Loop() {
				g.Sample(dst)
			}
			testkit.ReportCPU(b, cpu)
		})
	}
}
