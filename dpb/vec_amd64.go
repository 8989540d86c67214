//go:build amd64 && !purego

package dpb

// vecAVX512 selects the AVX-512 loops of vecAdd, vecAdd3 and vecMul (tests
// switch it off to run the Go loops).
var vecAVX512 = hasAVX2FMA() && hasAVX512()

func vecAddTo(dst, a, b []float64) {
	if vecAVX512 && len(dst) > 0 {
		vecAddAVX512(&dst[0], &a[0], &b[0], len(dst))
		return
	}
	vecAddGo(dst, a, b)
}

func vecAdd3To(dst, a, b, c []float64) {
	if vecAVX512 && len(dst) > 0 {
		vecAdd3AVX512(&dst[0], &a[0], &b[0], &c[0], len(dst))
		return
	}
	vecAdd3Go(dst, a, b, c)
}

func vecMulTo(dst, a, b []float64) {
	if vecAVX512 && len(dst) > 0 {
		vecMulAVX512(&dst[0], &a[0], &b[0], len(dst))
		return
	}
	vecMulGo(dst, a, b)
}

// vecAddAVX512 is vecAddGo for n > 0 entries (vec_amd64.s).
//
//go:noescape
func vecAddAVX512(dst, a, b *float64, n int)

// vecAdd3AVX512 is vecAdd3Go for n > 0 entries (vec_amd64.s).
//
//go:noescape
func vecAdd3AVX512(dst, a, b, c *float64, n int)

// vecMulAVX512 is vecMulGo for n > 0 entries (vec_amd64.s).
//
//go:noescape
func vecMulAVX512(dst, a, b *float64, n int)
