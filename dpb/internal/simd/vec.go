package simd

import (
	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// Elementwise sums and products for the trees' short vectors (a packed
// (d+1)×(d+1) statistic: 21 entries at d = 5): each output is one correctly
// rounded addition or multiplication (or two additions, in the order
// written), so every implementation gives the same bits. On AVX-512 CPUs
// eight entries a pass with a masked tail (vec_amd64.s); the Go loops
// (VecAddGo, VecAdd3Go, VecMulGo) are the definition.

// VecAdd sets dst[k] = a[k] + b[k]; dst may be a or b.
func VecAdd(dst, a, b []float64) {
	if len(a) != len(dst) || len(b) != len(dst) {
		panic(param.BadDim)
	}
	VecAddTo(dst, a, b)
}

// VecMul sets dst[k] = a[k]·b[k]; dst may be a or b.
func VecMul(dst, a, b []float64) {
	if len(a) != len(dst) || len(b) != len(dst) {
		panic(param.BadDim)
	}
	vecMulTo(dst, a, b)
}

// VecAdd3 sets dst[k] = (a[k] + b[k]) + c[k]; dst may be any of them.
func VecAdd3(dst, a, b, c []float64) {
	if len(a) != len(dst) || len(b) != len(dst) || len(c) != len(dst) {
		panic(param.BadDim)
	}
	VecAdd3To(dst, a, b, c)
}

func VecAddGo(dst, a, b []float64) {
	a, b = a[:len(dst)], b[:len(dst)]
	for k := range dst {
		dst[k] = a[k] + b[k]
	}
}

func VecAdd3Go(dst, a, b, c []float64) {
	a, b, c = a[:len(dst)], b[:len(dst)], c[:len(dst)]
	for k := range dst {
		dst[k] = (a[k] + b[k]) + c[k]
	}
}

func VecMulGo(dst, a, b []float64) {
	a, b = a[:len(dst)], b[:len(dst)]
	for k := range dst {
		dst[k] = a[k] * b[k]
	}
}
