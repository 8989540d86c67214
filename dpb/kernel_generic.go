//go:build !amd64 || purego

package dpb

// scoreBlocks writes scores[k] = ⟨z, M x_k⟩ + β‖M x_k‖ for the first
// 4·nblk actions of x (each d floats, contiguous).
func scoreBlocks(mt []float64, dp int, zp []float64, d int, x []float64, nblk int, beta float64, scores []float64) {
	scoreBlocksGo(mt, dp, zp, d, x, nblk, beta, scores)
}

// kernelName reports the scoring kernel in use.
func kernelName() string { return "go" }
