package linalg

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// choleskyRef is the one-row-at-a-time factorisation that Cholesky must
// reproduce bit for bit (its order of operations defines the results of
// every committed figure).
func choleskyRef(a []float64, d int) bool {
	for j := 0; j < d; j++ {
		rj := a[j*d : j*d+j+1]
		s := rj[j]
		for _, v := range rj[:j] {
			s -= v * v
		}
		if !(s > 0) {
			return false
		}
		ljj := math.Sqrt(s)
		rj[j] = ljj
		inv := 1 / ljj
		for i := j + 1; i < d; i++ {
			ri := a[i*d : i*d+j+1]
			s := ri[j]
			for k, v := range rj[:j] {
				s -= ri[k] * v
			}
			ri[j] = s * inv
		}
	}
	return true
}

// TestCholeskySameBits compares Cholesky with choleskyRef on random
// positive-definite matrices (and on an indefinite one) for d = 1…70.
func TestCholeskySameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for d := 1; d <= 70; d++ {
		for rep := 0; rep < 3; rep++ {
			// A = B Bᵀ + c·I with B Gaussian; c < 0 on the last rep can make
			// it indefinite, which both must report alike.
			b := make([]float64, d*d)
			for i := range b {
				b[i] = rng.NormFloat64()
			}
			c := 1e-3
			if rep == 2 {
				c = -float64(d) / 2
			}
			a := make([]float64, d*d)
			for i := 0; i < d; i++ {
				for j := 0; j <= i; j++ {
					var s float64
					for k := 0; k < d; k++ {
						s += b[i*d+k] * b[j*d+k]
					}
					a[i*d+j], a[j*d+i] = s, s
				}
				a[i*d+i] += c
			}
			ref := append([]float64(nil), a...)
			okRef := choleskyRef(ref, d)
			ok := Cholesky(a, d)
			if ok != okRef {
				t.Fatalf("d=%d rep=%d: Cholesky reports %v, the reference %v", d, rep, ok, okRef)
			}
			if !ok {
				continue
			}
			for i := range a {
				if math.Float64bits(a[i]) != math.Float64bits(ref[i]) {
					t.Fatalf("d=%d rep=%d: entry %d is %v, the reference %v", d, rep, i, a[i], ref[i])
				}
			}
		}
	}
}

func BenchmarkCholesky(b *testing.B) {
	for _, d := range []int{5, 16, 64} {
		rng := rand.New(rand.NewPCG(3, 4))
		a0 := make([]float64, d*d)
		for i := 0; i < d; i++ {
			for j := 0; j <= i; j++ {
				v := rng.NormFloat64()
				a0[i*d+j], a0[j*d+i] = v, v
			}
			a0[i*d+i] += 3 * float64(d)
		}
		a := make([]float64, d*d)
		b.Run("d="+strconv.Itoa(d), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				copy(a, a0)
				if !Cholesky(a, d) {
					b.Fatal("not positive definite")
				}
			}
		})
	}
}
