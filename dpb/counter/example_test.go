package counter_test

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// A private counter: 1024 increments released by the tree mechanism with
// Laplace node noise.
func ExampleTreeSum() {
	rng := bandit.Stream(1, 0)
	lap, _ := noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: noise.Simulated, Dim: 1, Scale: 1}, rng)
	ts, _ := counter.New(counter.Config{Kind: counter.Tree, Dim: 1, Horizon: 1024, Noise: lap})
	for range 1024 {
		ts.Add([]float64{1})
	}
	sum := ts.SumTo(nil)[0]
	// One node at t = 1024: Lap(1) noise, |noise| < 20 with probability 1 − e⁻²⁰.
	fmt.Printf("private count within ±20 of 1024: %v\n", math.Abs(sum-1024) < 20)
	// Output:
	// private count within ±20 of 1024: true
}

// Every counter from one Config, over n = 4096 rounds, with ZeroNoise as
// the node noise (nothing is drawn: the numbers are exact properties of each
// factorisation): the largest release variance in units of one node draw's,
// and the ℓ2 cost of one record, whose product compares the counters at
// equal privacy (Gaussian node noise).
func ExampleNew() {
	for _, kind := range counter.Kinds {
		c, err := counter.New(counter.Config{Kind: kind, Dim: 1, Horizon: 4096, Noise: noise.ZeroNoise{N: 1}})
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-11s max variance %6.2f, cost %5.2f, product %6.1f\n", kind, c.MaxVariance(), c.Cost().L2Sq, c.MaxVariance()*c.Cost().L2Sq)
	}
	// An invalid field is an error naming it.
	_, err := counter.New(counter.Config{Kind: counter.Honaker, Dim: 1, Horizon: 4096, Noise: noise.ZeroNoise{N: 1}, Arity: 8})
	fmt.Println(err)
	// Output:
	// tree        max variance  12.00, cost 13.00, product  156.0
	// tree-padded max variance  13.00, cost 13.00, product  169.0
	// honaker     max variance   6.80, cost 13.00, product   88.4
	// smooth      max variance   7.00, cost 10.00, product   70.0
	// sqrt        max variance   3.71, cost  3.71, product   13.8
	// blt         max variance   3.78, cost  3.66, product   13.8
	// kary        max variance  45.00, cost  3.00, product  135.0
	// counter: arity is 8 for the honaker counter: only the k-ary tree takes one
}
