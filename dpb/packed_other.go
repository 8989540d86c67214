//go:build !amd64 || purego

package dpb

// packOuterFast reports false: this build has only packOuterLoop.
func packOuterFast(dst, z []float64) bool { return false }
