package audit

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// counterT is the horizon of the audited tree counters: a power of two, so
// that round 1 enters m = 1 + log₂ T = 5 nodes, every level of the tree.
const counterT = 16

// laplaceTreeLLR is the log-likelihood ratio ln p_{D′}/p_D of the releases of
// a plain Laplace tree counter at rounds 1, 2, 4, …, T, for D = all zeros and
// D′ = one 1 at round 1. The release at round 2ʲ is the node [1, 2ʲ] plus the
// exact sum, so these m values are the m node values containing round 1,
// i.i.d. Lap(b) under D and 1 + Lap(b) under D′; every other release is a
// function of these and of nodes that are identically distributed under D
// and D′ and independent of them, so the ratio depends on these m values
// alone:
//
//	ln p_{D′}/p_D = Σ_j (|y_j| − |y_j − 1|)/b ∈ [−m/b, m/b] = [−ε, ε].
//
// The computed value is clamped to [−m/b, m/b] and rounded to a multiple of
// 10⁻⁹: rounding errors in the sum otherwise carry the releases' low bits
// (which do differ between D and D′ on the default sampler) into the
// statistic, and the region search finds them — that is the floating-point
// attack, which the fp-attack rows measure on their own; these rows audit the
// mechanism's law.
func laplaceTreeLLR(rel []float64, b float64) float64 {
	s, m := 0.0, 0.0
	for t := 1; t <= len(rel); t *= 2 {
		y := rel[t-1]
		s += math.Abs(y) - math.Abs(y-1)
		m++
	}
	s = math.Max(-m, math.Min(m, s)) / b
	return math.Round(s*1e9) / 1e9
}

// laplaceCounter returns the audit of a Laplace tree counter (MT14's DP-UCB
// counter: the binary mechanism with Lap(m/ε) per node; AS17's
// TreeBasedAgg when padded) with ε = 1 over T = 16 rounds of values in
// [0, 1].
//
// Neighbours: D = (0, 0, …, 0) and D′ = (1, 0, …, 0). Changing round 1 from
// 0 to 1 moves every one of the m = 5 nodes containing it by the full range 1,
// so the ℓ1 change of the node vector is m, the sensitivity the calibration
// b = m/ε is made for: no neighbouring pair moves the nodes more, and this
// one moves every node the claim is paid for. Test: the exact
// log-likelihood ratio [laplaceTreeLLR] (Neyman–Pearson). For the plain tree
// it reaches +ε exactly on the event {all m node values ≥ 1}, of probability
// 2⁻ᵐ under D′ and 2⁻ᵐe⁻ᵉ under D, so with enough runs the audit tends to the
// claimed ε: the audit is tight. The padded tree adds to every release
// data-independent padding (post-processing of the plain tree plus
// independent noise), so it is at least as private, and for this pair much
// more: at T = 16 no round has popcount m, so every release carries the
// first padding draw p₁, exactly as every release carries the change; the
// releases are then a function of 1[D′] + p₁ and of terms independent of the
// input, and the pair's true ε is at most 1/b = ε/m = 0.2. The statistic is
// no longer the exact ratio either, and the audit is loose by construction.
//
// On secure noise the plain row's control is an under-noised discrete
// scale: the secure sampler built for b/√2 (b/2 with short), under the same
// claim, pair and test (the statistic keeps b: it is the claim's ratio).
func laplaceCounter(name string, mode counter.ReleaseMode, nm noise.Mode) *Mechanism {
	m := laplaceCounterShrink(name, mode, nm, 1)
	if nm.Secure() && mode == counter.Plain {
		m.Control = func(short bool) *Mechanism {
			f := ftrlControlFactor(short)
			c := laplaceCounterShrink(name, mode, nm, f)
			c.Mechanism = fmt.Sprintf("control: %s, node scale b/%s (the secure sampler built for it: an under-noised discrete scale)", c.Mechanism, fctr(f))
			return c
		}
	}
	return m
}

// laplaceCounterShrink is [laplaceCounter] with node scale b/shrink
// (shrink > 1: a control).
func laplaceCounterShrink(name string, mode counter.ReleaseMode, nm noise.Mode, shrink float64) *Mechanism {
	const eps = 1.0
	b := mt14.TreeCounterScale(counterT, 1, eps)
	cite := "MT14 Alg. 1 counter (binary mechanism, Lap(m/ε) per node)"
	if mode == counter.Padded {
		cite = "AS17 Alg. 2 TreeBasedAgg (padded tree, Lap(m/ε) per node)"
	}
	return &Mechanism{
		Name:        name,
		Mechanism:   describe(cite+", T = 16, all releases", nm),
		Neighbours:  "D = 0^16, D′ = (1, 0, …, 0): round 1 moves all m = 5 nodes by 1",
		Test:        "exact log-likelihood ratio of the releases at rounds 1, 2, 4, 8, 16",
		Epsilon:     eps,
		Trials:      400000,
		ShortTrials: 60000,
		New: func() func(*rand.Rand, int) float64 {
			z := make([]float64, 1)
			rel := make([]float64, counterT)
			return func(rng *rand.Rand, which int) float64 {
				tree := newCounter(rng, mode, nm, b/shrink)
				for t := range counterT {
					z[0] = 0
					if t == 0 && which == 1 {
						z[0] = 1
					}
					tree.Add(z)
					tree.SumTo(rel[t : t+1])
				}
				return laplaceTreeLLR(rel, b)
			}
		},
	}
}

// newCounter builds a one-dimensional tree counter with Lap(b) node noise.
func newCounter(rng *rand.Rand, mode counter.ReleaseMode, nm noise.Mode, b float64) *counter.TreeSum {
	var nz noise.Noise
	var err error
	if nm.Secure() {
		nz, err = noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: nm, Dim: 1, Scale: b, Sensitivity: 1}, rng)
	} else {
		nz, err = noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: noise.Simulated, Dim: 1, Scale: b}, rng)
	}
	if err != nil {
		panic(err)
	}
	treeAny, err := counter.New(counter.Config{Kind: counter.Tree, Dim: 1, Horizon: counterT, Noise: nz, Mode: mode})
	if err != nil {
		panic(err)
	}
	tree := treeAny.(*counter.TreeSum)
	return tree
}
