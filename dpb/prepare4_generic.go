//go:build !amd64 || purego

package dpb

// prep4AVX2 is false: this build prepares policies one at a time.
var prep4AVX2 = false

// prepare4 prepares the four policies of ps one by one.
func prepare4(ps *[4]*LinUCB, d int) {
	for _, p := range ps {
		prepareFactors(p)
	}
}
