package check

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// LeverSecureSensitivity is "ss18-lever-<alg>-secure-mu" for each noise
// lever (ss18.NoiseLeverAlgs) on secure noise: the discrete mechanism the
// built regularizer runs is no less private than the continuous one its
// σ's were calibrated for. On the built object ([SecureNoise], setting s,
// split bounds ‖x‖, |y| ≤ 1), with σ′_i the node noise's discrete scales
// (steps × grid g, read from it), p the packed length, slack the noise's
// sensitivity slack and L2Sq the counter's cost:
//
//	μ_disc = √L2Sq · (max_pairs ‖Δ‖_{σ′} + (g√p + slack)/min σ′) ≤ μ_cal,
//
// ‖Δ‖_{σ′} = (Σ_i Δ_i²/σ′_i²)^{1/2} over the packed entries a neighbouring
// pair moves: the rounding of the data (≤ g/2 per entry, two records) and
// the Toeplitz measurements' error (the slack, per unit of ‖c‖₂) add at
// most (g√p + slack) in ℓ2 per unit of cost, weighed by at most 1/min σ′.
// μ_cal is the calibration's μ(ε, δ). The maximum over pairs is the
// check's own: records at full norm, x = e₁ against x′ = s e₁ + √(1−s²) e₂
// (the weights are uniform within each class of entries, so the norm is
// rotation invariant, and full norms are worst: TestSplitSensitivityBruteForce
// searches the box), y = 1 against y′ = ±1 split (the corner not
// released), the whole record [x; y] of norm L̃ unsplit (corner included);
// s on a grid of 4,001 points refined by golden section. The pairs'
// largest packed ℓ2 change is the check's sensitivity.
//
// Control: the same σ's with the noise built by the check for twice that
// sensitivity (its inflation for the rounding halved: the defect of a
// sensitivity that no pair attains). It must fail: for the split the margin
// is max‖Δ‖_σ·max σ/sens ≈ 1.5 times the rounding's, for the unsplit
// Toeplitz lever exactly the rounding's.
func LeverSecureSensitivity(s ss18.Setting) (Verdicts, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	var vs Verdicts
	for _, alg := range ss18.NoiseLeverAlgs {
		v, err := leverSecureMuRow(s, alg)
		if err != nil {
			return nil, err
		}
		vs = append(vs, v)
	}
	return vs, nil
}

func leverSecureMuRow(s ss18.Setting, alg ss18.Alg) (Verdict, error) {
	lv := leverLevers(alg)
	regAny, err := ss18.NewRegularizer(ss18.RegularizerConfig{Kind: ss18.RegGaussianCounterRound, Setting: s, Counter: counter.BLT, Noise: SecureNoise, Levers: lv}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		return Verdict{}, err
	}
	reg := regAny.(*ss18.TreeRegularizer)
	lc, ok := reg.Levers()
	if !ok {
		return Verdict{}, fmt.Errorf("check: %v's regularizer reports no levers", alg)
	}
	st, ok := reg.Counter().(counter.State)
	if !ok {
		return Verdict{}, fmt.Errorf("check: %v's counter exposes no node noise", alg)
	}
	sn, ok := st.NodeNoise().(*noise.SecureNoise)
	if !ok {
		return Verdict{}, fmt.Errorf("check: %v's node noise is %T, not secure", alg, st.NodeNoise())
	}
	n1 := s.D + 1
	pairs := leverSecurePairs(s, lc.Levers)
	sens := leverSecureMaxL2(pairs, len(sn.Sigmas()))
	cost := reg.Counter().Cost().L2Sq
	mu := func(nz *noise.SecureNoise) float64 {
		g := nz.Grid()
		sig := make([]float64, len(nz.Sigmas()))
		lo := math.Inf(1)
		for i, k := range nz.Sigmas() {
			sig[i] = float64(k) * g
			lo = math.Min(lo, sig[i])
		}
		m := leverSecureMaxWeighted(pairs, sig)
		return math.Sqrt(cost) * (m + (g*math.Sqrt(float64(len(sig)))+nz.Slack())/lo)
	}
	got := mu(sn)
	cfg := noise.Config{Law: noise.SymGaussianLaw, Mode: SecureNoise, N: n1, Sigma: lc.Sigma, Sensitivity: 2 * sens, Slack: sn.Slack()}
	if lc.Levers.Split {
		cfg.SigmaU = lc.SigmaU
	}
	cAny, err := noise.New(cfg, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		return Verdict{}, err
	}
	ctl := mu(cAny.(*noise.SecureNoise))
	v := NewVerdict("ss18-lever-"+alg.String()+"-secure-mu",
		fmt.Sprintf("%v on secure noise (built, d = %d, n = %d, (%g, %g)): the discrete mechanism's μ = √L2Sq·(max‖Δ‖_σ′ + (g√p + slack)/min σ′) over the check's pairs is at most the calibrated μ = %.6g (σ′ read from the node noise, %d classes of entries; the check's sensitivity, the pairs' largest packed ℓ2 change, %.6g)",
			alg, s.D, s.N, s.Epsilon, s.Delta, lc.Mu, leverSecureClasses(sn), sens),
		"levers.go (LeverCal, leverNoise); noise.newSecureGaussian's weighted-sensitivity argument; Canonne, Kamath & Steinke 2020", 0, 0,
		boolFail(got <= lc.Mu), got/lc.Mu,
		fmt.Sprintf("μ_disc = %.10g against %.10g: margin %.3g relative", got, lc.Mu, 1-got/lc.Mu))
	v.Kind = KindArithmetic
	v = withControl(v, NewVerdict("control", "", "", 0, 0, boolFail(ctl <= lc.Mu), ctl/lc.Mu, ""), "the noise built for twice the sensitivity (half the rounding's inflation)")
	return v, nil
}

// leverSecurePairs returns the check's family of neighbouring pairs at
// full norm as packed changes, indexed by s = ⟨x, x′⟩/(‖x‖‖x′‖) ∈ [−1, 1]
// (and, split, both signs of y′).
func leverSecurePairs(s ss18.Setting, l ss18.Levers) func(float64) [][]float64 {
	d := s.D
	n1 := d + 1
	p := simd.PackedLen(n1)
	pack := func(z []float64, corner bool) []float64 {
		out := make([]float64, p)
		simd.PackOuterTo(out, z)
		if !corner {
			out[p-1] = 0
		}
		return out
	}
	diff := func(a, b []float64) []float64 {
		for i := range a {
			a[i] -= b[i]
		}
		return a
	}
	return func(c float64) [][]float64 {
		sn := math.Sqrt(math.Max(0, 1-c*c))
		z, z2 := make([]float64, n1), make([]float64, n1)
		if l.Split {
			z[0], z2[0], z2[1] = l.XBound, l.XBound*c, l.XBound*sn
			var out [][]float64
			for _, y2 := range []float64{l.YBound, -l.YBound} {
				z[d], z2[d] = l.YBound, y2
				out = append(out, diff(pack(z, false), pack(z2, false)))
			}
			return out
		}
		r := math.Sqrt(s.Lt2) // the whole record [x; y] of norm L̃, its corner released
		z[0], z2[0], z2[1] = r, r*c, r*sn
		return [][]float64{diff(pack(z, true), pack(z2, true))}
	}
}

// leverSecureMaxWeighted returns max over the family of ‖Δ‖_σ.
func leverSecureMaxWeighted(pairs func(float64) [][]float64, sig []float64) float64 {
	f := func(c float64) float64 {
		best := 0.0
		for _, dv := range pairs(c) {
			var w float64
			for i, x := range dv {
				w += float64((x / sig[i]) * (x / sig[i]))
			}
			best = math.Max(best, math.Sqrt(w))
		}
		return best
	}
	return maxOnInterval(f)
}

// leverSecureMaxL2 returns max over the family of ‖Δ‖₂: ‖Δ‖_σ with every
// σ_i = 1.
func leverSecureMaxL2(pairs func(float64) [][]float64, p int) float64 {
	ones := make([]float64, p)
	for i := range ones {
		ones[i] = 1
	}
	return leverSecureMaxWeighted(pairs, ones)
}

// maxOnInterval maximises f on [−1, 1]: a grid of 4,001 points, then 80
// steps of golden section around the best.
func maxOnInterval(f func(float64) float64) float64 {
	const steps = 4000
	h := 2.0 / steps
	best, bx := math.Inf(-1), -1.0
	for i := 0; i <= steps; i++ {
		x := -1 + float64(float64(i)*h)
		if v := f(x); v > best {
			best, bx = v, x
		}
	}
	lo, hi := math.Max(-1, bx-h), math.Min(1, bx+h)
	const phi = 0.6180339887498949
	for range 80 {
		m1, m2 := hi-float64(phi*(hi-lo)), lo+float64(phi*(hi-lo))
		if f(m1) >= f(m2) {
			hi = m2
		} else {
			lo = m1
		}
	}
	return math.Max(best, f((lo+hi)/2))
}

// leverSecureClasses counts the distinct discrete scales of the noise.
func leverSecureClasses(nz *noise.SecureNoise) int {
	seen := map[uint64]bool{}
	for _, k := range nz.Sigmas() {
		seen[k] = true
	}
	return len(seen)
}
