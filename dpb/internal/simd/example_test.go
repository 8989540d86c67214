package simd_test

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/internal/simd"
)

// The packed form of a symmetric n×n matrix, in which the matrix noises of
// dpb/noise (SymGaussianNoise, WishartNoise) are written: n(n+1)/2 entries,
// one per pair i ≤ j. PackOuterTo writes z zᵀ there, what SS18's tree
// regulariser adds to its counter each round for z = (x_t, y_t).
func ExamplePackedLen() {
	z := []float64{1, 2, 3}
	p := make([]float64, simd.PackedLen(len(z)))
	simd.PackOuterTo(p, z)
	fmt.Println("packed length:", len(p))
	fmt.Println("entry (0, 2) = entry (2, 0):", simd.PackedIndex(3, 0, 2) == simd.PackedIndex(3, 2, 0), p[simd.PackedIndex(3, 2, 0)])
	s := simd.PackedToSym(p, 3)
	fmt.Println("as a matrix, (2, 1):", s.At(2, 1), "(1, 1):", s.At(1, 1))
	// Output:
	// packed length: 6
	// entry (0, 2) = entry (2, 0): true 3
	// as a matrix, (2, 1): 6 (1, 1): 4
}
