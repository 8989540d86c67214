package audit

import (
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// onZigguratGrid reports whether v ≥ 0 equals b·(Float64(j)·Float64(we[i]))
// for some 32-bit j and 8-bit i: the values b·ExpFloat64() takes on every
// path of Go's exponential ziggurat but its tail.
func onZigguratGrid(v, b float64) bool { return onGrid(v, b, zigguratWE[:], 1<<32) }

// onNormalGrid reports whether v ≥ 0 equals σ·(Float64(j)·Float64(wn[i]))
// for some |j| < 2³¹ and 7-bit i: the magnitudes σ·NormFloat64() takes on
// every path of Go's normal ziggurat but the base strip's tail.
func onNormalGrid(v, sigma float64) bool { return onGrid(v, sigma, zigguratWN[:], 1<<31) }

// onGrid reports whether v = b·(j·w) for some table entry w and integer
// 0 ≤ j < jmax (the candidates are the integers next to v/(b·w)).
func onGrid(v, b float64, table []float32, jmax float64) bool {
	if v == 0 {
		return true
	}
	for _, w32 := range table {
		w := float64(w32)
		j0 := math.Round(v / b / w)
		for j := j0 - 2; j <= j0+2; j++ {
			if j < 0 || j >= jmax {
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
// With the default sampler a Laplace draw is ±b·Float64(j)·we[i], so under D
// the release is on that sparse grid (with probability ≈ 1; the ziggurat's
// tail is the exception), while under D′ the rounded sum 1 ± b·E almost
// never is: the test "release off the grid" separates the two far beyond
// e^ε, and the audit's lower bound is limited only by the number of runs.
// This is a declared demonstration: it is why the secure mode exists.
//
// With the secure sampler ([noise.Secure], or noise.SecureSeeded) the same test is run on the
// same pair; every release is g·(integer), exactly distributed as the
// discrete Laplace mechanism, and the bound must stay at or below ε.
func fpAttack(name string, nm noise.Mode) *Mechanism {
	const eps = 1.0
	b := mt14.TreeCounterScale(counterT, 1, eps)
	newNoise := func(rng *rand.Rand) (noise.Noise, error) {
		if nm.Secure() {
			return seeded(noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: noise.Secure, Dim: 1, Scale: b, Sensitivity: 1}, nil))(nm, rng)
		}
		return noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: noise.Simulated, Dim: 1, Scale: b}, rng)
	}
	m := fpAttackOn(name, describe("MT14 Laplace tree counter (T = 16, ε = 1), release at round 1", nm),
		"floating-point attack: is |release| off the grid ±b·j·we[i] of Go's exponential ziggurat?",
		eps, 0, nm, newNoise, func(v float64) bool { return onZigguratGrid(v, b) })
	if nm.Secure() {
		m.Control = floatControl(func() *Mechanism { return fpAttack(name, noise.Simulated) })
	}
	return m
}

// floatControl is the negative control of a floating-point attack row on
// secure noise: the same counter, pair and test with the node noise drawn
// in floating point (the simulated sampler), the defect the secure sampler
// exists to exclude. The row's 0 on secure noise then shows that the test
// would see that defect, not only that it sees nothing.
func floatControl(build func() *Mechanism) func(bool) *Mechanism {
	return func(bool) *Mechanism {
		c := build()
		c.Mechanism = "control: " + c.Mechanism + ", node noise drawn in floating point (the simulated sampler in place of the exact one)"
		c.Demonstration = false
		return c
	}
}

// fpAttackGaussian is the floating-point attack on the first release of
// the exactly calibrated Gaussian tree counter ([gaussianCounter], T = 16,
// (ε, δ) = (1, 0.01)): D = 0^16, D′ = e₁. The default node noise is
// σ·NormFloat64() = σ·(j·wn[i]), so under D the release is on that grid and
// under D′ (1 + noise, rounded) almost never: a declared demonstration. With
// secure noise ([noise.NewSecureGaussianNoise], exact discrete Gaussian on a
// grid) the same test is run and the bound must stay at or below ε.
func fpAttackGaussian(name string, nm noise.Mode) *Mechanism {
	probe, err := counter.New(counter.Config{Kind: counter.Tree, Dim: 1, Horizon: gaussT, Noise: noise.ZeroNoise{N: 1}})
	if err != nil {
		panic(err)
	}
	sigma, err := accounting.GaussianSigma(gaussEps, gaussDelta, math.Sqrt(probe.Cost().L2Sq))
	if err != nil {
		panic(err)
	}
	newNoise := func(rng *rand.Rand) (noise.Noise, error) {
		if nm.Secure() {
			return seeded(noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Secure, Sigmas: []float64{sigma}, Sensitivity: 1}, nil))(nm, rng)
		}
		return noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Simulated, Dim: 1, Sigma: sigma}, rng)
	}
	m := fpAttackOn(name, describe("calibrated Gaussian tree counter (T = 16, (ε, δ) = (1, 0.01)), release at round 1", nm),
		"floating-point attack: is |release| off the grid σ·j·wn[i] of Go's normal ziggurat?",
		gaussEps, gaussDelta, nm, newNoise, func(v float64) bool { return onNormalGrid(v, sigma) })
	if nm.Secure() {
		m.Control = floatControl(func() *Mechanism { return fpAttackGaussian(name, noise.Simulated) })
	}
	return m
}

// fpAttackOn is the attack on the first release of a plain tree counter
// over T = 16 rounds with the given node noise: the statistic is 1 when
// |release| is off the sampler's grid (points to D′ = (1, 0, …, 0)), 0 on
// it. It is a declared demonstration on the default sampler.
func fpAttackOn(name, mech, test string, eps, delta float64, nm noise.Mode,
	newNoise func(*rand.Rand) (noise.Noise, error), onGrid func(float64) bool) *Mechanism {
	return &Mechanism{
		Name:          name,
		Mechanism:     mech,
		Neighbours:    "D = 0^16, D′ = (1, 0, …, 0)",
		Test:          test,
		Epsilon:       eps,
		Delta:         delta,
		Trials:        100000,
		ShortTrials:   10000,
		Demonstration: !nm.Secure(),
		New: func() func(*rand.Rand, int) float64 {
			z := make([]float64, 1)
			rel := make([]float64, 1)
			return func(rng *rand.Rand, which int) float64 {
				nm, err := newNoise(rng)
				if err != nil {
					panic(err)
				}
				tree, err := counter.New(counter.Config{Kind: counter.Tree, Dim: 1, Horizon: counterT, Noise: nm, Mode: counter.Plain})
				if err != nil {
					panic(err)
				}
				z[0] = float64(which)
				tree.Add(z)
				tree.SumTo(rel)
				if onGrid(math.Abs(rel[0])) {
					return 0
				}
				return 1
			}
		},
	}
}

// seeded returns a secure sampler's constructor result with its entropy set
// for mode (rng's bits for noise.SecureSeeded).
func seeded(n noise.Noise, err error) func(noise.Mode, *rand.Rand) (noise.Noise, error) {
	return func(mode noise.Mode, rng *rand.Rand) (noise.Noise, error) {
		if err != nil {
			return nil, err
		}
		s := n.(*noise.SecureNoise) // built with Mode noise.Secure
		s.SeedFrom(mode, rng)
		return s, nil
	}
}
