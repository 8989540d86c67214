//go:build amd64 && !purego

package dpb

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/internal/linalg"
)

// TestCholeskySameBits compares cholRowsAVX512 with linalg.Cholesky, the
// definition: for d = 1…70, Gram matrices of d+3 random vectors plus a
// ridge (entries scaled by 2^e for e in {0, ±300}), the same bits in every
// entry of the lower triangle, the upper triangle untouched (it holds other
// numbers than the lower one), and the same verdict on matrices that are
// not positive definite (a negative or NaN pivot at a random position).
// Deterministic: no false failures. Skipped on CPUs without AVX-512.
func TestCholeskySameBits(t *testing.T) {
	if !cholAVX512 {
		t.Skip("no AVX-512 on this CPU")
	}
	rng := Stream(7, 1)
	for d := 1; d <= 70; d++ {
		for _, scale := range []float64{1, 0x1p300, 0x1p-300} {
			for trial := 0; trial < 3; trial++ {
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
				want := append([]float64(nil), a...)
				okWant := linalg.Cholesky(want, d)
				c := make([]float64, d)
				okGot := cholRowsAVX512(&a[0], &c[0], d)
				if okGot != okWant {
					t.Fatalf("d %d, scale %g, trial %d: AVX-512 says %v, linalg %v", d, scale, trial, okGot, okWant)
				}
				if !okWant {
					continue
				}
				if i := firstDiff(a, want); i >= 0 {
					t.Fatalf("d %d, scale %g: entry (%d, %d) is %v (AVX-512), %v (linalg)", d, scale, i/d, i%d, a[i], want[i])
				}
			}
		}
	}
}
