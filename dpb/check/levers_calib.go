package check

import (
	"fmt"
	"math"
	"slices"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// Statement checks of the noise levers' calibration (issue 55,
// ss18/levers.go), in the manner of calib_indep.go: the check's own
// transcription of what the calibration claims, never the function a defect
// would mutate (ss18.SplitFactor, the counter's Cost and VarianceAt).
//
//   - "ss18-lever-<alg>-split-mu": the split's μ, from the calibration's
//     σ_V and σ_u and the counter's cost computed here, maximised by brute
//     force over neighbouring records, equals μ(ε, δ) of exact Gaussian-DP
//     accounting (the check's bisection, bwSigma). Control: σ_V ×0.97.
//   - "ss18-lever-<alg>-toeplitz-variance": the counter's VarianceAt(t), for
//     every t ≤ n, equals Σ_{j<t} b_j² with b read from the built counter's
//     impulse response (its noise is linear in its draws, so the response
//     is its law). Control: the noise path run on ω ×0.97 against the
//     reported VarianceAt of ω.
//   - "ss18-lever-<alg>-toeplitz-cost": Cost().L2Sq equals the largest
//     squared column norm of C = B⁻¹A (A the prefix-sum matrix, B the
//     impulse response's Toeplitz matrix), computed in O(n²). Control: the
//     noise path with a node (its last BLT buffer) missing against the
//     reported cost.

// leverCalibTol is the relative tolerance of the exact rows: the brute
// force's refinement reaches 10⁻¹⁰ and the sums agree to 10⁻¹².
const leverCalibTol = 1e-7

// bltImpulse is a one-dimensional noise that draws 1 once, then 0.
type bltImpulse struct{ draws int }

func (p *bltImpulse) Dim() int { return 1 }

func (p *bltImpulse) Sample(dst []float64) {
	dst[0] = 0
	if p.draws == 0 {
		dst[0] = 1
	}
	p.draws++
}

// bltImpulseResponse returns b_0..b_{n−1} of the BLT counter on (ω, λ) over
// n rounds, read from its releases under an impulse noise and zero data,
// and the counter itself.
func bltImpulseResponse(n int, omega, lambda []float64) ([]float64, counter.Counter, error) {
	p := &bltImpulse{}
	ctr, err := counter.New(counter.Config{Kind: counter.BLT, Dim: 1, Horizon: n, Noise: p, Omega: omega, Lambda: lambda})
	if err != nil {
		return nil, nil, err
	}
	b, rel, zero := make([]float64, n), make([]float64, 1), make([]float64, 1)
	for t := range n {
		ctr.Add(zero)
		ctr.SumTo(rel)
		b[t] = rel[0]
	}
	if p.draws != n {
		return nil, nil, fmt.Errorf("check: the BLT counter made %d draws over %d rounds, not one a round", p.draws, n)
	}
	return b, ctr, nil
}

// costFromImpulse returns max_s Σ_t C_ts² for C = B⁻¹A, B the lower
// triangular Toeplitz matrix of b, A the lower triangular ones: C is
// Toeplitz with c solving Σ_{k≤j} b_k c_{j−k} = 1 (O(n²)), column s holds
// c_0..c_{n−1−s}.
func costFromImpulse(b []float64) float64 {
	n := len(b)
	c := make([]float64, n)
	for j := range n {
		s := 1.0
		for k := 1; k <= j; k++ {
			s -= float64(b[k] * c[j-k])
		}
		c[j] = s / b[0]
	}
	var best, col float64
	for s := n - 1; s >= 0; s-- { // column s: Σ_{j<n−s} c_j², built up from the last column
		col += float64(c[n-1-s] * c[n-1-s])
		best = math.Max(best, col)
	}
	return best
}

// splitMuSq returns the split mechanism's μ² per unit of cost for the
// neighbours x = a e₁, x′ = a′(cos θ e₁ + sin θ e₂), rewards y, y′: the
// noise law of noise.NewSymGaussianSplit as the check reads it, entries on
// and above the diagonal independent, the Gram block's diagonal at
// variance 2σ_V², its off-diagonal at σ_V², the reward vector at σ_u², the
// corner not released.
func splitMuSq(a, a2, th, y, y2, sv, su float64) float64 {
	x := [2]float64{a, 0}
	x2 := [2]float64{a2 * math.Cos(th), a2 * math.Sin(th)}
	var m float64
	for i := range 2 {
		for j := i; j < 2; j++ {
			dv := float64(x[i]*x[j]) - float64(x2[i]*x2[j])
			if i == j {
				m += dv * dv / (2 * sv * sv)
			} else {
				m += dv * dv / (sv * sv)
			}
		}
		du := float64(x[i]*y) - float64(x2[i]*y2)
		m += du * du / (su * su)
	}
	return m
}

// splitMuSqMax maximises splitMuSq over ‖x‖, ‖x′‖ ≤ l, |y|, |y′| ≤ bnd by a
// grid (11 × 11 norms, 91 angles, 11 × 11 rewards) refined by a pattern
// search with halving steps to 10⁻¹².
func splitMuSqMax(l, bnd, sv, su float64) float64 {
	best, p := -1.0, [5]float64{}
	for i := 0; i <= 10; i++ {
		for i2 := 0; i2 <= 10; i2++ {
			for k := 0; k <= 90; k++ {
				for j := -5; j <= 5; j++ {
					for j2 := -5; j2 <= 5; j2++ {
						q := [5]float64{l * float64(i) / 10, l * float64(i2) / 10, math.Pi * float64(k) / 90, bnd * float64(j) / 5, bnd * float64(j2) / 5}
						if v := splitMuSq(q[0], q[1], q[2], q[3], q[4], sv, su); v > best {
							best, p = v, q
						}
					}
				}
			}
		}
	}
	lo := [5]float64{0, 0, 0, -bnd, -bnd}
	hi := [5]float64{l, l, math.Pi, bnd, bnd}
	step := [5]float64{l / 10, l / 10, math.Pi / 90, bnd / 5, bnd / 5}
	for range 200 {
		moved := false
		for k := range p {
			for _, sg := range []float64{-1, 1} {
				q := p
				q[k] = math.Min(hi[k], math.Max(lo[k], q[k]+float64(sg*step[k])))
				if v := splitMuSq(q[0], q[1], q[2], q[3], q[4], sv, su); v > best {
					best, p, moved = v, q, true
				}
			}
		}
		if !moved {
			for k := range step {
				step[k] /= 2
			}
			if step[0] < 1e-12*l {
				break
			}
		}
	}
	return best
}

// LeverCalibrationRows checks the levers' calibration at the setting s
// (see the file's comment) for each noise-lever variant and GaussianLeversNorms, on the BLT counter
// with the β the calibration chose, split bounds ‖x‖ ≤ 1, |y| ≤ 1.
func LeverCalibrationRows(s ss18.Setting) (Verdicts, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if s.N > 1<<14 {
		return nil, fmt.Errorf("check: the lever calibration rows are O(n²): n = %d is above %d", s.N, 1<<14)
	}
	var vs Verdicts
	// GaussianLeversNorms releases through GaussianLevers' mechanism, but at
	// its own r and β (the Norms lever moves the objective that picks them):
	// its calibration is checked too.
	for _, alg := range slices.Concat(ss18.NoiseLeverAlgs, []ss18.Alg{ss18.GaussianLeversNorms}) {
		lv := leverLevers(alg)
		lc, err := ss18.LeverCalibration(s, counter.BLT, lv)
		if err != nil {
			return nil, err
		}
		om, la, err := counter.BLTParamsBeta(s.N, lc.Beta)
		if err != nil {
			return nil, err
		}
		b, ctr, err := bltImpulseResponse(s.N, om, la)
		if err != nil {
			return nil, err
		}
		cost := costFromImpulse(b)
		name := "ss18-lever-" + alg.String()
		ref := "ss18/levers.go (LeverCal), issue 55"
		if lv.Split {
			vs = append(vs, splitMuRow(name, ref, s, lv, lc, cost))
		}
		if lv.Toeplitz {
			tv, err := toeplitzRows(name, ref, s.N, lc.Beta, om, la, b, ctr)
			if err != nil {
				return nil, err
			}
			vs = append(vs, tv...)
		}
	}
	return vs, nil
}

// leverExactRow is an arithmetic verdict: value against its reference to
// leverCalibTol (relative), with a control through the same rule.
func leverExactRow(name, claim, ref string, value, want, ctl float64, what, note string) Verdict {
	rel := func(v float64) float64 { return math.Abs(v/want - 1) }
	fail := func(v float64) int {
		if !(rel(v) <= leverCalibTol) {
			return 1
		}
		return 0
	}
	v := NewVerdict(name, claim, ref, 0, 0, fail(value), rel(value)/leverCalibTol, note)
	v.Kind = KindArithmetic
	c := NewVerdict("control", "", "", 0, 0, fail(ctl), rel(ctl)/leverCalibTol, "")
	v = withControl(v, c, what)
	v.Detects = fmt.Sprintf("a relative error above %.0e", leverCalibTol)
	return v
}

func splitMuRow(name, ref string, s ss18.Setting, lv ss18.Levers, lc ss18.LeverCal, cost float64) Verdict {
	want := 1 / bwSigma(s.Epsilon, s.Delta, 1)
	mu := math.Sqrt(cost * splitMuSqMax(lv.XBound, lv.YBound, lc.Sigma, lc.SigmaU))
	ctl := math.Sqrt(cost * splitMuSqMax(lv.XBound, lv.YBound, 0.97*lc.Sigma, lc.SigmaU))
	note := fmt.Sprintf("n=%d, β=%g: σ_V=%.6g σ_u=%.6g (r=%.4g); cost Σc_j² = %.10g (C = B⁻¹A here); brute-force μ = %.10g, μ(ε=%g, δ=%g) = %.10g; control μ = %.6g",
		s.N, lc.Beta, lc.Sigma, lc.SigmaU, lc.Ratio, cost, mu, s.Epsilon, s.Delta, want, ctl)
	return leverExactRow(name+"-split-mu", "μ = √(cost · max over neighbours ‖x‖, ‖x′‖ ≤ X, |y|, |y′| ≤ Y of ΔV_ii²/(2σ_V²) + ΔV_ij²/σ_V² (i < j) + ‖Δu‖²/σ_u²) equals μ(ε, δ)",
		ref+"; Dong, Roth & Su 2022 (Gaussian DP)", mu, want, ctl, "σ_V ×0.97", note)
}

// toeplitzRows returns the variance and cost rows of the BLT counter on
// (1−z)^{−β} with impulse response b.
func toeplitzRows(name, ref string, n int, beta float64, om, la, b []float64, ctr counter.Counter) (Verdicts, error) {
	scaled := make([]float64, len(om))
	for i, w := range om {
		scaled[i] = 0.97 * w
	}
	bs, _, err := bltImpulseResponse(n, scaled, la)
	if err != nil {
		return nil, err
	}
	bm, _, err := bltImpulseResponse(n, om[:len(om)-1], la[:len(la)-1])
	if err != nil {
		return nil, err
	}
	// Variance: the worst relative error over t of Σ_{j<t} b_j² against VarianceAt(t).
	worst := func(b []float64) (float64, int) {
		var v, w float64
		at := 0
		for t := 1; t <= n; t++ {
			v += float64(b[t-1] * b[t-1])
			if e := math.Abs(v/ctr.VarianceAt(t) - 1); e > w || math.IsNaN(e) {
				w, at = e, t
			}
		}
		return w, at
	}
	e, et := worst(b)
	ce, cet := worst(bs)
	// Rounding-level agreement is reported as a bound, not its last digits:
	// those differ between CPUs (arm64 fuses the counter's product-adds where
	// amd64 does not), and the JSON must be the same bytes everywhere.
	dev := fmt.Sprintf("%.3g (t = %d)", e, et)
	if e < 1e-13 {
		dev = "below 10⁻¹³"
	}
	note := fmt.Sprintf("n=%d, β=%g, %d buffers: max_t |Σ_{j<t}b_j²/VarianceAt(t) − 1| = %s; control %.3g (t = %d)", n, beta, len(om), dev, ce, cet)
	vv := leverExactRow(name+"-toeplitz-variance", "VarianceAt(t) = Σ_{j<t} b_j², b the built counter's impulse response, for every t ≤ n", ref+", counter/toeplitz.go",
		1+e, 1, 1+ce, "the noise path on ω ×0.97, VarianceAt of ω", note)
	want := ctr.Cost().L2Sq
	c, cm := costFromImpulse(b), costFromImpulse(bm)
	note = fmt.Sprintf("n=%d, β=%g: Cost().L2Sq = %.12g, max column ‖C_·s‖² of C = B⁻¹A = %.12g; control (last buffer missing) %.8g", n, beta, want, c, cm)
	cv := leverExactRow(name+"-toeplitz-cost", "Cost().L2Sq = max_s ‖C_·s‖², C = B⁻¹A, B the built counter's impulse-response Toeplitz matrix", ref+", counter/toeplitz.go",
		c, want, cm, "a node missing (the last BLT buffer dropped from the noise path)", note)
	return Verdicts{vv, cv}, nil
}

var _ noise.Noise = (*bltImpulse)(nil)
