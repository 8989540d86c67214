package accounting_test

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/accounting"
)

// Calibrating a Gaussian mechanism of ℓ2 sensitivity 1 to (ε, δ) = (1, 1e-5)
// by the analytic Gaussian mechanism, and reading the ε back at that σ.
func ExampleGaussianSigma() {
	sigma, err := accounting.GaussianSigma(1, 1e-5, 1)
	if err != nil {
		panic(err)
	}
	eps, err := accounting.GaussianEpsilon(sigma, 1e-5, 1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("σ = %.3g\n", sigma)
	fmt.Printf("ε at that σ = %.3g\n", eps)
	// Output:
	// σ = 3.73
	// ε at that σ = 1
}
