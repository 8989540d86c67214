//go:build !amd64 || purego

package dpb

// treeLT reports false: this build writes lt through SumTo and the loop.
func treeLT(lt []float64, s int, a, b, c []float64, d int, shift float64, u []float64) bool {
	return false
}
