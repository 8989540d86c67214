package check

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// Privacy of the continual counters and of MT14 Algorithm 2 measured on the
// built objects (see mechanism.go for the Laplace rows): the node
// noise each holds, its variance against the scale the claim needs and its
// law, and the number of node draws a record's privacy loss is spread over,
// counted from the counter's impulse responses instead of read from Levels()
// or Cost().

// counterMechT is the horizon of the DP-FTRL whose counters the measured
// rows build (2¹⁶: within the square-root counter's [counter.MaxSqrtHorizon]).
const counterMechT = 1 << 16

// nodeCountN is the horizon of the node counts: a power of two, where the
// binary tree's count m = 1 + log₂ n is attained (by the record of round 1),
// so a claim one too small is caught.
const nodeCountN = 128

// Alg2Mechanism measures the node noise of MT14 Algorithm 2 as built
// (mt14.ContextualUCB with one Laplace counter per entry of A and b, d = 6,
// k = 5, T = 10⁶, ε = 1; MT14 §4, Alg. 2 line 2): one round moves each of
// the (d² + 3d)/2 entries of the pulled model by at most 1 (contexts and
// rewards in [0, 1]), so a node vector moves by (d² + 3d)/2 in ℓ1 and the
// loss is m(d² + 3d)/(2b). Rows "mt14-alg2-privacy-measured" and
// "-law" as in laplaceNodeVerdicts, the control the node noise σ/√2.
func Alg2Mechanism(rng *rand.Rand) (Verdicts, error) {
	const T, k, d, eps = 1_000_000, 5, 6, 1.0
	p, err := mt14.NewContextualUCB(mt14.ContextualUCBConfig{Dim: d, Arms: k, Horizon: T, Epsilon: eps, Mechanism: mt14.ContextEntryTrees, Noise: noise.Simulated},
		bandit.Stream(rng.Uint64(), 0))
	if err != nil {
		return nil, err
	}
	tr := p.Tree(0)
	entries := (d*d + 3*d) / 2
	if tr.Dim() != entries {
		return nil, fmt.Errorf("check: Algorithm 2's tree has %d coordinates, want the %d entries of A and b", tr.Dim(), entries)
	}
	return laplaceNodeVerdicts("mt14-alg2-privacy", "MT14 Alg. 2 line 2 (the built contextual UCB's entry trees)",
		tr.NodeNoise(), p.NodeScale(), tr.Levels(), float64(entries), eps), nil
}

// gaussianNodeVerdicts measures a counter's Gaussian node noise nz (the
// object's own, stated σ) with the privacy statement "a record's loss is
// spread over count node draws (Cost().L2Sq), each moved by at most sens in
// ℓ2, so the releases are μ-GDP, μ = sens·√count/σ, and (ε, δ)-DP":
//
//   - "<name>-measured": the variance v̂ of mechDraws draws (coordinates
//     pooled) against σ_ε², σ_ε = bwSigma(ε, δ, sens·√count) the smallest
//     private σ (Balle & Wang 2018, Thm 8), by the check's own bisection
//     (not accounting.GaussianSigma, which DP-FTRL calibrates with). For a
//     normal law v̂ has relative standard error √(2/N) (kurtosis 3), so the
//     row fails when v̂ < σ_ε²(1 − 4.27√(2/N)): 4.27 is the one-sided
//     (1 − 10⁻⁵)-quantile of the normal, so a private mechanism fails with
//     probability ≈ 10⁻⁵ (normal approximation to v̂, N = 50,000). It
//     reports the measured ε at δ of σ̂ = √v̂.
//   - "<name>-law": the Kolmogorov–Smirnov distance of the draws to
//     N(0, σ²) ≤ √(ln(2/10⁻⁵)/(2N)) (the DKW bound: false failure ≤ 10⁻⁵).
//
// Controls: the same draws ×0.97 (an under-noise by 3 %: its variance
// 0.941 σ² lies 9 standard errors under σ², 4.7 under the threshold, for a
// counter calibrated exactly) and, for the law, the same draws mapped to a
// Laplace law of the same variance.
func gaussianNodeVerdicts(name, ref string, nz noise.Noise, sigma, count, sens, eps, delta float64) (Verdicts, error) {
	sens2 := sens * math.Sqrt(count)
	sEps := bwSigma(eps, delta, sens2)
	cdf := func(x float64) float64 { return 0.5 * math.Erfc(-x/(sigma*math.Sqrt2)) }
	tol := float64(4.27 * math.Sqrt(2.0/mechDraws))
	need := sEps * sEps * (1 - tol)
	ksMax := math.Sqrt(math.Log(2/PassPValue) / (2 * mechDraws))
	xs := nodeDraws(nz)
	var ss float64
	for _, x := range xs {
		ss += float64(x * x)
	}
	v := ss / float64(len(xs))
	cv := v * samplerDefect * samplerDefect // the same draws ×0.97
	slices.Sort(xs)
	ks := ksDistance(xs, cdf)
	for i, x := range xs {
		xs[i] = normalToLaplace(x, sigma) // monotone: stays sorted
	}
	cks := ksDistance(xs, cdf)
	epsHat := bwEpsilon(sens2/math.Sqrt(v), delta)
	claim := fmt.Sprintf("measured on the built object: node noise variance ≥ σ_ε², σ_ε the smallest (ε=%g, δ=%.3g)-DP σ for a record over %.4g node draws, Δ₂ = %.4g", eps, delta, count, sens)
	v1 := NewVerdict(name+"-measured", claim, ref, 0, 0, boolFail(v >= need), need/v,
		fmt.Sprintf("%d draws of the object's node noise: σ̂ = %.4g (stated %.4g, needed %.4g), measured ε at δ = %.4g (claim %g); fails below variance %.4g (4.27 relative s.e. √(2/N) under σ_ε²)",
			mechDraws, math.Sqrt(v), sigma, sEps, epsHat, eps, need))
	v1 = withControl(v1, NewVerdict("control", "", "", 0, 0, boolFail(cv >= need), need/cv, ""), "node noise ×0.97")
	v1.ControlScore = need / cv
	v1.Detects = fmt.Sprintf("node variance −%.2g%% (σ −%.2g%%)", 100*tol, 100*(1-math.Sqrt(1-tol)))
	v2 := NewVerdict(name+"-law", fmt.Sprintf("measured on the built object: node noise ~ N(0, %.4g²) (Kolmogorov–Smirnov)", sigma), ref, 0, 0, boolFail(ks <= ksMax), ks/ksMax,
		fmt.Sprintf("%d draws: KS distance %.3g, fails beyond %.3g (DKW, 1e-5)", mechDraws, ks, ksMax))
	v2 = withControl(v2, NewVerdict("control", "", "", 0, 0, boolFail(cks <= ksMax), cks/ksMax, ""), "the same draws mapped to a Laplace law of the same variance")
	v2.ControlScore = cks / ksMax
	v2.Detects = fmt.Sprintf("a law %.3g from N(0, σ²) in KS distance", ksMax)
	return Verdicts{v1, v2}, nil
}

// CounterMechanisms measures every continual counter
// ([counter.Kinds]) as DP-FTRL's (ε, δ) variant builds it (AS17
// Algorithm 1 on the simplex, N = 4, T = 2¹⁶, ε = 1, δ = 1/T, Gaussian node
// noise calibrated by [as17.FTRLGaussianSigma]; a replaced loss moves a
// node by 2‖𝒴‖₂ in ℓ2): per counter the rows
// "as17-counter-<kind>-privacy-measured" and "-law" of
// gaussianNodeVerdicts, on the built counter's node noise with its Cost(),
// and "as17-counter-<kind>-nodes" (nodeCountVerdict). rng seeds the built
// objects' noise.
func CounterMechanisms(rng *rand.Rand) (Verdicts, error) {
	const n, eps = 4, 1.0
	delta := 1.0 / counterMechT
	var vs Verdicts
	for _, kind := range counter.Kinds {
		f, err := as17.NewFTRL(as17.FTRLConfig{Set: as17.Simplex, Dim: n, Horizon: counterMechT, Epsilon: eps, Delta: delta, Counter: kind, Noise: noise.Simulated},
			bandit.Stream(rng.Uint64(), 0))
		if err != nil {
			return nil, err
		}
		ctr := f.Counter()
		holder, ok := ctr.(interface{ NodeNoise() noise.Noise })
		if !ok {
			return nil, fmt.Errorf("check: the %v counter (%T) does not expose its node noise", kind, ctr)
		}
		g, ok := holder.NodeNoise().(*noise.GaussianNoise)
		if !ok {
			return nil, fmt.Errorf("check: DP-FTRL's %v counter has node noise %T, want Gaussian", kind, holder.NodeNoise())
		}
		name := "as17-counter-" + kind.String() + "-privacy"
		gv, err := gaussianNodeVerdicts(name, fmt.Sprintf("AS17 Alg. 1, (ε, δ) variant on the %v counter (as17.FTRLGaussianSigma; the built DP-FTRL's counter)", kind),
			g, g.Sigma(), ctr.Cost().L2Sq, 2*as17.Simplex.YNorm2(n), eps, delta)
		if err != nil {
			return nil, err
		}
		nv, err := nodeCountVerdict(kind, nodeCountN)
		if err != nil {
			return nil, err
		}
		vs = append(append(vs, gv...), nv)
		if kind == counter.Honaker || kind == counter.Smooth {
			cv, err := measurementCountRow(kind, nodeCountN)
			if err != nil {
				return nil, err
			}
			vs = append(vs, cv)
		}
	}
	return vs, nil
}

// impulseNoise is the node noise of the node count: its j-th draw is the
// unit vector e_j in the first cols coordinates (0 in the others, and 0
// from draw cols on), so the release noise of a linear counter run on it
// is a row of the counter's noise matrix B: coordinate j of the release at
// round t is the weight of draw j in it.
type impulseNoise struct {
	dim, cols, draws int
	// skip is 1 + the index of a draw left out (its node's noise missing:
	// the node-count rows' planted defect), 0 for none.
	skip int
}

func (p *impulseNoise) Dim() int { return p.dim }

func (p *impulseNoise) Sample(dst []float64) {
	clear(dst)
	if p.draws < p.cols && p.draws+1 != p.skip {
		dst[p.draws] = 1
	}
	p.draws++
}

// NodeCount is the privacy count of a counter measured from its impulse
// responses (see [CountNodes]).
type NodeCount struct {
	// L2Sq is max_s a_sᵀ(BBᵀ)⁻¹a_s: the squared Mahalanobis norm of the
	// releases' shift by a unit record at round s, in units of one node
	// draw's variance, maximised over s (μ² of the releases with unit
	// Gaussian node noise).
	L2Sq float64
	// At is the round s of the maximum.
	At int
	// L1 is max_s ‖B⁻¹a_s‖₁ when B is square (as many data-time draws as
	// rounds: the measurements are identified, C = B⁻¹A); NaN otherwise.
	L1 float64
	// Draws is the number of node draws made during the rounds (columns of
	// B); Padding the draws made at construction, before any record.
	Draws, Padding int
}

// CountNodes counts, from the built counter, how many node draws a record
// enters. A counter of the given kind over n rounds is built by
// [counter.NewCounter] on a node noise whose j-th draw is the unit vector
// e_j (impulseNoise), with n further coordinates for the data; round t adds
// the unit record e_{cols+t}. The release after round t then holds, in
// coordinate j < cols, the weight B_tj of draw j in its noise and, in
// coordinate cols + s, the weight A_ts of record s (1 for s ≤ t: a prefix
// sum). Draws made before the first round (the padded tree's padding) are
// data-independent and left out: a release with them is a post-processing
// of the release without them, so leaving them out can only raise the
// count.
//
// With Gaussian node noise N(0, σ²) per draw the releases are
// A z + σBη, and neighbouring streams that differ by Δ in record s shift
// them by Δa_s, a_s the column s of A: the releases are μ-GDP with
// μ² = (Δ/σ)² max_s a_sᵀ(BBᵀ)⁻¹a_s (Dong, Roth & Su 2022, Cor. 2.13 for a
// correlated Gaussian, non-adaptive data). This max is L2Sq, what a
// counter's Cost().L2Sq claims to bound: for a tree whose draws are its
// nodes (B square, C = B⁻¹A the 0/1 node-membership matrix) it is the
// number of nodes the record enters; a counter that releases a
// post-processing of its nodes (Honaker's estimator) measures below its
// node count.
func CountNodes(kind counter.Kind, n int) (NodeCount, error) {
	return countNodes(kind, n, 0)
}

// countNodes is CountNodes with the draw of index skip−1 left out (skip >
// 0: that node's noise missing from every release that holds it).
func countNodes(kind counter.Kind, n, skip int) (NodeCount, error) {
	if n < 1 || n > 1<<12 {
		return NodeCount{}, fmt.Errorf("check: node-count horizon is %d, must be in [1, 4096]", n)
	}
	cols := 4*n + 64
	probe := &impulseNoise{dim: cols + n, cols: cols}
	ctr, err := counter.New(counter.Config{Kind: kind, Dim: cols + n, Horizon: n, Noise: probe})
	if err != nil {
		return NodeCount{}, err
	}
	pre := probe.draws
	if skip > 0 { // counted from the first draw made during the rounds
		probe.skip = pre + skip
	}
	z := make([]float64, cols+n)
	rel := make([]float64, cols+n)
	bRows := make([][]float64, n)
	A := mat.NewDense(n, n, nil)
	for t := range n {
		clear(z)
		z[cols+t] = 1
		ctr.Add(z)
		ctr.SumTo(rel)
		bRows[t] = append([]float64(nil), rel[:cols]...)
		for s := range n {
			A.Set(t, s, rel[cols+s])
		}
	}
	if probe.draws > cols {
		return NodeCount{}, fmt.Errorf("check: the %v counter made %d draws over %d rounds, more than the %d the count records", kind, probe.draws, n, cols)
	}
	D := probe.draws - pre
	B := mat.NewDense(n, D, nil)
	for t := range n {
		for j := range D {
			B.Set(t, j, bRows[t][pre+j])
		}
	}
	var bbt mat.SymDense
	bbt.SymOuterK(1, B)
	var ch mat.Cholesky
	if !ch.Factorize(&bbt) {
		if skip > 0 { // a release without noise: unbounded privacy loss
			return NodeCount{L2Sq: math.Inf(1), L1: math.NaN(), Draws: D, Padding: pre}, nil
		}
		return NodeCount{}, fmt.Errorf("check: the %v counter's release noise BBᵀ is singular (a release without noise)", kind)
	}
	var x mat.VecDense
	nc := NodeCount{L1: math.NaN(), Draws: D, Padding: pre}
	for s := range n {
		a := mat.VecDenseCopyOf(A.ColView(s))
		if err := ch.SolveVecTo(&x, a); err != nil {
			return NodeCount{}, err
		}
		if q := mat.Dot(a, &x); q > nc.L2Sq {
			nc.L2Sq, nc.At = q, s+1
		}
	}
	if D == n {
		var c mat.Dense
		if err := c.Solve(B, A); err != nil {
			return NodeCount{}, err
		}
		nc.L1 = 0
		for s := range n {
			var l1 float64
			for r := range n {
				l1 += math.Abs(c.At(r, s))
			}
			nc.L1 = math.Max(nc.L1, l1)
		}
	}
	return nc, nil
}

// nodeCountTol is the relative tolerance of a measured count against its
// claim: the rounding of the Cholesky solve (counts ≤ 20 at n = 128 come out
// within 10⁻¹² of integers for the trees).
const nodeCountTol = 1e-9

// nodeCountVerdict compares the count measured by [CountNodes] at horizon n
// with the count the counter's calibration assumes, Cost() of the same
// counter at n (L2Sq, and L1 where the measurements are identified): it
// passes when the measured count is at most the claimed one. Its control
// is a counter whose claimed count is one too small (Cost − 1), run through
// the same comparison: caught when the measured count exceeds it. A
// counter whose releases reveal less than its node count (Honaker's
// estimator) cannot catch that control: the row is then vacuous, its claim
// conservative.
func nodeCountVerdict(kind counter.Kind, n int) (Verdict, error) {
	if kind == counter.Honaker || kind == counter.Smooth {
		return exactNodeCountRow(kind, n) // their releases post-process the nodes
	}
	nc, err := CountNodes(kind, n)
	if err != nil {
		return Verdict{}, err
	}
	ctr, err := counter.New(counter.Config{Kind: kind, Dim: 1, Horizon: n, Noise: noise.ZeroNoise{N: 1}})
	if err != nil {
		return Verdict{}, err
	}
	return nodeCountRow(kind, n, nc, ctr.Cost()), nil
}

// nodeCountRow is the verdict of nodeCountVerdict on the measured count nc
// against the claimed cost.
func nodeCountRow(kind counter.Kind, n int, nc NodeCount, cost counter.Cost) Verdict {
	within := func(claimL2, claimL1 float64) bool {
		ok := nc.L2Sq <= claimL2*(1+nodeCountTol)
		if !math.IsNaN(nc.L1) {
			ok = ok && nc.L1 <= claimL1*(1+nodeCountTol)
		}
		return ok
	}
	l1 := "not identified (more draws than rounds)"
	if !math.IsNaN(nc.L1) {
		l1 = fmt.Sprintf("%.6g (claimed %.6g)", nc.L1, cost.L1)
	}
	v := NewVerdict("as17-counter-"+kind.String()+"-nodes",
		fmt.Sprintf("counted on the built %v counter, n = %d: the node draws a record's loss is spread over, max_s a_sᵀ(BBᵀ)⁻¹a_s ≤ Cost().L2Sq = %.6g", kind, n, cost.L2Sq),
		"the counter's calibration (counter.Counter Cost; AS17 Alg. 2 and MT14 Alg. 1 for the tree: one node per level)", 0, 0,
		boolFail(within(cost.L2Sq, cost.L1)), nc.L2Sq/cost.L2Sq,
		fmt.Sprintf("impulse responses: %d draws during the rounds (%d padding draws before them left out); measured L2Sq = %.6g at record s = %d, L1 = %s",
			nc.Draws, nc.Padding, nc.L2Sq, nc.At, l1))
	cl2, cl1 := cost.L2Sq-1, cost.L1-1
	ctl := NewVerdict("control", "", "", 0, 0, boolFail(within(cl2, cl1)), nc.L2Sq/cl2, "")
	v = withControl(v, ctl, "claimed count one too small")
	v.ControlScore = maxRatio // a claim of at most one node: any count exceeds the control's
	if cl2 > 0 {
		v.ControlScore = math.Min(nc.L2Sq/(cl2*(1+nodeCountTol)), maxRatio)
	}
	v.Detects = fmt.Sprintf("a claimed count below %.6g", nc.L2Sq/(1+nodeCountTol))
	return v
}
