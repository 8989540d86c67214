package ss18_test

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// Every regularizer from one config, here SS18 Section 4.2's
// Gaussian regularizer released by the BLT counter with σ calibrated exactly.
func ExampleNewRegularizer() {
	s := ss18.Setting{D: 4, N: 1 << 12, Epsilon: 1, Delta: 0.1, Lt2: 2}
	reg, err := ss18.NewRegularizer(ss18.RegularizerConfig{Kind: ss18.RegGaussianCounter, Setting: s, Counter: counter.BLT, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if err != nil {
		panic(err)
	}
	pr := reg.(*ss18.TreeRegularizer).Privacy()
	fmt.Printf("%v regularizer, d = %d: (ε = %g, δ = %g) on %v noise\n", ss18.RegGaussianCounter, reg.Dim(), pr.Epsilon, pr.Delta, pr.Noise)
	_, err = ss18.NewRegularizer(ss18.RegularizerConfig{Kind: ss18.RegGaussianCounter, Setting: s, Lambda: 1}, bandit.Stream(1, 1))
	fmt.Println(err)
	// Output:
	// gaussian-counter regularizer, d = 4: (ε = 1, δ = 0.1) on simulated noise
	// ss18: ridge lambda 1 set for the gaussian-counter regularizer: only RegRidge takes one
}
