//go:build !amd64 || purego

package dpb

import "github.com/dpbandits/dpbandits/dpb/internal/linalg"

// cholesky is linalg.Cholesky(a, d); c (scratch for the AVX-512 version)
// is not used.
func cholesky(a, c []float64, d int) bool { return linalg.Cholesky(a, d) }

// cholScratchLen is d: the portable loop needs no scratch.
func cholScratchLen(d int) int { return d }

// cholLT reports ok false: the portable loop works on the row-major copy.
func cholLT(c []float64, d int) (lt []float64, s int, ok bool) { return nil, 0, false }

// cholFromLT is never called (cholLT is never ok).
func cholFromLT(a, c []float64, d int) bool { panic("dpb: cholFromLT without the panel kernel") }
