package noise_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// The node noise of a tree counter: a simulated Laplace noise of scale b fills a vector
// with independent Lap(b) draws, whose mean absolute value is b.
func ExampleNew() {
	n, err := noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: noise.Simulated, Dim: 4, Scale: 2}, bandit.Stream(1, 0))
	if err != nil {
		panic(err)
	}
	dst := make([]float64, n.Dim())
	var sum float64
	const draws = 5000
	for range draws {
		n.Sample(dst)
		for _, v := range dst {
			sum += math.Abs(v)
		}
	}
	// The mean of 20000 |Lap(2)| draws has standard error 2/√20000 ≈ 0.014.
	mean := sum / (draws * 4)
	fmt.Println("dimension:", n.Dim())
	fmt.Printf("mean |noise| within 0.1 of the scale 2: %v\n", math.Abs(mean-2) < 0.1)
	fmt.Println("mode:", noise.ModeOf(n))
	// Output:
	// dimension: 4
	// mean |noise| within 0.1 of the scale 2: true
	// mode: simulated
}

// One Config for every law and mode: the dimension each noise has (the
// matrix laws write packed n×n matrices), the mode it runs on, and the
// Wishart's refusal of the unset mode, which means secure noise.
func ExampleNew_laws() {
	rng := bandit.Stream(1, 0)
	for _, cfg := range []noise.Config{
		{Law: noise.LaplaceLaw, Mode: noise.Simulated, Dim: 3, Scale: 2},
		{Law: noise.LaplaceLaw, Mode: noise.SecureSeeded, Dim: 3, Scale: 2, Sensitivity: 1},
		{Law: noise.GaussianLaw, Mode: noise.Simulated, Dim: 3, Sigma: 2},
		{Law: noise.GaussianLaw, Mode: noise.SecureSeeded, Sigmas: []float64{1, 2}, Sensitivity: 1},
		{Law: noise.SymGaussianLaw, Mode: noise.Simulated, N: 3, Sigma: 2},
		{Law: noise.WishartLaw, Mode: noise.Simulated, N: 3, Scale: 2, DF: 10},
	} {
		n, err := noise.New(cfg, rng)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-12v %-13v Dim %d\n", cfg.Law, noise.ModeOf(n), n.Dim())
	}
	_, err := noise.New(noise.Config{Law: noise.WishartLaw, N: 3, Scale: 2, DF: 10}, rng)
	fmt.Println(errors.Is(err, noise.ErrNoSecure))
	// Output:
	// laplace      simulated     Dim 3
	// laplace      secure-seeded Dim 3
	// gaussian     simulated     Dim 3
	// gaussian     secure-seeded Dim 2
	// sym-gaussian simulated     Dim 6
	// wishart      simulated     Dim 6
	// true
}
