//go:build !amd64 || purego

package dpb

// kernelsAvailable lists the scoring kernels of this build: the Go loop.
func kernelsAvailable() []kernelID { return []kernelID{kernelGo} }

// kernelsRunnable is kernelsAvailable: this build has no variants.
func kernelsRunnable() []kernelID { return kernelsAvailable() }

// scoreBlocksWith writes scores[k] = ⟨z, M x_k⟩ + β‖M x_k‖ for the first
// 4·nblk actions of x (each d floats, contiguous).
func scoreBlocksWith(_ kernelID, mt []float64, dp int, zp []float64, d int, x []float64, nblk int, beta float64, scores []float64) {
	scoreBlocksGo(mt, dp, zp, d, x, nblk, beta, scores)
}
