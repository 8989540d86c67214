package audit

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"gonum.org/v1/gonum/mat"
)

// gaussT, gaussEps and gaussDelta are the audited calibrated Gaussian
// counters' horizon and claim: δ = 0.01 keeps the optimal region's
// probabilities (a few percent) measurable with 10⁵ runs.
const (
	gaussT     = 16
	gaussEps   = 1.0
	gaussDelta = 0.01
)

// impulseNoise is a one-dimensional Noise whose draw number k is 1 and every
// other draw 0: running a counter on it and zero data gives column k of the
// counter's noise matrix B (release_t = S_t + Σ_k B_tk η_k).
type impulseNoise struct{ k, j int }

func (n *impulseNoise) Dim() int { return 1 }
func (n *impulseNoise) Sample(dst []float64) {
	dst[0] = 0
	if n.j == n.k {
		dst[0] = 1
	}
	n.j++
}

// noiseMatrix returns B (T×K) of a counter kind over T rounds of scalars,
// K the number of node draws it makes.
func noiseMatrix(kind counter.Kind, T int) *mat.Dense {
	return noiseMatrixOf(counter.Config{Kind: kind, Horizon: T})
}

// noiseMatrixOf is noiseMatrix of the counter cfg configures (its Kind,
// Horizon and BLT Omega and Lambda; Dim and Noise are set here).
func noiseMatrixOf(cfg counter.Config) *mat.Dense {
	T := cfg.Horizon
	var cols [][]float64
	for k := 0; ; k++ {
		nz := &impulseNoise{k: k}
		cfg.Dim, cfg.Noise = 1, nz
		c, err := counter.New(cfg)
		if err != nil {
			panic(err)
		}
		col := make([]float64, T)
		zero := []float64{0}
		for t := range T {
			c.Add(zero)
			c.SumTo(col[t : t+1])
		}
		if k >= nz.j { // draw k was never made: all columns found
			break
		}
		cols = append(cols, col)
	}
	b := mat.NewDense(T, len(cols), nil)
	for k, col := range cols {
		b.SetCol(k, col)
	}
	return b
}

// pairWeights returns, for the releases of a counter with noise matrix B and
// N(0, σ²) draws, the record s (1-based) whose change 0 → 1 is the easiest
// to detect, the Neyman–Pearson weights w = (BBᵀ)⁻¹a_s (a_s the indicator of
// t ≥ s: every release from s on moves by 1) and the pair's exact Gaussian-DP
// parameter μ_s = √(a_sᵀ(BBᵀ)⁻¹a_s)/σ: the two release laws are
// N(0, σ²BBᵀ) and N(a_s, σ²BBᵀ), so the statistic wᵀy is N(0, μ_s²σ⁴…)-
// distributed with means μ_s² σ² apart — a Gaussian shift of μ_s standard
// deviations.
func pairWeights(b *mat.Dense, sigma float64) (s int, w []float64, mu float64) {
	return pairWeightsFrom(b, sigma, 1)
}

// pairWeightsFrom is [pairWeights] over the records first..T only (a
// counter whose first rounds hold no data).
func pairWeightsFrom(b *mat.Dense, sigma float64, first int) (s int, w []float64, mu float64) {
	T, _ := b.Dims()
	var bbt mat.SymDense
	bbt.SymOuterK(1, b)
	var ch mat.Cholesky
	if !ch.Factorize(&bbt) {
		panic("audit: the counter's release covariance is singular")
	}
	best := -1.0
	for cand := first; cand <= T; cand++ {
		a := mat.NewVecDense(T, nil)
		for t := cand; t <= T; t++ {
			a.SetVec(t-1, 1)
		}
		var x mat.VecDense
		if err := ch.SolveVecTo(&x, a); err != nil {
			panic(err)
		}
		if q := mat.Dot(a, &x); q > best {
			best, s = q, cand
			w = append(w[:0], x.RawVector().Data...)
		}
	}
	return s, w, math.Sqrt(best) / sigma
}

// gaussianCounter audits a continual counter of the noise issue with
// Gaussian node noise calibrated exactly ([accounting.GaussianSigma]: the
// analytic Gaussian mechanism, σ = √L2Sq/μ for (ε, δ) = (1, 0.01), μ =
// GDPMu(ε, δ), the record's ℓ2 sensitivity 1) over T = 16 rounds of values
// in [0, 1].
//
// Neighbours and test, exactly: the counter is linear, release =
// S + Bη with η ~ N(0, σ²I), so the releases of D = 0^T and D′ = e_s (record
// s changed by the full range 1) are N(0, σ²BBᵀ) and N(a_s, σ²BBᵀ). B is
// read off the code by running it on impulse noise ([noiseMatrix]); the
// audit takes the record s that maximises the pair's exact Gaussian-DP
// parameter μ_s (the worst case over records, and over data since only the
// difference matters and it is at most 1), and the Neyman–Pearson statistic
// wᵀy, w = (BBᵀ)⁻¹a_s. Its claim is tight when μ_s equals the calibrated μ
// (the tree counters: a record in m nodes); a μ_s above μ would be a
// calibration bug (the Note says which). Its control draws σ/√2 (σ/2 with
// short) under the same claim, pair and test.
//
// On secure noise (gaussian-counter-KIND-secure) the node noise is the exact
// discrete Gaussian the counter's grid wrapper runs (the square-root and BLT
// counters' Toeplitz measurements with the data bound B = 1 and the noise
// paying their slack): the same test, which sees the discrete law as well
// (its releases are the continuous model's to within the rounding, so the
// statistic is near-optimal and the bound valid whatever), and the control
// an under-noised discrete σ: the secure noise built for σ/√2 (σ/2 short).
func gaussianCounter(kind counter.Kind, mode noise.Mode) *Mechanism {
	return gaussianCounterShrink(kind, 1, mode)
}

// gaussianControlFactor returns the noise factor f of a calibrated Gaussian
// row's control (noise σ/f under the same claim) and, when it is not the
// plain one, a remark for the control's description.
//
// The plain factor is √2 (2 with short). The releases' exact Gaussian-DP
// parameter μ_s (the worst record's, [pairWeights]) can lie below the
// calibrated μ: the calibration charges every measurement a record enters
// (√Cost().L2Sq), and a counter whose releases do not show all of them (the
// smooth binary mechanism: μ_s/μ = 0.69 at T = 16 and at SS18's n = 64) is
// private on its releases with a smaller σ. If f·μ_s ≤ μ, σ/f is still
// (ε, δ)-DP on the releases for every pair of data fixed in advance: not a
// defect, and no test can catch it. The control is then σ/(f·μ/μ_s), the
// same factor f beyond the releases' own exact boundary (f·μ/μ_s = 2.06 for
// the smooth mechanism at √2): the smallest defect of this kind a test of
// the releases must catch.
func gaussianControlFactor(short bool, muPair, mu float64) (f float64, remark string) {
	f = math.Sqrt2
	if short {
		f = 2
	}
	if f*muPair > mu {
		return f, ""
	}
	g := f * mu / muPair
	return g, fmt.Sprintf(" (= %s × %.4g: the calibration is %.4g× loose on these releases, exact μ_s = %.4g < calibrated μ = %.4g, so σ/%.4g is still private under the claim)",
		fctr(f), mu/muPair, mu/muPair, muPair, mu, mu/muPair)
}

// secureControlFactor is the control factor of the secure counter rows: the
// plain factor f (√2, 2 with short) beyond the releases' own exact boundary
// whenever the releases show less than the calibration charges (μ_s < μ:
// the padded tree, whose padding every release carries, μ_s/μ = 0.76,
// Honaker's estimator 0.94 and the smooth mechanism 0.69), f·μ/μ_s, so that
// every control is the same
// distance from private whatever the counter. (The simulated rows scale
// only where f·μ_s ≤ μ, gaussianControlFactor: their padded tree's σ/√2
// control, √2·μ_s just above μ, is caught at 1.004 with 200,000 runs, and
// the secure rows run a quarter of them.)
func secureControlFactor(short bool, muPair, mu float64) (f float64, remark string) {
	f = math.Sqrt2
	if short {
		f = 2
	}
	if !(muPair < mu*(1-1e-9)) {
		return f, ""
	}
	g := f * mu / muPair
	return g, fmt.Sprintf(" (= %s × %.4g: the releases' exact μ_s = %.4g is below the calibrated μ = %.4g, and the control goes %s beyond the releases' own boundary)",
		fctr(f), mu/muPair, muPair, mu, fctr(f))
}

// looseNote is a row's note when the releases' exact μ_s lies so far below
// the calibrated μ that the control had to be scaled
// ([gaussianControlFactor]), else "".
func looseNote(muPair, mu float64) string {
	if math.Sqrt2*muPair > mu {
		return ""
	}
	return fmt.Sprintf("calibration %.3g× loose on the releases (exact μ_s = %.4g, calibrated μ = %.4g)", mu/muPair, muPair, mu)
}

// gaussianCounterShrink is [gaussianCounter] with the noise drawn at σ/shrink
// (shrink > 1: a control).
func gaussianCounterShrink(kind counter.Kind, shrink float64, mode noise.Mode) *Mechanism {
	probe, err := counter.New(counter.Config{Kind: kind, Dim: 1, Horizon: gaussT, Noise: noise.ZeroNoise{N: 1}})
	if err != nil {
		panic(err)
	}
	l2 := probe.Cost().L2Sq
	sigma, err := accounting.GaussianSigma(gaussEps, gaussDelta, math.Sqrt(l2))
	if err != nil {
		panic(err)
	}
	s, w, muPair := pairWeights(noiseMatrix(kind, gaussT), sigma)
	mu := accounting.GDPMu(gaussEps, gaussDelta)
	name := "gaussian-counter-" + kind.String()
	var bound counter.DataBound
	slack := 0.0
	if mode.Secure() {
		name += "-secure"
		if kind == counter.Sqrt || kind == counter.BLT {
			bound = counter.DataBound{Entry: 1} // the records are 0 and 1
			if slack, err = counter.ToeplitzSlack(kind, 1, gaussT, bound, noise.SecureGrid(sigma/shrink)); err != nil {
				panic(err)
			}
		}
	}
	m := &Mechanism{
		Name:      name,
		Mechanism: describe(fmt.Sprintf("%v counter, Gaussian noise calibrated exactly (σ = √L2Sq/μ, L2Sq = %.4g, σ = %.4g), T = 16, all releases", kind, l2, sigma), mode),
		Neighbours: fmt.Sprintf("D = 0^16, D′ = e_%d (the record with the largest exact μ_s = %.4f; calibrated μ = %.4f)",
			s, muPair, mu),
		Test:        "Neyman–Pearson: wᵀ(releases), w = (BBᵀ)⁻¹a_s from the counter's noise matrix B",
		Epsilon:     gaussEps,
		Delta:       gaussDelta,
		Trials:      200000,
		ShortTrials: 40000,
		New: func() func(*rand.Rand, int) float64 {
			z := make([]float64, 1)
			rel := make([]float64, 1)
			return func(rng *rand.Rand, which int) float64 {
				var nz noise.Noise
				var err error
				if mode.Secure() {
					nz, err = seeded(noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Secure, Sigmas: []float64{sigma / shrink}, Sensitivity: 1, Slack: slack}, nil))(mode, rng)
				} else {
					nz, err = noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Simulated, Dim: 1, Sigma: sigma / shrink}, rng)
				}
				if err != nil {
					panic(err)
				}
				c, err := counter.New(counter.Config{Kind: kind, Dim: 1, Horizon: gaussT, Noise: nz, Bound: bound})
				if err != nil {
					panic(err)
				}
				stat := 0.0
				for t := 1; t <= gaussT; t++ {
					z[0] = 0
					if t == s && which == 1 {
						z[0] = 1
					}
					c.Add(z)
					c.SumTo(rel)
					stat += w[t-1] * rel[0]
				}
				return roundScore(stat)
			}
		},
	}
	if shrink == 1 {
		m.Control = func(short bool) *Mechanism {
			f, loose := gaussianControlFactor(short, muPair, mu)
			if mode.Secure() {
				f, loose = secureControlFactor(short, muPair, mu)
			}
			c := gaussianCounterShrink(kind, f, mode)
			under := ""
			if mode.Secure() {
				under = " (the secure noise built for it: an under-noised discrete σ)"
			}
			c.Mechanism = fmt.Sprintf("control: the %v counter with σ/%s = %.4g%s%s", kind, fctr(f), sigma/f, under, loose)
			return c
		}
		m.Note = looseNote(muPair, mu)
	}
	if muPair > mu*(1+1e-9) {
		m.Note = fmt.Sprintf("the pair's exact μ_s = %.6g exceeds the calibrated μ = %.6g: calibration bug", muPair, mu)
	}
	return m
}
