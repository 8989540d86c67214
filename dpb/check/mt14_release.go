package check

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// scaleDraws is the number of node-noise draws behind the scale row.
const scaleDraws = 1_000_000

// mt14ReleaseTrials is the number of fresh trees behind the release-law
// row: the DKW bound at 1e-5 is then 0.0175, and the control (one node
// short) sits at KS distance 0.1 and more.
const mt14ReleaseTrials = 20_000

// mt14ReleaseRounds is the range of the release rounds of the release-law
// row: t uniform in [1, 1024], so every popcount 1 … 10 occurs.
const mt14ReleaseRounds = 1024

// MT14Release checks the noise of MT14 Algorithm 1 as built (mt14.DPUCB,
// k = 5 arms, T = 10⁶, ε = 1; each arm's binary-mechanism tree with
// Lap(b) per node) against the law MT14 states, computed here from ε, k
// and T, not read from the object: ε₀ = ε/k per arm (Alg. 1 line 1), a
// reward in [0, 1] enters m = 1 + ⌈log₂ T⌉ nodes, so b = m/ε₀ = mk/ε.
//
//   - "mt14-alg1-noise-scale": the variance of scaleDraws = 10⁶ draws of
//     the tree's node noise against 2b², two-sided: v̂ has relative standard
//     error √(5/N) (Laplace kurtosis 6), so the row fails beyond
//     4.42·√(5/N) = 0.99% (two-sided normal, false failure 1e-5). Its
//     control is the node noise ×0.97 (3% under-noise: variance −5.9%,
//     caught with probability 1 − 10⁻⁴⁰).
//   - "mt14-alg1-release-law": the release noise Z_t of the built tree at
//     a round t uniform in [1, 1024] (one fresh policy per trial, zeros
//     added), whose law MT14's mechanism makes Σ_{popcount(t)} Lap(b): the
//     values F_t(Z_t) of the exact CDF of that sum (laplaceSum) are uniform,
//     and their Kolmogorov–Smirnov distance to U(0, 1) must stay within the
//     DKW bound at 1e-5. Its control is the release one node short: the
//     same tree read at t with its lowest set bit cleared (popcount(t) − 1
//     of t's nodes; no noise at a power of 2) against the law at t.
func MT14Release(rng *rand.Rand, trials int) (Verdicts, error) {
	const T, k, eps = 1_000_000, 5, 1.0
	m := treeLevelsRef(T)
	b := float64(m) * k / eps
	build := func() (*mt14.DPUCB, error) {
		return mt14.NewDPUCB(mt14.DPUCBConfig{Arms: k, Horizon: T, Epsilon: eps, Noise: noise.Simulated}, bandit.Stream(rng.Uint64(), 0))
	}
	p, err := build()
	if err != nil {
		return nil, err
	}
	tr := p.Tree(0)
	if tr == nil {
		return nil, fmt.Errorf("check: DP-UCB's arms run no binary tree")
	}
	ref := fmt.Sprintf("MT14 Alg. 1 line 1 (ε₀ = ε/k) and §2.1's binary mechanism (the built DP-UCB's tree; b = mk/ε = %g computed from ε = %g, k = %d, m = %d)", b, eps, k, m)
	// The node noise's scale, two-sided.
	tol := float64(4.42 * math.Sqrt(5.0/scaleDraws))
	dev := func(nz noise.Noise) (float64, float64) {
		x := make([]float64, nz.Dim())
		var s float64
		for i := 0; i < scaleDraws; i += len(x) {
			nz.Sample(x)
			for _, y := range x {
				s += float64(y * y)
			}
		}
		v := s / float64(scaleDraws/len(x)*len(x))
		return v, math.Abs(v/(2*b*b)-1) / tol
	}
	v, sc := dev(tr.NodeNoise())
	_, csc := dev(scaledNoise{tr.NodeNoise(), 0.97})
	v1 := NewVerdict("mt14-alg1-noise-scale", fmt.Sprintf("measured on the built object: node noise variance = 2b², b = mk/ε = %g (the scale MT14 states), two-sided", b), ref, 0, 0,
		boolFail(sc <= 1), sc,
		fmt.Sprintf("%d draws: b̂ = %.4g (stated %g; the object says %.4g); fails beyond ±%.2g%% of the variance (4.42 relative s.e. √(5/N)); slack: |v̂/2b² − 1| over that", scaleDraws, math.Sqrt(v/2), b, p.NodeScale(), 100*tol))
	v1 = withControl(v1, NewVerdict("control", "", "", 0, 0, boolFail(csc <= 1), csc, ""), "node noise ×0.97")
	v1.ControlScore = csc
	v1.Detects = fmt.Sprintf("node variance ±%.2g%% (scale ±%.2g%%)", 100*tol, 100*(math.Sqrt(1+tol)-1))
	// The release law.
	laws := make([]laplaceSum, 11)
	for n := 1; n < len(laws); n++ {
		laws[n] = newLaplaceSum(n, b)
	}
	u := make([]float64, 0, trials)
	cu := make([]float64, 0, trials)
	z := make([]float64, 1)
	zero := make([]float64, 1)
	for range trials {
		p, err := build()
		if err != nil {
			return nil, err
		}
		tree := p.Tree(0)
		t := 1 + rng.IntN(mt14ReleaseRounds)
		short := t & (t - 1) // t without its lowest node
		for s := 1; s <= t; s++ {
			tree.Add(zero)
			if s == short {
				tree.NoiseTo(z)
				cu = append(cu, laws[popcount(t)].CDF(z[0]))
			}
		}
		if short == 0 {
			cu = append(cu, laws[popcount(t)].CDF(0))
		}
		tree.NoiseTo(z)
		u = append(u, laws[popcount(t)].CDF(z[0]))
	}
	ks, cks := ksUniform(u), ksUniform(cu)
	ksMax := ksThreshold(trials)
	v2 := NewVerdict("mt14-alg1-release-law", fmt.Sprintf("measured on the built object: the release noise at round t is Σ_{popcount(t)} Lap(%g) (Kolmogorov–Smirnov of its exact CDF values against U(0, 1))", b), ref, 0, 0,
		boolFail(ks <= ksMax), ks/ksMax,
		fmt.Sprintf("%d fresh trees, t uniform in [1, %d]: KS distance %.3g, fails beyond %.3g (DKW, 1e-5)", trials, mt14ReleaseRounds, ks, ksMax))
	v2 = withControl(v2, NewVerdict("control", "", "", 0, 0, boolFail(cks <= ksMax), cks/ksMax, ""), "the release one node short (t's lowest node missing)")
	v2.ControlScore = cks / ksMax
	v2.Detects = fmt.Sprintf("a release law %.3g from Σ_{popcount(t)} Lap(b) in KS distance", ksMax)
	return Verdicts{v1, v2}, nil
}
