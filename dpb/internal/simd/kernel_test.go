package simd_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/perf"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/testutil"
)

// TestQuadLanes compares the Go definition of the kernels' summation order
// (quadLanes, ScoreBlocksGo) and QuadOne with a direct computation of
// ⟨z, Mx⟩ + β‖Mx‖, for every d from 1 to 70 (all remainders mod 8).
func TestQuadLanes(t *testing.T) {
	rng := bandit.Stream(1, 1)
	const beta = 1.7
	for d := 1; d <= 70; d++ {
		dp := simd.PadDim(d)
		m, z, mt, zp := testutil.RandomKernel(rng, d, dp)
		x := make([]float64, 4*d)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		got := make([]float64, 4)
		simd.ScoreBlocksGo(mt, dp, zp, d, x, 1, beta, got)
		for k := 0; k < 4; k++ {
			xk := x[k*d : (k+1)*d]
			var wq, ws float64
			for i := 0; i < d; i++ {
				var w float64
				for j := 0; j <= i; j++ {
					w += m[i*d+j] * xk[j]
				}
				wq += w * w
				ws += z[i] * w
			}
			want := ws + beta*math.Sqrt(wq)
			tol := 1e-12 * float64(d) * (1 + math.Abs(ws) + wq)
			if math.Abs(got[k]-want) > tol {
				t.Fatalf("d=%d k=%d: scoreBlocksGo = %v, want %v", d, k, got[k], want)
			}
			q1, s1 := simd.QuadOne(mt, dp, zp, d, xk)
			if math.Abs(q1-wq) > tol || math.Abs(s1-ws) > tol {
				t.Fatalf("d=%d: quadOne = %v, %v, want %v, %v", d, q1, s1, wq, ws)
			}
		}
	}
}

// TestKernelsSameBits runs every scoring kernel this CPU supports (AVX-512:
// sixteen actions one per lane from lanesFrom unless the CPU's AVX-512 is
// half-width, eight-action below it and for the blocks left over; AVX2:
// four-action below avx2EightFrom, eight-action from it; the Go loop) for
// d = 1..70 and beyond, 1 to 33 blocks of four actions (odd counts exercise the eight-action kernels' tail) and
// requires the same bits as ScoreBlocksGo, the definition of the summation
// order, and no write past the blocks.
func TestKernelsSameBits(t *testing.T) {
	ks := simd.KernelsRunnable()
	t.Logf("kernels tested: %v (in use: %s)", ks, simd.Kernel())
	rng := bandit.Stream(1, 2)
	const beta = 1.7
	// D = 1…70, and some beyond (dp mod 12 = 0, 4 and 8 rows of four-row
	// blocks).
	dims := []int{76, 84, 92, 95, 100, 119, 124, 128}
	for d := 70; d >= 1; d-- {
		dims = append([]int{d}, dims...)
	}
	for _, d := range dims {
		dp := simd.PadDim(d)
		_, _, mt, zp := testutil.RandomKernel(rng, d, dp)
		for _, nblk := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 24, 33} { // several sixteen-action passes, an eight and a four
			x := make([]float64, 4*nblk*d)
			for i := range x {
				x[i] = rng.NormFloat64()
			}
			want := make([]float64, 4*nblk)
			simd.ScoreBlocksGo(mt, dp, zp, d, x, nblk, beta, want)
			for _, k := range ks {
				got := make([]float64, 4*nblk+1)
				got[4*nblk] = 12345 // sentinel: must not be written
				simd.ScoreBlocksWith(k, mt, dp, zp, d, x, nblk, beta, got)
				for i, w := range want {
					if math.Float64bits(got[i]) != math.Float64bits(w) {
						t.Fatalf("d=%d nblk=%d action %d: kernel %s gives %v (%#x), the Go loop %v (%#x)",
							d, nblk, i, k, got[i], math.Float64bits(got[i]), w, math.Float64bits(w))
					}
				}
				if got[4*nblk] != 12345 {
					t.Fatalf("d=%d nblk=%d: kernel %s wrote past its blocks", d, nblk, k)
				}
			}
		}
	}
}

// TestSetKernel checks that every listed kernel can be selected, that an
// unknown name is an error naming the choices, and restores the default.
func TestSetKernel(t *testing.T) {
	def := simd.Kernel()
	defer simd.SetKernel(def)
	names := simd.Kernels()
	if names[0] != def || names[len(names)-1] != "go" {
		t.Fatalf("Kernels() = %v, in use %q: want the default first and go last", names, def)
	}
	for _, n := range names {
		if err := simd.SetKernel(n); err != nil || simd.Kernel() != n {
			t.Fatalf("SetKernel(%q) = %v, Kernel() = %q", n, err, simd.Kernel())
		}
	}
	if err := simd.SetKernel("sse9"); err == nil || !strings.Contains(err.Error(), "go") {
		t.Fatalf("SetKernel(sse9) = %v, want an error listing the kernels", err)
	}
}

// TestInverseFactor checks M = L⁻¹ (L M = I) and z = M u in the kernel layout.
func TestInverseFactor(t *testing.T) {
	rng := bandit.Stream(1, 3)
	for d := 1; d <= 40; d++ {
		dp := simd.PadDim(d)
		l, u := testutil.RandomFactor(rng, d)
		mt, zp := make([]float64, dp*dp), make([]float64, dp)
		simd.InverseFactorTo(mt, zp, l, u, make([]float64, d*dp), d, dp)
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				var s float64 // (L M)_ij
				for k := 0; k < d; k++ {
					var mkj float64
					if k >= j {
						mkj = mt[j*dp+k]
					}
					s += l[i*d+k] * mkj * b2f(k <= i)
				}
				want := 0.0
				if i == j {
					want = 1
				}
				if math.Abs(s-want) > 1e-10 {
					t.Fatalf("d=%d: (L·M)[%d,%d] = %v, want %v", d, i, j, s, want)
				}
			}
			var zi float64
			for j := 0; j <= i; j++ {
				zi += mt[j*dp+i] * u[j]
			}
			if math.Abs(zp[i]-zi) > 1e-12*(1+math.Abs(zi)) {
				t.Fatalf("d=%d: z[%d] = %v, want %v", d, i, zp[i], zi)
			}
		}
		for i := d; i < dp; i++ {
			if zp[i] != 0 {
				t.Fatalf("d=%d: padding of z written", d)
			}
		}
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// scoreBench is a scoring-kernel benchmark's input: one random kernel
// (M, z) of dimension d and one decision set of k actions, with its useful
// flops (see BenchmarkScoreKernel).
type scoreBench struct {
	d, dp, nblk int
	mt, zp      []float64
	x, scores   []float64
	flops       float64
}

func newScoreBench(d, k int) scoreBench {
	dp := simd.PadDim(d)
	_, _, mt, zp := testutil.RandomKernel(bandit.Stream(1, 4), d, dp)
	r := testutil.RandomRound(nil, 1, k, d)
	nblk := k / 4
	return scoreBench{d: d, dp: dp, nblk: nblk, mt: mt, zp: zp, x: r.Actions, scores: make([]float64, k),
		flops: float64(4*nblk) * float64(d*(d+1)+4*d)}
}

// score scores the set's first 4·nblk actions with kernel k.
func (c *scoreBench) score(k simd.KernelID) {
	simd.ScoreBlocksWith(k, c.mt, c.dp, c.zp, c.d, c.x, c.nblk, 1.5, c.scores)
}

// BenchmarkScoreKernel times the scoring kernel alone (all K actions of one
// decision set, scored with each kernel this CPU supports) and reports
// GFLOP/s counting the useful work only: d(d+1)/2 multiply–adds of w = M x
// and 2d of ⟨z, w⟩ and ‖w‖² per action, 2 flops each.
func BenchmarkScoreKernel(b *testing.B) {
	ks := simd.KernelsRunnable()
	for _, sz := range testutil.BenchSizes {
		for _, k := range ks {
			b.Run(fmt.Sprintf("kernel=%s/d=%d/K=%d", k, sz.D, sz.K), func(b *testing.B) {
				c := newScoreBench(sz.D, sz.K)
				b.ReportAllocs()
				for b.Loop() {
					c.score(k)
				}
				b.ReportMetric(c.flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

// BenchmarkScoreKernelVsPeak times the scoring kernel in use at d = 64 against
// this core's FMA peak, at K = 4096 (the decision set beyond L2) and
// K = 512 (within it). Each iteration measures the widest unit's peak loop
// and then the kernel, each for 30 ms as BestRate does (the best of calls of
// about 1 ms), and x-bound is the median over iterations of the kernel's time
// over the time its useful flops take at that peak (min-x-bound the
// smallest): both figures of a ratio come from the same moment of a shared
// host whose load moves in phases. Run it with -benchtime 15x (docs/performance.md, "What
// bounds each figure").
func BenchmarkScoreKernelVsPeak(b *testing.B) {
	for _, k := range []int{4096, 512} {
		b.Run(fmt.Sprintf("d=64/K=%d", k), func(b *testing.B) {
			c := newScoreBench(64, k)
			inUse := simd.KernelID(simd.KernelInUse.Load())
			var ratios []float64
			for b.Loop() {
				peak := perf.WidestFMARate(30 * time.Millisecond)
				rate := perf.BestRate(30*time.Millisecond, func(n int) float64 {
					for range n {
						c.score(inUse)
					}
					return float64(n) * c.flops
				})
				ratios = append(ratios, peak/rate)
			}
			slices.Sort(ratios)
			b.ReportMetric(ratios[len(ratios)/2], "x-bound")
			b.ReportMetric(ratios[0], "min-x-bound")
		})
	}
}
