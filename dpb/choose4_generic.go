//go:build !amd64 || purego

package dpb

// chooseLockstep reports false: this build scores each policy on its own.
func chooseLockstep(ps []*LinUCB, r *Round, pad []float64, arms []int) bool { return false }
