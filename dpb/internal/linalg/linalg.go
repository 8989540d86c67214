package linalg

import (
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// Small dense linear algebra on row-major []Float64, written for LinUCB's
// per-round work: no allocation, no interface calls, loops the compiler keeps
// free of bounds checks. gonum's mat is used where speed does not matter.

// Cholesky overwrites the lower triangle of the d×d row-major matrix a with
// its Cholesky factor L (a = L Lᵀ); the strict upper triangle is left as is.
// It reports false, leaving a partly overwritten, when a is not numerically
// positive definite.
func Cholesky(a []float64, d int) bool { return CholeskyCols(a, d, nil) }

// CholeskyCols is Cholesky calling col(j, 1/L_jj), when col is not nil, as
// soon as column j of L is written: row j of L is then complete too, so a
// caller can start on it (LinUCB computes row j of L⁻¹ there) while the
// next columns are factored. The same operations, so the same bits.
func CholeskyCols(a []float64, d int, col func(j int, inv float64)) bool {
	_ = a[d*d-1]
	for j := 0; j < d; j++ {
		rj := a[j*d : j*d+j+1]
		s := rj[j]
		for _, v := range rj[:j] {
			s -= v * v
		}
		if !(s > 0) { // also catches NaN
			return false
		}
		ljj := math.Sqrt(s)
		rj[j] = ljj
		inv := 1 / ljj
		// Four rows at a time: four independent subtraction chains hide the
		// latency of each; every entry still sees its own terms in the
		// order k = 0, 1, …, j−1, so the factor is bit for bit that of
		// choleskyRef (one row at a time).
		i := j + 1
		for ; i+4 <= d; i += 4 {
			r0 := a[i*d : i*d+j+1]
			r1 := a[(i+1)*d : (i+1)*d+j+1]
			r2 := a[(i+2)*d : (i+2)*d+j+1]
			r3 := a[(i+3)*d : (i+3)*d+j+1]
			s0, s1, s2, s3 := r0[j], r1[j], r2[j], r3[j]
			for k, v := range rj[:j] {
				s0 -= r0[k] * v
				s1 -= r1[k] * v
				s2 -= r2[k] * v
				s3 -= r3[k] * v
			}
			r0[j], r1[j], r2[j], r3[j] = s0*inv, s1*inv, s2*inv, s3*inv
		}
		for ; i < d; i++ {
			ri := a[i*d : i*d+j+1]
			s := ri[j]
			for k, v := range rj[:j] {
				s -= ri[k] * v
			}
			ri[j] = s * inv
		}
		if col != nil {
			col(j, inv)
		}
	}
	return true
}

// ForwardSolve solves L y = b in place (b becomes y) for the lower-triangular
// factor stored in l.
func ForwardSolve(l []float64, d int, b []float64) {
	_ = b[d-1]
	for i := 0; i < d; i++ {
		ri := l[i*d : i*d+i+1]
		s := b[i]
		for k, v := range ri[:i] {
			s -= v * b[k]
		}
		b[i] = s / ri[i]
	}
}

// BackSolve solves Lᵀ x = y in place (y becomes x).
func BackSolve(l []float64, d int, y []float64) {
	_ = y[d-1]
	for i := d - 1; i >= 0; i-- {
		s := y[i]
		for k := i + 1; k < d; k++ {
			s -= l[k*d+i] * y[k]
		}
		y[i] = s / l[i*d+i]
	}
}

// LogDetChol returns log det A = 2 Σ log L_ii from A's Cholesky factor. It
// takes one logarithm per eight diagonal entries (their product cannot
// overflow or underflow unless an entry is beyond 1e±38).
func LogDetChol(l []float64, d int) float64 {
	var s float64
	for i0 := 0; i0 < d; i0 += 8 {
		prod := 1.0
		for i := i0; i < min(i0+8, d); i++ {
			prod *= l[i*d+i]
		}
		s += xmath.Log(prod)
	}
	return 2 * s
}

func Dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}
