//go:build !amd64 || purego

package dpb

// argmaxAVX is false: this build has only the Go loop.
const argmaxAVX = false

// argmax is argmaxGo.
func argmax(x []float64) int { return argmaxGo(x) }
