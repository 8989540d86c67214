//go:build !amd64 || purego

package dpb

// lockPolicy is one policy's part of a lockstep choice (choose4_amd64.go).
type lockPolicy struct {
	d, dp          int
	mt, zp, scores []float64
	beta           float64
}

// chooseLockstep reports false: this build scores each policy on its own.
func chooseLockstep(ps []lockPolicy, x []float64, k, d int, pad []float64, arms []int) bool {
	return false
}
