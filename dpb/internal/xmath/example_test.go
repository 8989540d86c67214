package xmath_test

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// Exp, Log and Pow give the same bits on every CPU; on an amd64 CPU with FMA
// they equal math.Exp, math.Log and math.Pow.
func ExampleExp() {
	fmt.Printf("e^1 = %.6g\n", xmath.Exp(1))
	fmt.Printf("ln 10 = %.6g\n", xmath.Log(10))
	fmt.Printf("2^0.5 = %.6g\n", xmath.Pow(2, 0.5))
	fmt.Println("ln e^3 = 3 within 1e-15:", math.Abs(xmath.Log(xmath.Exp(3))-3) < 1e-15)
	// Output:
	// e^1 = 2.71828
	// ln 10 = 2.30259
	// 2^0.5 = 1.41421
	// ln e^3 = 3 within 1e-15: true
}
