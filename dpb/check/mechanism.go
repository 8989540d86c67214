package check

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// Privacy verdicts measured on the built mechanism, beside the formula rows
// (Kind arithmetic) that recompute a noise scale: a formula row passes any
// mechanism whose formula matches, whatever it draws. These rows draw from
// the node noise the constructed object itself holds (the Noise inside its
// tree), estimate its variance and test its law, and turn the measured scale
// into a privacy loss with the nodes a record enters (the tree's Levels: a
// record enters one node per level) and the per-node sensitivity.

// mechDraws is the number of node-noise draws behind a measured row.
const mechDraws = 50_000

// scaledNoise is the control's planted defect: the object's node noise
// scaled by f (f = 1/√2: under-noised by √2).
type scaledNoise struct {
	noise.Noise
	f float64
}

func (s scaledNoise) Sample(dst []float64) {
	s.Noise.Sample(dst)
	for i := range dst {
		dst[i] *= s.f
	}
}

// laplaceNodeVerdicts measures a tree's Laplace node noise nz (the object's
// own, claimed scale b) with the privacy statement "a record enters nodes
// nodes, each moved by at most sens in ℓ1, so the loss nodes·sens/b ≤ eps":
//
//   - "<name>-measured": the variance v̂ of mechDraws draws (all coordinates
//     pooled) against 2b_ε², b_ε = nodes·sens/eps the smallest private scale.
//     For Laplace, v̂ has relative standard error √(5/N) (kurtosis 6), so the
//     row fails when v̂ < 2b_ε²(1 − 4.27√(5/N)): a private mechanism fails
//     with probability ≈ 10⁻⁵ (normal approximation to v̂). It reports the
//     measured loss nodes·sens/b̂, b̂ = √(v̂/2).
//   - "<name>-law": the Kolmogorov–Smirnov distance of the draws to
//     Lap(b) ≤ √(ln(2/10⁻⁵)/(2N)) (the DKW bound: false failure ≤ 10⁻⁵).
//
// Both controls run the same code on the node noise scaled by 1/√2.
func laplaceNodeVerdicts(name, ref string, nz noise.Noise, b float64, nodes int, sens, eps float64) Verdicts {
	measure := func(nz noise.Noise) (v, ks float64) {
		return measureNodeNoise(nz, func(x float64) float64 { return laplaceCDF(x, b) })
	}
	bEps := float64(nodes) * sens / eps
	tol := float64(4.27 * math.Sqrt(5.0/mechDraws))
	need := 2 * bEps * bEps * (1 - tol)
	ksMax := math.Sqrt(math.Log(2/PassPValue) / (2 * mechDraws))
	v, ks := measure(nz)
	cv, cks := measure(scaledNoise{nz, 1 / math.Sqrt2})
	loss := func(v float64) float64 { return float64(nodes) * sens / math.Sqrt(v/2) }
	claim := fmt.Sprintf("measured on the built object: node noise variance ≥ 2(m·Δ/ε)², m = %d nodes a record enters, Δ = %g, ε = %g", nodes, sens, eps)
	v1 := NewVerdict(name+"-measured", claim, ref, 0, 0, boolFail(v >= need), need/v,
		fmt.Sprintf("%d draws of the object's node noise: b̂ = %.4g (stated %.4g, needed %.4g), measured loss m·Δ/b̂ = %.4g (ε = %g); fails below variance %.4g (4.27 relative s.e. √(5/N) under 2b_ε²)",
			mechDraws, math.Sqrt(v/2), b, bEps, loss(v), eps, need))
	v1 = withControl(v1, NewVerdict("control", "", "", 0, 0, boolFail(cv >= need), need/cv, ""), "node noise σ/√2")
	v1.ControlScore = need / cv
	v1.Detects = fmt.Sprintf("node variance −%.2g%% (loss +%.2g%%)", 100*tol, 100*(1/math.Sqrt(1-tol)-1))
	v2 := NewVerdict(name+"-law", fmt.Sprintf("measured on the built object: node noise ~ Lap(%.4g) (Kolmogorov–Smirnov)", b), ref, 0, 0, boolFail(ks <= ksMax), ks/ksMax,
		fmt.Sprintf("%d draws: KS distance %.3g, fails beyond %.3g (DKW, 1e-5)", mechDraws, ks, ksMax))
	v2 = withControl(v2, NewVerdict("control", "", "", 0, 0, boolFail(cks <= ksMax), cks/ksMax, ""), "node noise σ/√2")
	v2.ControlScore = cks / ksMax
	v2.Detects = fmt.Sprintf("a law %.3g from Lap(b) in KS distance", ksMax)
	return Verdicts{v1, v2}
}

// nodeDraws returns mechDraws coordinates of the node noise nz (whole
// draws, the coordinates pooled: they are i.i.d.).
func nodeDraws(nz noise.Noise) []float64 {
	d := nz.Dim()
	buf := make([]float64, d)
	xs := make([]float64, 0, mechDraws)
	for len(xs) < mechDraws {
		nz.Sample(buf)
		xs = append(xs, buf[:min(d, mechDraws-len(xs))]...)
	}
	return xs
}

// measureNodeNoise draws mechDraws coordinates of the node noise nz (whole
// draws, the coordinates pooled: they are i.i.d.) and returns their second
// moment about 0 (the variance of a centred law) and their
// Kolmogorov–Smirnov distance to the CDF cdf.
func measureNodeNoise(nz noise.Noise, cdf func(float64) float64) (v, ks float64) {
	xs := nodeDraws(nz)
	var s float64
	for _, x := range xs {
		s += float64(x * x)
	}
	v = s / float64(len(xs))
	slices.Sort(xs)
	for i, x := range xs {
		c := cdf(x)
		ks = math.Max(ks, math.Max(math.Abs(float64(i+1)/float64(len(xs))-c), math.Abs(c-float64(i)/float64(len(xs)))))
	}
	return v, ks
}

// laplaceCDF is the CDF of Lap(b) at x.
func laplaceCDF(x, b float64) float64 {
	if x < 0 {
		return 0.5 * math.Exp(x/b)
	}
	return 1 - float64(0.5*math.Exp(-x/b))
}

// Mechanisms measures the node noise of MT14 Algorithm 1 (DP-UCB's
// per-arm trees, T = 10⁶, k = 5, ε = 1: a round's reward in [0, 1] enters
// one arm's tree, m nodes; each tree is tested at the ε₀ = ε/k its proof
// gives it) and of AS17's TreeBasedAgg inside DP-FTRL
// (experts, N = 4, T = 2²⁰, ε = 1: a loss enters m nodes, each moved by
// 2‖𝒴‖₁ in ℓ1 under replacement); see laplaceNodeVerdicts. rng seeds the
// built objects' noise.
func Mechanisms(rng *rand.Rand) (Verdicts, error) {
	const T, k, eps = 1_000_000, 5, 1.0
	p, err := mt14.NewDPUCB(mt14.DPUCBConfig{Arms: k, Horizon: T, Epsilon: eps, Noise: noise.Simulated}, bandit.Stream(rng.Uint64(), 0))
	if err != nil {
		return nil, err
	}
	tr := p.Tree(0)
	// Theorem 3's proof composes the k arms' trees, each ε₀ = ε/k-DP (Alg. 1
	// line 1): the tree's own claim is ε₀. (Tested at ε the row held with a
	// 5-fold margin whatever the node noise within it: vacuous.)
	vs := laplaceNodeVerdicts("mt14-alg1-privacy", "MT14 Theorem 3's proof, Alg. 1 line 1: each arm's tree is ε₀ = ε/k-DP (the built DP-UCB's tree)", tr.NodeNoise(), p.NodeScale(), tr.Levels(), 1, eps/k)
	const n, TA = 4, 1 << 20
	f, err := as17.NewFTRL(as17.FTRLConfig{Set: as17.Simplex, Dim: n, Horizon: TA, Epsilon: eps, Noise: noise.Simulated}, bandit.Stream(rng.Uint64(), 0))
	if err != nil {
		return nil, err
	}
	ts, ok := f.Counter().(*counter.TreeSum)
	if !ok {
		return nil, fmt.Errorf("check: DP-FTRL's counter is %T, want the tree", f.Counter())
	}
	lap, ok := ts.NodeNoise().(*noise.LaplaceNoise)
	if !ok {
		return nil, fmt.Errorf("check: DP-FTRL's node noise is %T, want Laplace", ts.NodeNoise())
	}
	vs = append(vs, laplaceNodeVerdicts("as17-treeagg-privacy", "AS17 Theorem 3.1, Algorithm 2 (the built DP-FTRL's TreeBasedAgg)",
		lap, lap.Scale(), ts.Levels(), 2*as17.Simplex.YNorm1(n), eps)...)
	return vs, nil
}
