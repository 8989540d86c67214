//go:build amd64 && !purego

package simd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/linalg"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
)

// TestCholeskySameBits compares cholPanelsAVX512 (through cholPanels, with
// its column-major copies) with linalg.Cholesky, the definition: for
// D = 1…70, Gram matrices of d+3 random vectors plus a ridge (entries scaled by 2^e for e in {0, ±300}), the same bits in every
// entry of the lower triangle, the upper triangle untouched (it holds other
// numbers than the lower one), and the same verdict on matrices that are
// not positive definite (a negative or NaN pivot at a random position).
// Deterministic: no false failures. Skipped on CPUs without AVX-512.
func TestCholeskySameBits(t *testing.T) {
	if !cholAVX512 {
		t.Skip("no AVX-512 on this CPU")
	}
	rng := bandit.Stream(7, 1)
	for d := 1; d <= 70; d++ {
		for _, scale := range []float64{1, 0x1p300, 0x1p-300} {
			for trial := 0; trial < 3; trial++ {
				a := cholTestMatrix(rng, d, scale, trial)
				want := append([]float64(nil), a...)
				okWant := linalg.Cholesky(want, d)
				okGot := cholPanels(a, make([]float64, CholScratchLen(d)), d)
				if okGot != okWant {
					t.Fatalf("d %d, scale %g, trial %d: AVX-512 says %v, linalg %v", d, scale, trial, okGot, okWant)
				}
				if !okWant {
					continue
				}
				if i := testkit.FirstDiff(a, want); i >= 0 {
					t.Fatalf("d %d, scale %g: entry (%d, %d) is %v (AVX-512), %v (linalg)", d, scale, i/d, i%d, a[i], want[i])
				}
			}
		}
	}
}

// cholTestMatrix returns TestCholeskySameBits's matrix: the Gram matrix of
// D+3 standard normal vectors plus 0.5·I in the lower triangle, other
// normals above it, all times scale; trial 1 negates a random pivot, trial 2
// puts a NaN in the lower triangle.
func cholTestMatrix(rng *rand.Rand, d int, scale float64, trial int) []float64 {
	a := make([]float64, d*d)
	x := make([]float64, d)
	for range d + 3 {
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		for i := range d {
			for j := 0; j <= i; j++ {
				a[i*d+j] += x[i] * x[j]
			}
		}
	}
	for i := range d {
		a[i*d+i] += 0.5
		for j := i + 1; j < d; j++ {
			a[i*d+j] = rng.NormFloat64() // not the mirror image
		}
	}
	for i := range a {
		a[i] *= scale
	}
	switch trial {
	case 1: // a negative pivot somewhere
		p := rng.IntN(d)
		a[p*d+p] = -a[p*d+p]
	case 2: // a NaN in the lower triangle
		i := rng.IntN(d)
		a[i*d+rng.IntN(i+1)] = math.NaN()
	}
	return a
}

// BenchmarkCholeskyKernels times the factorisation alone at d = 8…64: the
// portable loop (linalg.Cholesky) and the AVX-512 panels, their copies in
// and out included.
func BenchmarkCholeskyKernels(b *testing.B) {
	if !cholAVX512 {
		b.Skip("no AVX-512 on this CPU")
	}
	for _, d := range []int{8, 12, 16, 24, 32, 64} {
		v := cholTestMatrix(bandit.Stream(3, 1), d, 1, 0)
		a := make([]float64, d*d)
		c := make([]float64, CholScratchLen(d))
		for _, k := range []struct {
			name string
			run  func() bool
		}{
			{"go", func() bool { return linalg.Cholesky(a, d) }},
			{"panels", func() bool { return cholPanels(a, c, d) }},
		} {
			b.Run(fmt.Sprintf("d=%d/%s", d, k.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					copy(a, v)
					if !k.run() {
						b.Fatal("not positive definite")
					}
				}
			})
		}
	}
}
