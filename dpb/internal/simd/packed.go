package simd

import (
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"gonum.org/v1/gonum/mat"
)

// Symmetric n×n matrices travel through a TreeSum in packed form: the upper
// triangle, row by row, so entry (i, j) with i <= j sits at PackedIndex(n, i, j)
// and the vector has PackedLen(n) = n(n+1)/2 entries.

// PackedLen returns n(n+1)/2, the length of a packed symmetric n×n matrix.
func PackedLen(n int) int { return n * (n + 1) / 2 }

// PackedIndex returns the index of entry (i, j) of a packed symmetric n×n
// matrix. The order of i and j does not matter.
func PackedIndex(n, i, j int) int {
	if i > j {
		i, j = j, i
	}
	return i*n - i*(i-1)/2 + (j - i)
}

// PackOuter adds w·zzᵀ to the packed symmetric matrix dst (len(z) = n).
func PackOuter(dst []float64, z []float64, w float64) {
	n := len(z)
	if len(dst) != PackedLen(n) {
		panic(param.BadDim)
	}
	k := 0
	for i := 0; i < n; i++ {
		zi := w * z[i]
		row := dst[k : k+n-i]
		zz := z[i:]
		for j := range row {
			row[j] += float64(zi * zz[j])
		}
		k += n - i
	}
}

// PackOuterTo overwrites the packed symmetric matrix dst with zzᵀ.
func PackOuterTo(dst []float64, z []float64) {
	n := len(z)
	if len(dst) != PackedLen(n) {
		panic(param.BadDim)
	}
	if n == 6 {
		PackOuter6To((*[21]float64)(dst), (*[6]float64)(z))
		return
	}
	if PackOuterFast(dst, z) {
		return
	}
	PackOuterLoop(dst, z)
}

// PackOuterLoop is PackOuterTo's loop (the definition PackOuter6To writes
// out).
func PackOuterLoop(dst []float64, z []float64) {
	n := len(z)
	k := 0
	for i := 0; i < n; i++ {
		zi := z[i]
		row := dst[k : k+n-i]
		zz := z[i:]
		for j := range row {
			row[j] = zi * zz[j]
		}
		k += n - i
	}
}

// UnpackSymTo writes the packed symmetric matrix p into the full n×n
// row-major slice dst (len n·n).
func UnpackSymTo(dst []float64, p []float64, n int) {
	if len(p) != PackedLen(n) || len(dst) != n*n {
		panic(param.BadDim)
	}
	k := 0
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			dst[i*n+j] = p[k]
			dst[j*n+i] = p[k]
			k++
		}
	}
}

// PackedToSym returns the packed matrix p as a new *mat.SymDense.
func PackedToSym(p []float64, n int) *mat.SymDense {
	s := mat.NewSymDense(n, nil)
	k := 0
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			s.SetSym(i, j, p[k])
			k++
		}
	}
	return s
}
