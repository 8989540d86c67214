//go:build !amd64 || purego

package dpb

// prep4AVX2 is false: this build prepares policies one at a time.
var prep4AVX2 = false

// cholInvLanes is never called in this build (prep4AVX2 is false).
func cholInvLanes(lanes *[16]*float64, s []float64, d, dp int) (bad int) {
	panic("dpb: cholInvLanes without AVX2")
}
