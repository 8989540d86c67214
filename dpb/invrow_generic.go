//go:build !amd64 || purego

package dpb

// invRowAVX is false: this build has only the Go loop.
const invRowAVX = false

// invRow is invRowGo.
func invRow(li, mt []float64, dp, i int, mii float64) { invRowGo(li, mt, dp, i, mii) }

// inverseFactorLanes reports that no vector-lanes path exists here (see
// the amd64 version).
func inverseFactorLanes(mt, zp, l, u, diag []float64, d, dp int) bool { return false }
