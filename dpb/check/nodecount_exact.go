package check

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// The node counts of the two counters whose releases post-process their
// nodes (Honaker's estimator, the smooth binary mechanism) against the
// exact L2Sq of their estimators, computed here from the estimators'
// definitions: a release reveals less than the nodes a record enters, so
// the calibration's claim (Cost().L2Sq, a node count) is conservative and
// a claim one too small is no defect; what the built counter must match is
// the estimator's own L2Sq, max_s a_sᵀ(BBᵀ)⁻¹a_s with B the estimator's
// release-by-draw matrix.

// releaseMatrix holds the rows of B (release t's weight on each draw) as
// sparse maps from a draw's id to its weight.
type releaseMatrix []map[[2]int]float64

// exactL2Sq returns max_s a_sᵀ(BBᵀ)⁻¹a_s for the prefix-sum releases of B
// (a_s[t] = 1 for t ≥ s: every estimator here is unbiased), the s of the
// maximum (1-based) and the number of draws B holds.
func exactL2Sq(rows releaseMatrix) (l2sq float64, at, draws int, err error) {
	n := len(rows)
	// Columns in sorted draw order, not map order: BBᵀ's sums then run in
	// one order, so the result has the same bits on every run.
	var keys [][2]int
	seen := map[[2]int]bool{}
	for _, r := range rows {
		for id := range r {
			if !seen[id] {
				seen[id] = true
				keys = append(keys, id)
			}
		}
	}
	slices.SortFunc(keys, func(x, y [2]int) int { return cmp.Or(cmp.Compare(x[0], y[0]), cmp.Compare(x[1], y[1])) })
	ids := make(map[[2]int]int, len(keys))
	for c, id := range keys {
		ids[id] = c
	}
	B := mat.NewDense(n, len(ids), nil)
	for t, r := range rows {
		for id, w := range r {
			B.Set(t, ids[id], w)
		}
	}
	var bbt mat.SymDense
	bbt.SymOuterK(1, B)
	var ch mat.Cholesky
	if !ch.Factorize(&bbt) {
		return 0, 0, 0, fmt.Errorf("check: an estimator's release noise BBᵀ is singular")
	}
	best, at := 0.0, 0
	a := mat.NewVecDense(n, nil)
	var x mat.VecDense
	for s := range n {
		for t := range n {
			a.SetVec(t, 0)
			if t >= s {
				a.SetVec(t, 1)
			}
		}
		if err := ch.SolveVecTo(&x, a); err != nil {
			return 0, 0, 0, err
		}
		if q := mat.Dot(a, &x); q > best {
			best, at = q, s+1
		}
	}
	return best, at, len(ids), nil
}

// honakerReleases returns B of Honaker's (2015) estimator on the binary
// tree over n rounds, from its definition: node (i, j) of level i covers
// rounds j·2^i + 1 … (j+1)·2^i and has one draw y_{i,j}; its estimate is
// ŝ = y for a leaf and ŝ = w_i y + (1 − w_i)(ŝ_left + ŝ_right) above, w_i =
// 2v_{i−1}/(1 + 2v_{i−1}), v_0 = 1, v_i = w_i; release t sums the estimates
// of the nodes of t's dyadic decomposition (for every set bit i of t, the
// level-i node j = ⌊t/2^i⌋ − 1).
func honakerReleases(n int) releaseMatrix {
	w := []float64{1}
	v := 1.0
	for i := 1; 1<<(i-1) <= n; i++ {
		wi := 2 * v / (1 + 2*v)
		w, v = append(w, wi), wi
	}
	memo := map[[2]int]map[[2]int]float64{}
	var est func(i, j int) map[[2]int]float64
	est = func(i, j int) map[[2]int]float64 {
		if e, ok := memo[[2]int{i, j}]; ok {
			return e
		}
		e := map[[2]int]float64{{i, j}: 1}
		if i > 0 {
			e[[2]int{i, j}] = w[i]
			for _, c := range []map[[2]int]float64{est(i-1, 2*j), est(i-1, 2*j+1)} {
				for id, x := range c {
					e[id] += (1 - w[i]) * x
				}
			}
		}
		memo[[2]int{i, j}] = e
		return e
	}
	rows := make(releaseMatrix, n)
	for t := 1; t <= n; t++ {
		r := map[[2]int]float64{}
		for i := 0; t>>i > 0; i++ {
			if t>>i&1 == 1 {
				for id, x := range est(i, t>>i-1) {
					r[id] += x
				}
			}
		}
		rows[t-1] = r
	}
	return rows
}

// smoothParams returns (h, k) of Andersson & Pagh's smooth binary mechanism
// for n rounds, from its definition: the pair minimising (k + 1)(h − k + 1)
// subject to C(h, k) ≥ n, ties to the smaller h (exact integer binomials).
func smoothParams(n int) (h, k int) {
	best := -1
	for hh := 1; hh <= 62; hh++ {
		c := 1 // C(hh, kk)
		for kk := 0; kk <= hh; kk++ {
			if c >= n {
				if v := (kk + 1) * (hh - kk + 1); best < 0 || v < best {
					best, h, k = v, hh, kk
				}
			}
			if kk < hh {
				c = c * (hh - kk) / (kk + 1)
			}
		}
		if best > 0 && hh > 2*best {
			break
		}
	}
	return h, k
}

// smoothReleases returns B of the smooth binary mechanism over n rounds,
// from its definition: round t is the t-th smallest h-bit label ℓ with k
// ones; its release sums the draw of the leaf ℓ and, for every set bit j of
// ℓ, the draw of the subtree of the labels that agree with ℓ above bit j
// and have 0 at bit j (node (j + 1, ℓ >> (j + 1)): level j + 1, leaves at
// level 0).
func smoothReleases(n int) releaseMatrix {
	h, k := smoothParams(n)
	rows := make(releaseMatrix, 0, n)
	for l := uint64(0); len(rows) < n && l < 1<<h; l++ {
		if popcount(int(l)) != k {
			continue
		}
		r := map[[2]int]float64{{0, int(l)}: 1}
		for j := 0; j < h; j++ {
			if l>>j&1 == 1 {
				r[[2]int{j + 1, int(l >> (j + 1))}] = 1
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// exactNodeCountRow is the node-count row of the Honaker and smooth
// counters: the L2Sq counted on the built counter (CountNodes) must equal
// the estimator's exact L2Sq (exactL2Sq of honakerReleases or
// smoothReleases) to the solver's rounding, and be at most the count the
// calibration claims (Cost().L2Sq). The control is the built counter with
// one node's noise missing (the first draw of round 1 left out of every
// release that holds it): its count, measured the same way, must differ
// from the exact one.
func exactNodeCountRow(kind counter.Kind, n int) (Verdict, error) {
	var rows releaseMatrix
	switch kind {
	case counter.Honaker:
		rows = honakerReleases(n)
	case counter.Smooth:
		rows = smoothReleases(n)
	default:
		return Verdict{}, fmt.Errorf("check: no exact estimator for the %v counter", kind)
	}
	exact, at, draws, err := exactL2Sq(rows)
	if err != nil {
		return Verdict{}, err
	}
	nc, err := CountNodes(kind, n)
	if err != nil {
		return Verdict{}, err
	}
	bad, err := countNodes(kind, n, 1)
	if err != nil {
		return Verdict{}, err
	}
	ctr, err := counter.New(counter.Config{Kind: kind, Dim: 1, Horizon: n, Noise: noise.ZeroNoise{N: 1}})
	if err != nil {
		return Verdict{}, err
	}
	claim := ctr.Cost().L2Sq
	off := func(m float64) float64 { return math.Abs(m-exact) / (nodeCountTol * exact) } // ≤ 1: equal to the rounding
	ok := off(nc.L2Sq) <= 1 && nc.L2Sq <= claim*(1+nodeCountTol)
	v := NewVerdict("as17-counter-"+kind.String()+"-nodes",
		fmt.Sprintf("counted on the built %v counter, n = %d: max_s a_sᵀ(BBᵀ)⁻¹a_s equals the estimator's exact %.6g (from its definition) and is at most Cost().L2Sq = %.6g", kind, n, exact, claim),
		"the counter's estimator (Honaker 2015; Andersson & Pagh 2023) and its calibration (counter.Counter Cost)", 0, 0,
		boolFail(ok), nc.L2Sq/exact,
		fmt.Sprintf("impulse responses: %d draws during the rounds; measured L2Sq = %.9g at record s = %d; exact %.9g at s = %d (B from the definition, %d draws, those the releases use); claim %.6g (a release reveals %.2g of the nodes it is calibrated for)",
			nc.Draws, nc.L2Sq, nc.At, exact, at, draws, claim, exact/claim))
	ctl := NewVerdict("control", "", "", 0, 0, boolFail(off(bad.L2Sq) <= 1), bad.L2Sq/exact, "")
	v = withControl(v, ctl, "the built counter with one node's noise missing (round 1's first draw)")
	v.ControlScore = math.Min(off(bad.L2Sq), maxRatio)
	v.Detects = fmt.Sprintf("a count off the exact %.6g by more than %.0e of it", exact, nodeCountTol)
	return v, nil
}

// nodeCovers reports whether record s (1-based round) enters node id of
// the counter kind over n rounds, from the node's definition: Honaker's
// node (i, j) holds the sum of rounds j·2^i + 1 … (j+1)·2^i; the smooth
// mechanism's leaf (0, ℓ) holds its own label's round and node (j + 1, p)
// the rounds whose labels agree with p above bit j and have 0 at bit j
// (labels: the smoothLabels of the rounds).
func nodeCovers(kind counter.Kind, id [2]int, s int, labels []int) bool {
	switch kind {
	case counter.Honaker:
		lo := id[1] << id[0]
		return s > lo && s <= lo+1<<id[0]
	default:
		l := labels[s-1]
		if id[0] == 0 {
			return l == id[1]
		}
		j := id[0] - 1
		return l>>(j+1) == id[1] && l>>j&1 == 0
	}
}

// smoothLabels returns the label of each round of the smooth mechanism over
// n rounds: the n smallest h-bit labels with k ones, in order.
func smoothLabels(n int) []int {
	h, k := smoothParams(n)
	var ls []int
	for l := 0; len(ls) < n && l < 1<<h; l++ {
		if popcount(l) == k {
			ls = append(ls, l)
		}
	}
	return ls
}

// measurementCount returns the measurement matrix C of the counter kind
// over n rounds, from the nodes' definitions (nodeCovers) restricted to the
// nodes the releases use (the ids of B = honakerReleases or
// smoothReleases), its largest column count max_s ‖C e_s‖² (= ‖C e_s‖₁: C
// is 0/1) with its record s, and the largest entry of |BC − A| (A the
// prefix-sum matrix), which is 0 up to rounding when C is the measurement
// matrix behind B: the releases are B(Cx + z), and an unbiased release of
// every prefix sum needs BC = A.
func measurementCount(kind counter.Kind, n int) (count, at int, resid float64) {
	var rows releaseMatrix
	var labels []int
	if kind == counter.Honaker {
		rows = honakerReleases(n)
	} else {
		rows, labels = smoothReleases(n), smoothLabels(n)
	}
	nodes := map[[2]int]bool{}
	for _, r := range rows {
		for id := range r {
			nodes[id] = true
		}
	}
	for s := 1; s <= n; s++ {
		c := 0
		for id := range nodes {
			if nodeCovers(kind, id, s, labels) {
				c++
			}
		}
		if c > count {
			count, at = c, s
		}
		for t, r := range rows {
			var bc float64
			for id, w := range r {
				if nodeCovers(kind, id, s, labels) {
					bc += w
				}
			}
			a := 0.0
			if s <= t+1 {
				a = 1
			}
			resid = math.Max(resid, math.Abs(bc-a))
		}
	}
	return count, at, resid
}

// measurementCountRow is the "-cost" row of the Honaker and smooth
// counters: the calibration's claim Cost() is documented as the norms of a
// record's column of the measurement matrix C (counter.Cost), here a node
// count. C is built in the check from the nodes' definitions
// (measurementCount: which rounds each node sums), checked to be the
// matrix behind the estimator's releases (BC = A to 10⁻⁹), and its largest
// column count must be at most Cost().L2Sq and Cost().L1 (the node-level
// mechanism, of which the releases are post-processing, is then private at
// the calibrated σ: the argument of the secure mode, where the node values
// themselves are the mechanism). The control is the planted defect: the
// same comparison with the claim one node short (Cost − 1), caught when the
// definition's count exceeds it. (The releases alone reveal less:
// exactNodeCountRow's exact L2Sq is below the node count, so a claim one
// short can still cover the releases; this row holds the claim to what it
// states.)
func measurementCountRow(kind counter.Kind, n int) (Verdict, error) {
	count, at, resid := measurementCount(kind, n)
	ctr, err := counter.New(counter.Config{Kind: kind, Dim: 1, Horizon: n, Noise: noise.ZeroNoise{N: 1}})
	if err != nil {
		return Verdict{}, err
	}
	c := ctr.Cost()
	cf := float64(count)
	cmp := func(claim counter.Cost) bool {
		return resid <= nodeCountTol && cf <= claim.L2Sq && cf <= claim.L1
	}
	v := NewVerdict("as17-counter-"+kind.String()+"-cost",
		fmt.Sprintf("the %v counter's calibration claim, n = %d: a record's column of the measurement matrix C (built from the nodes' definitions, BC = A) has ‖C e_s‖² = ‖C e_s‖₁ ≤ Cost() = (L2Sq %.6g, L1 %.6g)", kind, n, c.L2Sq, c.L1),
		"counter.Cost (the measurement matrix's column norms); Honaker 2015; Andersson & Pagh 2023", 0, 0,
		boolFail(cmp(c)), cf/math.Min(c.L2Sq, c.L1),
		fmt.Sprintf("largest column of C: %d nodes at record s = %d; max |BC − A| = %.2g", count, at, resid))
	v.Kind = KindArithmetic
	bad := counter.Cost{L2Sq: c.L2Sq - 1, L1: c.L1 - 1}
	ctl := NewVerdict("control", "", "", 0, 0, boolFail(cmp(bad)), cf/math.Min(bad.L2Sq, bad.L1), "")
	v = withControl(v, ctl, "the claim one node short (Cost − 1)")
	v.Detects = fmt.Sprintf("a claimed count below the %d nodes a record enters", count)
	return v, nil
}
