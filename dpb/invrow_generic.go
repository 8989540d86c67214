//go:build !amd64 || purego

package dpb

// invRowAVX is false: this build has only the Go loop.
const invRowAVX = false

// invRow is invRowGo.
func invRow(li, mt []float64, dp, i int, mii float64) { invRowGo(li, mt, dp, i, mii) }

// invRowsLanes reports that no vector-lanes path exists here (see the amd64
// version).
func invRowsLanes(mt, l, diag []float64, d, dp int) bool { return false }

// zFromFactor reports that no vector path exists here (see the amd64
// version).
func zFromFactor(zp, mt, u []float64, d, dp int) bool { return false }
