//go:build !amd64 || purego

package dpb

// normAVX512 is false: this build has only the Go loop.
const normAVX512 = false

// normaliseBlocks is normaliseBlocksGo.
func normaliseBlocks(acts, theta, means []float64, d int) {
	normaliseBlocksGo(acts, theta, means, d)
}
