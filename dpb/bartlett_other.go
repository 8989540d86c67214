//go:build !amd64 || purego

package dpb

// bartlettColLen is 0: without the AVX-512 Bartlett kernel no copy of A is
// made.
func bartlettColLen(int) int { return 0 }

// bartlettLanesTo reports false: the product is bartlettProductTo's loop.
func bartlettLanesTo(dst, off, diag, col []float64, s float64) bool { return false }
