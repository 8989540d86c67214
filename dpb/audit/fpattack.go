package audit

import (
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb"
)

// onZigguratGrid reports whether v ≥ 0 equals b·(float64(j)·float64(we[i]))
// for some 32-bit j and 8-bit i: the values b·ExpFloat64() takes on every
// path of Go's exponential ziggurat but its tail. For each i the candidate
// j are the integers next to v/(b·we[i]).
func onZigguratGrid(v, b float64) bool {
	if v == 0 {
		return true
	}
	for _, w32 := range zigguratWE {
		w := float64(w32)
		j0 := math.Round(v / b / w)
		for j := j0 - 2; j <= j0+2; j++ {
			if j < 0 || j >= 1<<32 {
				continue
			}
			if b*(j*w) == v {
				return true
			}
		}
	}
	return false
}

// fpAttack returns the floating-point attack (Mironov 2012, adapted to Go's
// sampler) on the first release of the MT14 Laplace tree counter (T = 16,
// ε = 1): the release at round 1 is one node value, Lap(b) under D = 0^16
// and 1 + Lap(b) under D′ = (1, 0, …, 0).
//
// With the default sampler a Laplace draw is ±b·float64(j)·we[i], so under D
// the release is on that sparse grid (with probability ≈ 1; the ziggurat's
// tail is the exception), while under D′ the rounded sum 1 ± b·E almost
// never is: the test "release off the grid" separates the two far beyond
// e^ε, and the audit's lower bound is limited only by the number of runs.
// This is a declared demonstration: it is why the secure mode exists.
//
// With the secure sampler ([dpb.NoiseSecure]) the same test is run on the
// same pair; every release is g·(integer), exactly distributed as the
// discrete Laplace mechanism, and the bound must stay at or below ε.
func fpAttack(name string, noise dpb.NoiseMode) *Mechanism {
	const eps = 1.0
	b := dpb.TreeCounterScale(counterT, 1, eps)
	m := &Mechanism{
		Name:        name,
		Mechanism:   "MT14 Laplace tree counter (T = 16, ε = 1), release at round 1, default sampler",
		Neighbours:  "D = 0^16, D′ = (1, 0, …, 0)",
		Test:        "floating-point attack: is |release| off the grid ±b·j·we[i] of Go's ziggurat?",
		Epsilon:     eps,
		Trials:      100000,
		ShortTrials: 10000,
		New: func() func(*rand.Rand, int) float64 {
			z := make([]float64, 1)
			rel := make([]float64, 1)
			return func(rng *rand.Rand, which int) float64 {
				tree := newCounter(rng, dpb.Plain, noise, b)
				z[0] = float64(which)
				tree.Add(z)
				tree.SumTo(rel)
				if onZigguratGrid(math.Abs(rel[0]), b) {
					return 0
				}
				return 1
			}
		},
	}
	if noise == dpb.NoiseSecure {
		m.Mechanism = "MT14 Laplace tree counter (T = 16, ε = 1), release at round 1, secure sampler"
	} else {
		m.Demonstration = true
	}
	return m
}
