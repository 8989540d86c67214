//go:build amd64 && !purego

package simd

// VecAVX512 selects the AVX-512 loops of VecAdd, VecAdd3 and VecMul (tests
// switch it off to run the Go loops).
var VecAVX512 = HasAVX2FMA() && HasAVX512()

func VecAddTo(dst, a, b []float64) {
	if VecAVX512 && len(dst) > 0 {
		vecAddAVX512(&dst[0], &a[0], &b[0], len(dst))
		return
	}
	VecAddGo(dst, a, b)
}

func VecAdd3To(dst, a, b, c []float64) {
	if VecAVX512 && len(dst) > 0 {
		vecAdd3AVX512(&dst[0], &a[0], &b[0], &c[0], len(dst))
		return
	}
	VecAdd3Go(dst, a, b, c)
}

func vecMulTo(dst, a, b []float64) {
	if VecAVX512 && len(dst) > 0 {
		vecMulAVX512(&dst[0], &a[0], &b[0], len(dst))
		return
	}
	VecMulGo(dst, a, b)
}

// vecAddAVX512 is VecAddGo for n > 0 entries (vec_amd64.s).
//
//go:noescape
func vecAddAVX512(dst, a, b *float64, n int)

// vecAdd3AVX512 is VecAdd3Go for n > 0 entries (vec_amd64.s).
//
//go:noescape
func vecAdd3AVX512(dst, a, b, c *float64, n int)

// vecMulAVX512 is VecMulGo for n > 0 entries (vec_amd64.s).
//
//go:noescape
func vecMulAVX512(dst, a, b *float64, n int)
