//go:build !amd64 || purego

package dpb

// zigAVX512 is false: this build has only the Go loop.
const zigAVX512 = false

// zigFast is zigFastGo.
func zigFast(dst []float64, s uint64) (n int, next, u uint64) { return zigFastGo(dst, s) }
