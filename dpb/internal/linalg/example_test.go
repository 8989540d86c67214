package linalg_test

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/internal/linalg"
)

// Solving A x = b for a symmetric positive definite A (row-major, d×d) by
// its Cholesky factor: A = L Lᵀ, then L y = b and Lᵀ x = y, in place.
func ExampleCholesky() {
	a := []float64{
		4, 2,
		2, 3,
	}
	if !linalg.Cholesky(a, 2) {
		panic("not positive definite")
	}
	x := []float64{6, 5} // b; A·(1, 1) = (6, 5)
	linalg.ForwardSolve(a, 2, x)
	linalg.BackSolve(a, 2, x)
	fmt.Printf("L = [%.3g 0; %.3g %.3g]\n", a[0], a[2], a[3])
	fmt.Printf("x = [%.3g %.3g]\n", x[0], x[1])
	fmt.Println("singular matrix refused:", !linalg.Cholesky([]float64{1, 1, 1, 1}, 2))
	// Output:
	// L = [2 0; 1 1.41]
	// x = [1 1]
	// singular matrix refused: true
}
