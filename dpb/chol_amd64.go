//go:build amd64 && !purego

package dpb

import "github.com/dpbandits/dpbandits/dpb/internal/linalg"

// cholAVX512 selects cholRowsAVX512 for cholesky from d = cholFrom on
// (tests switch it).
var cholAVX512 = hasAVX2FMA() && hasAVX512() && hasBMI12()

// cholFrom is the smallest d cholesky hands to cholRowsAVX512: below it the
// scalar loop's four chains are as fast or faster. The factorisation alone,
// linalg.Cholesky against cholRowsAVX512 (Intel Xeon family 6 model 207):
// d = 8 128 against 234 ns, d = 16 479 against 545 ns, d = 32 2.50 against
// 1.76 µs, d = 64 16.9 against 8.7 µs.
const cholFrom = 24

// cholRowsAVX512 is linalg.Cholesky, right-looking, eight entries of a row
// per instruction (chol_amd64.s); c is scratch of d floats.
//
//go:noescape
func cholRowsAVX512(a, c *float64, d int) (ok bool)

// cholesky is linalg.Cholesky(a, d) with the same bits (the lower triangle
// of a becomes L, the upper one is left as it is, and false means not
// positive definite with a partly overwritten), through cholRowsAVX512 on
// AVX-512 CPUs for d >= cholFrom; c is scratch of at least d floats.
func cholesky(a, c []float64, d int) bool {
	if cholAVX512 && d >= cholFrom {
		_, _ = a[d*d-1], c[d-1]
		return cholRowsAVX512(&a[0], &c[0], d)
	}
	return linalg.Cholesky(a, d)
}
