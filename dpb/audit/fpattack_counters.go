package audit

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// fpAttackCounterAudits returns the floating-point attack on every
// continual counter with exactly calibrated Gaussian noise (T = 16,
// (ε, δ) = (1, 0.01), the calibration of [gaussianCounter]), one row per
// counter and noise mode: "fp-attack-counter-KIND-default" on the simulated
// sampler (σ·NormFloat64()) and "fp-attack-counter-KIND-secure" on the exact
// discrete Gaussian run by the counter's grid wrapper (dpb/counter,
// grid.go). These counters are what the SS18 calibrated
// regularizers, DP-UCB's alternative counters and the (ε, δ) DP-FTRL
// release, so a row is the attack on each of those mechanisms' released
// statistic. The square-root and BLT counters' secure rows run their
// Toeplitz measurements (grid.go) with the data bound B = 1 (the
// records are 0 and 1) and the noise paying their slack.
func fpAttackCounterAudits(secure noise.Mode) []*Mechanism {
	var ms []*Mechanism
	for _, k := range counter.Kinds {
		ms = append(ms, fpAttackCounter(k, noise.Simulated), fpAttackCounter(k, secure))
	}
	return ms
}

// fpAttackCounter is the attack (Mironov 2012, on Go's normal ziggurat) on
// the first release of the counter kind: D = 0^16, D′ = e₁, the statistic
// "|release at round 1| is off the grid σ·j·wn[i]". Where round 1's release
// is one node draw plus the record (tree, Honaker, k-ary, square root, BLT:
// b₀ = 1), the simulated release under D is on that grid and under D′ almost
// never, and the bound far exceeds ε: a declared demonstration. Where it is
// a sum of several draws (the padded tree's padding, the smooth mechanism's
// k + 1 nodes) the sums fill the floats densely and this one-release test
// finds little; that is no proof of privacy for the simulated sampler,
// whose releases are still floating-point sums. On the secure sampler every
// release is a function of grid-valued node values and the bound must stay
// at or below ε.
func fpAttackCounter(kind counter.Kind, mode noise.Mode) *Mechanism {
	probe, err := counter.New(counter.Config{Kind: kind, Dim: 1, Horizon: gaussT, Noise: noise.ZeroNoise{N: 1}})
	if err != nil {
		panic(err)
	}
	sigma, err := accounting.GaussianSigma(gaussEps, gaussDelta, math.Sqrt(probe.Cost().L2Sq))
	if err != nil {
		panic(err)
	}
	suffix := "-default"
	if mode.Secure() {
		suffix = "-secure"
	}
	toeplitz := kind == counter.Sqrt || kind == counter.BLT
	bound := counter.DataBound{}
	slack := 0.0
	note := ""
	if toeplitz && mode.Secure() {
		bound = counter.DataBound{Entry: 1}
		if slack, err = counter.ToeplitzSlack(kind, 1, gaussT, bound, noise.SecureGrid(sigma)); err != nil {
			panic(err)
		}
		note = "measurements computed with an error bound, rounded to the grid and noised there; release from the noisy measurements"
	}
	m := &Mechanism{
		Name:          "fp-attack-counter-" + kind.String() + suffix,
		Mechanism:     describe(fmt.Sprintf("%v counter, calibrated Gaussian (T = 16, (ε, δ) = (1, 0.01), σ = %.4g), release at round 1", kind, sigma), mode),
		Neighbours:    "D = 0^16, D′ = (1, 0, …, 0)",
		Test:          "floating-point attack: is |release| off the grid σ·j·wn[i] of Go's normal ziggurat?",
		Epsilon:       gaussEps,
		Delta:         gaussDelta,
		Trials:        100000,
		ShortTrials:   10000,
		Demonstration: !mode.Secure(),
		Note:          note,
		New: func() func(*rand.Rand, int) float64 {
			z := make([]float64, 1)
			rel := make([]float64, 1)
			return func(rng *rand.Rand, which int) float64 {
				var nz noise.Noise
				var err error
				if mode.Secure() {
					nz, err = seeded(noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Secure, Sigmas: []float64{sigma}, Sensitivity: 1, Slack: slack}, nil))(mode, rng)
				} else {
					nz, err = noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Simulated, Dim: 1, Sigma: sigma}, rng)
				}
				if err != nil {
					panic(err)
				}
				c, err := counter.New(counter.Config{Kind: kind, Dim: 1, Horizon: gaussT, Noise: nz, Bound: bound})
				if err != nil {
					panic(err)
				}
				z[0] = float64(which)
				c.Add(z)
				c.SumTo(rel)
				if onNormalGrid(math.Abs(rel[0]), sigma) {
					return 0
				}
				return 1
			}
		},
	}
	// On secure noise the row's control is the float sampler (floatControl)
	// where the attack sees it; where round 1's release sums several draws
	// (padded tree, smooth) it sees nothing on either, and the row has no
	// control: it shows the attack does not apply, not that it could.
	if mode.Secure() && kind != counter.TreePadded && kind != counter.Smooth {
		m.Control = floatControl(func() *Mechanism {
			c := fpAttackCounter(kind, noise.Simulated)
			c.Name = m.Name
			return c
		})
	}
	return m
}
