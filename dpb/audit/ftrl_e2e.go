package audit

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/noise"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// The end-to-end DP-FTRL audits (AS17 Algorithm 1, [as17.FTRL]) with a
// negative control: the (ε, δ) variant on the experts problem with Gaussian
// node noise ([ftrlE2EGaussian]) and the pure-ε Laplace tree on the ball
// ([ftrlE2ELaplace]). Both audit what the learner shows, its predictions
// x_t, rounds 2 to T + 1 (x_{t+1} is computed from the release after round
// t), with the test that is optimal for them.
const (
	ftrlE2EGaussT     = 16
	ftrlE2EGaussEps   = 1.0
	ftrlE2EGaussDelta = 0.01
	ftrlE2ELapT       = 8
	ftrlE2ELapEps     = 1.0
	// ftrlE2ELapEta is the Laplace row's step η: small enough that
	// ‖η L̃_t/2‖ < 1 except with probability below 10⁻³⁰ (L̃_t is a sum of at
	// most 4 Lap(8) draws), so x_t = −η L̃_t/2 is never projected and
	// shows L̃_t. Privacy holds for every η (Theorem 3.1: x_t is
	// post-processing of L̃), so the audit may pick the η that shows the
	// most.
	ftrlE2ELapEta = 1e-3
)

// ftrlControlFactor is the control's noise factor: √2, or 2 with short.
func ftrlControlFactor(short bool) float64 {
	if short {
		return 2
	}
	return math.Sqrt2
}

// ftrlE2EGaussian audits DP-FTRL's (ε, δ) variant ([as17.FTRLGaussianSigma]:
// the plain binary tree, the variant's default counter, with Gaussian node
// noise N(0, σ²I) calibrated exactly) on the experts problem, N = 2,
// T = 16, (ε, δ) = (1, 0.01), through its predictions. With shrink > 1 the
// learner is built for the ε′ at which its σ is shrink times smaller (a
// control: noise σ/shrink under the claim (1, 0.01)); FTRLConfig refuses a
// σ below the calibrated one, so the control is built for ε′ =
// GDPEpsilon(shrink·μ, δ) instead.
//
// Neighbours. 𝒴 = [−1, 1]², so Δ₂ = max ‖l − l′‖₂ = 2√2 = 2‖𝒴‖₂, the
// sensitivity σ is calibrated for: losses all 0 except round s's, (1, −1)
// (D) or (−1, 1) (D′), s the round with the largest exact μ_s.
//
// Test (Neyman–Pearson). Hedge's prediction is x_{t+1} ∝ exp(−η L̃_t), so
// u_t = ln(x₁/x₂)/(−η) is the difference L̃_{t,1} − L̃_{t,2} of the released
// cumulative losses: u = ±2·a_s + B(η₁ − η₂), a_s the indicator of t ≥ s
// and B the counter's noise matrix ([noiseMatrix]), η₁ − η₂ i.i.d.
// N(0, 2σ²). The difference is the whole signal (the sum L̃₁ + L̃₂ does not
// depend on the pair), so nothing is lost: the log-likelihood ratio is
// increasing in −wᵀu, w = (BBᵀ)⁻¹a_s, a Gaussian shift of
// μ_s = 4√(a_sᵀ(BBᵀ)⁻¹a_s)/(√2σ) = Δ₂√(a_sᵀ(BBᵀ)⁻¹a_s)/σ standard
// deviations, equal to the calibrated μ for a record in all m nodes.
//
// On secure noise (as17-ftrl-e2e-gaussian-secure) the counter runs the exact
// discrete Gaussian (its grid wrapper); the test and the ε′ control are the
// same.
func ftrlE2EGaussian(shrink float64, mode noise.Mode) *Mechanism {
	const n, T, eps, delta = 2, ftrlE2EGaussT, ftrlE2EGaussEps, ftrlE2EGaussDelta
	kind := counter.Tree
	sigma, err := as17.FTRLGaussianSigma(as17.Simplex, n, T, eps, delta, kind)
	if err != nil {
		panic(err)
	}
	mu := accounting.GDPMu(eps, delta)
	built := eps
	if shrink != 1 {
		built = accounting.GDPEpsilon(shrink*mu, delta)
	}
	bsigma, err := as17.FTRLGaussianSigma(as17.Simplex, n, T, built, delta, kind)
	if err != nil {
		panic(err)
	}
	// u's noise is B(η₁ − η₂): per-draw standard deviation √2σ.
	s, w, q := pairWeights(noiseMatrix(kind, T), math.Sqrt2*sigma)
	muPair := 4 * q // q = √(aᵀ(BBᵀ)⁻¹a)/(√2σ); the shift is 4
	name := "as17-ftrl-e2e-gaussian"
	if mode.Secure() {
		name += "-secure"
	}
	m := &Mechanism{
		Name: name,
		Mechanism: describe(fmt.Sprintf("AS17 Alg. 1 DP-FTRL, (ε, δ) variant: experts (Hedge), N = 2, T = %d, plain tree, Gaussian node noise σ = %.4g; the predictions x_2 … x_%d",
			T, bsigma, T+1), mode),
		Neighbours: fmt.Sprintf("losses all 0 except round %d's, (1, −1) (D) or (−1, 1) (D′): ‖Δl‖₂ = 2√2 = 2‖𝒴‖₂ (the round with the largest exact μ_s = %.4f; calibrated μ = %.4f)",
			s, muPair, mu),
		Test:        "Neyman–Pearson: −wᵀu, u_t = ln(x₁/x₂)/(−η) the released loss differences, w = (BBᵀ)⁻¹a_s from the counter's noise matrix B",
		Epsilon:     eps,
		Delta:       delta,
		Trials:      200000,
		ShortTrials: 20000,
		New: func() func(*rand.Rand, int) float64 {
			zero, l, x := make([]float64, n), make([]float64, n), make([]float64, n)
			return func(rng *rand.Rand, which int) float64 {
				f, err := as17.NewFTRL(as17.FTRLConfig{Set: as17.Simplex, Dim: n, Horizon: T, Epsilon: built, Delta: delta, Counter: kind, Noise: mode}, rng)
				if err != nil {
					panic(err)
				}
				eta := f.Config().Eta
				l[0], l[1] = 1, -1
				if which == 1 {
					l[0], l[1] = -1, 1
				}
				stat := 0.0
				for t := 1; t <= T; t++ {
					loss := zero
					if t == s {
						loss = l
					}
					if err := f.Observe(loss); err != nil {
						panic(err)
					}
					f.Predict(x)
					u := (xmath.Log(x[0]) - xmath.Log(x[1])) / -eta
					stat -= float64(w[t-1] * u)
				}
				return roundScore(stat)
			}
		},
	}
	if shrink == 1 {
		m.Control = func(short bool) *Mechanism {
			f := ftrlControlFactor(short)
			c := ftrlE2EGaussian(f, mode)
			c.Mechanism = fmt.Sprintf("control: DP-FTRL built for ε′ = %.4g at δ = %g, node noise σ/%s = %.4g, under the claim (1, 0.01)",
				accounting.GDPEpsilon(f*mu, delta), delta, fctr(f), sigma/f)
			return c
		}
		if muPair > mu*(1+1e-9) {
			m.Note = fmt.Sprintf("the pair's exact μ_s = %.6g exceeds the calibrated μ = %.6g: calibration bug", muPair, mu)
		}
	}
	return m
}

// ftrlE2ELaplace audits pure-ε DP-FTRL (AS17's Laplace TreeBasedAgg,
// λ = [as17.FTRLLambda] = 2‖𝒴‖₁m/ε, here 8) on the ball in dimension
// N = 1, T = 8, ε = 1, in the plain tree (the padded tree's releases add
// data-independent padding draws to the plain ones: a post-processing, so
// plain is the worst case), through its predictions. With shrink > 1 the
// node scale is λ/shrink (a control under the same claim).
//
// Neighbours: 𝒴 = [−1, 1], losses all 0 except round 1's, 1 (D) or −1
// (D′): ‖Δl‖₁ = 2 = 2‖𝒴‖₁, the sensitivity λ is calibrated for; round 1 is
// leaf 1, in all m = 4 nodes [1,1], [1,2], [1,4], [1,8], which the plain
// tree releases alone at t = 1, 2, 4, 8.
//
// Test (exact log-likelihood ratio). With step η = [ftrlE2ELapEta] the
// prediction x_{t+1} = −η L̃_t/2 is never projected, so L̃_t = −2x_{t+1}/η;
// at t = 1, 2, 4, 8 it is the node, ±1 + Lap(λ), and every other release is
// these nodes plus nodes that do not depend on the pair. The log-likelihood
// ratio of D′ to D is Σ_j (|z_j − 1| − |z_j + 1|)/λ over the four nodes,
// at most 8/λ = ε; it reaches ε when every z_j ≤ −1 (probability 1/16
// under D′), so the claim is tight for this view.
//
// On secure noise (as17-ftrl-e2e-laplace-secure) the nodes are exact
// discrete Laplace draws; the statistic keeps λ (the claim's ratio), and the
// control is the secure sampler built for λ/√2: an under-noised discrete
// scale.
func ftrlE2ELaplace(shrink float64, mode noise.Mode) *Mechanism {
	const n, T, eps = 1, ftrlE2ELapT, ftrlE2ELapEps
	lambda := as17.FTRLLambda(as17.Ball, n, T, eps)
	name := "as17-ftrl-e2e-laplace"
	if mode.Secure() {
		name += "-secure"
	}
	m := &Mechanism{
		Name: name,
		Mechanism: describe(fmt.Sprintf("AS17 Alg. 1 DP-FTRL, Laplace tree (λ = %g, plain), ball, N = 1, T = %d, η = %g; the predictions x_2 … x_%d",
			lambda/shrink, T, ftrlE2ELapEta, T+1), mode),
		Neighbours:  "losses all 0 except round 1's, 1 (D) or −1 (D′): ‖Δl‖₁ = 2 = 2‖𝒴‖₁; round 1 is in all m = 4 nodes",
		Test:        "exact log-likelihood ratio Σ (|z − 1| − |z + 1|)/λ of the nodes z = L̃_t = −2x_{t+1}/η at t = 1, 2, 4, 8",
		Epsilon:     eps,
		Trials:      400000,
		ShortTrials: 20000,
		New: func() func(*rand.Rand, int) float64 {
			zero, l, x := make([]float64, n), make([]float64, n), make([]float64, n)
			return func(rng *rand.Rand, which int) float64 {
				f, err := as17.NewFTRL(as17.FTRLConfig{Set: as17.Ball, Dim: n, Horizon: T, Epsilon: eps, Eta: ftrlE2ELapEta,
					Lambda: lambda / shrink, Plain: true, Noise: mode}, rng)
				if err != nil {
					panic(err)
				}
				l[0] = 1
				if which == 1 {
					l[0] = -1
				}
				llr := 0.0
				for t := 1; t <= T; t++ {
					loss := zero
					if t == 1 {
						loss = l
					}
					if err := f.Observe(loss); err != nil {
						panic(err)
					}
					if t&(t-1) == 0 { // t = 1, 2, 4, 8
						f.Predict(x)
						z := -2 * x[0] / ftrlE2ELapEta
						llr += (math.Abs(z-1) - math.Abs(z+1)) / lambda
					}
				}
				return roundScore(llr)
			}
		},
	}
	if shrink == 1 {
		m.Control = func(short bool) *Mechanism {
			f := ftrlControlFactor(short)
			c := ftrlE2ELaplace(f, mode)
			c.Mechanism = fmt.Sprintf("control: DP-FTRL with node scale λ/%s = %.4g under the claim ε = 1", fctr(f), lambda/f)
			return c
		}
	}
	return m
}
