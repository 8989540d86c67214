//go:build !amd64 || purego

package dpb

// symLowerLanes is false: the tree regularizer's unpacking stores each entry
// twice in one pass.
const symLowerLanes = false

// symLowerFrom is where the unpacking would mirror the lower triangle with
// AVX-512 (symlower_amd64.go).
const symLowerFrom = 16

// symLower sets v[i·d+j] = v[j·d+i] for j < i (d×d row-major v): the lower
// triangle from the upper.
func symLower(v []float64, d int) { symLowerRows(v, d, 1) }
