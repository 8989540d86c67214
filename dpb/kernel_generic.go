//go:build !amd64 || purego

package dpb

func quadTile4(mt []float64, dp int, zp []float64, d int, x []float64, ldx int, q, s *[4]float64) {
	quadTile4Go(mt, dp, zp, d, x, ldx, q, s)
}

// kernelName reports the scoring kernel in use.
func kernelName() string { return "go" }
