package check

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// The secure samplers of dpb/noise (issue 51): exact discrete Laplace and
// discrete Gaussian noise on a grid (Canonne, Kamath & Steinke, "The
// Discrete Gaussian for Differential Privacy", NeurIPS 2020, Algorithms
// 1–3), built through their public constructors and measured against the
// laws their constructors document, with every scale computed here from the
// constructor's inputs, never read from the object:
//
//	grid       g = 2^(⌊log₂ s⌋ − 20), s the Laplace scale or the smallest σ;
//	Laplace    τ = ⌈scale·(1 + dim·g/sens)/g⌉ grid steps, P(k) ∝ e^{−|k|/τ};
//	Gaussian   σ′_i = ⌈σ_i·f/g⌉, f = 1 + g√dim·(max σ/min σ)/sens,
//	           P(k) ∝ e^{−k²/(2σ′_i²)};
//	symmetric  σ off the diagonal and √2σ on it (packed n×n), as Gaussian.
//
// The exact laws. Discrete Laplace with q = e^{−1/τ}: P(k) = (1−q)/(1+q)·q^{|k|},
// CDF F(k) = q^{−k}/(1+q) for k < 0 and 1 − q^{k+1}/(1+q) for k ≥ 0,
// variance 2q/(1−q)² (closed forms of the geometric sums). Discrete Gaussian:
// the normalising constant Σ_k e^{−k²/(2σ²)} is √(2π)σ·Σ_n e^{−2π²σ²n²}
// (Poisson summation), and the second moment's sum likewise σ² times it up
// to terms (1 − 4π²σ²n²)e^{−2π²σ²n²}: at σ ≥ 2²⁰ grid steps (always, by the
// grid's choice) both equal √(2π)σ and σ² in float64 exactly. Its CDF is
// Σ_{j≤k} P(j) = Φ((k + ½)/σ) up to the midpoint rule's error, at most
// (1/24)∫|f″| = e^{−1/2}/(6σ)/(√(2π)σ) < 10⁻¹³: far below what 10⁵ draws
// resolve.
//
// Rows (each a false-failure probability of 10⁻⁵, split among its tests):
//
//   - "secure-laplace-scale", "secure-gauss-scale",
//     "secure-symgauss-diag-scale", "secure-symgauss-offdiag-scale": the mean
//     square of the draws (in grid steps of the check's g; a draw off that
//     grid fails the row) over the exact variance, two-sided, relative
//     standard error √((κ−1)/N), κ the kurtosis (6 for the Laplace, 3 for the
//     Gaussian, to 10⁻⁶ at these scales). Control: the sampler built through
//     the same constructor at ×0.97 the scale (σ ×0.97), its draws against
//     the same reference — an under-noise by 3 %.
//   - "secure-laplace-law", "secure-gauss-law", "secure-symgauss-law": the
//     randomised probability integral transform u = F(k−1) + V·P(k), V
//     uniform from the check's stream, is exactly U(0, 1) for a draw k of the
//     law F, discrete or not; Kolmogorov–Smirnov of the u against U(0, 1)
//     within the DKW bound at 10⁻⁵. Control: the same draws mapped to a law
//     of the same variance and the other shape (Laplace draws to a normal,
//     Gaussian ones to a Laplace) by the continuous quantile transform.
//
// The draws' bits come from the check's seeded stream
// ([noise.SecureNoise.SetEntropy]): the law is the same as with crypto/rand
// (the samplers turn any uniform bits into exact draws), and the row
// reproduces from its seed. These rows are the one place the checks run the
// secure samplers; everything else runs [Noise].
const (
	// secureLaplaceDraws is the number of discrete Laplace draws behind the
	// Laplace rows: the variance row fails beyond 4.42·√(5/N) = 2.6 %, and
	// the ×0.97 control sits at −5.9 % (5.8 of its standard errors beyond).
	secureLaplaceDraws = 150_000
	// secureGaussDraws is the number of draws per class (entry, diagonal or
	// off-diagonal) behind a Gaussian variance row: 60,000 put the threshold
	// at 4.4–4.6·√(2/N) = 2.5–2.7 % and the control at −5.9 %.
	secureGaussDraws = 60_000
)

// secureDefect is the under-noising of the scale rows' controls.
const secureDefect = 0.97

// secureGrid returns the check's own grid for smallest scale s:
// g = 2^(⌊log₂ s⌋ − 20).
func secureGrid(s float64) float64 {
	return math.Ldexp(1, int(math.Floor(math.Log2(s)))-20)
}

// discreteLaplaceLaw is the discrete Laplace law with scale tau (grid
// steps).
type discreteLaplaceLaw struct{ tau, q float64 }

func newDiscreteLaplaceLaw(tau float64) discreteLaplaceLaw {
	return discreteLaplaceLaw{tau: tau, q: math.Exp(-1 / tau)}
}

// cdf returns P(K ≤ k).
func (l discreteLaplaceLaw) cdf(k float64) float64 {
	if k < 0 {
		return math.Exp(k/l.tau) / (1 + l.q)
	}
	return 1 - math.Exp(-(k+1)/l.tau)/(1+l.q)
}

// pmfUnnorm returns e^{−|k|/τ} (for the tests' summation).
func (l discreteLaplaceLaw) pmfUnnorm(k float64) float64 { return math.Exp(-math.Abs(k) / l.tau) }

// variance returns 2q/(1−q)².
func (l discreteLaplaceLaw) variance() float64 {
	omq := -math.Expm1(-1 / l.tau) // 1 − q without cancellation
	return 2 * l.q / float64(omq*omq)
}

// discreteGaussCDF returns P(K ≤ k) of the discrete Gaussian with σ = s grid
// steps (s ≥ 2²⁰): Φ((k + ½)/s), see the package comment above.
func discreteGaussCDF(k, s float64) float64 { return stdNormalCDF((k + 0.5) / s) }

// secureClass is one class of entries of a secure sampler's draws: the
// entries' indices and the check's reference law for them.
type secureClass struct {
	name    string
	entries []int
	sd      float64            // reference standard deviation in grid steps
	lap     bool               // discrete Laplace (law) rather than discrete Gaussian (σ = sd)
	law     discreteLaplaceLaw // the Laplace law, when lap
}

// cdf returns the class's CDF at integer k.
func (c secureClass) cdf(k float64) float64 {
	if c.lap {
		return c.law.cdf(k)
	}
	return discreteGaussCDF(k, c.sd)
}

// drawSecure draws n per-class values (in steps of g) from nz: offGrid counts
// draws that are not integer multiples of g.
func drawSecure(nz *noise.SecureNoise, classes []secureClass, g float64, n int) (draws [][]float64, offGrid int) {
	draws = make([][]float64, len(classes))
	buf := make([]float64, nz.Dim())
	short := func() bool {
		for _, d := range draws {
			if len(d) < n {
				return true
			}
		}
		return false
	}
	for short() {
		nz.Sample(buf)
		for c, cl := range classes {
			for _, i := range cl.entries {
				k := buf[i] / g
				if k != math.Round(k) {
					offGrid++
				}
				draws[c] = append(draws[c], k)
			}
		}
	}
	for c := range draws {
		draws[c] = draws[c][:n]
	}
	return draws, offGrid
}

// secureScaleRow is the variance row of one or more classes: ratios of the
// built sampler's mean square to the reference variance, and the same for
// the control sampler (built at ×0.97 the scale).
func secureScaleRow(name, claim, ref string, classes []secureClass, draws, ctl [][]float64, kurt float64, offGrid int, note string) Verdict {
	ratios, cr, tols := make([]float64, len(classes)), make([]float64, len(classes)), make([]float64, len(classes))
	z := zTwoSided(PassPValue / float64(len(classes)))
	parts := note
	for c, cl := range classes {
		ms := func(xs []float64) float64 {
			var s float64
			for _, x := range xs {
				s += float64(x * x)
			}
			return s / float64(len(xs))
		}
		v := cl.sd * cl.sd
		if cl.lap {
			v = cl.law.variance()
		}
		ratios[c], cr[c] = ms(draws[c])/v, ms(ctl[c])/v
		tols[c] = z * math.Sqrt((kurt-1)/float64(len(draws[c])))
		if parts != "" {
			parts += "; "
		}
		parts += fmt.Sprintf("%s: %d draws, variance / exact %.5f (control %.5f), fails beyond ±%.3g", cl.name, len(draws[c]), ratios[c], cr[c], tols[c])
	}
	v := varianceRow(name, claim, ref, ratios, cr, tols, "the sampler built through the same constructor at ×0.97 the scale", parts+fmt.Sprintf("; two-sided, 1e-5 over the %d class(es); %d draws off the check's grid", len(classes), offGrid))
	if offGrid > 0 && v.Pass {
		v.Pass, v.Failures, v.PValue = false, 1, 0
		v.Note += "; FAILED: draws off the grid"
	}
	return v
}

// secureLawRow is the randomised-PIT Kolmogorov–Smirnov row over all classes.
func secureLawRow(rng *rand.Rand, name, claim, ref string, classes []secureClass, draws [][]float64) Verdict {
	var u, cu []float64
	for c, cl := range classes {
		for _, k := range draws[c] {
			lo, hi := cl.cdf(k-1), cl.cdf(k)
			u = append(u, lo+float64(rng.Float64()*(hi-lo)))
			// The control: the same draw through the continuous quantile
			// transform to the other shape at the same variance, under
			// the claimed law.
			w := u[len(u)-1]
			if cl.lap {
				x := cl.sd * stdNormalQuantile(w)
				cu = append(cu, cl.cdf(math.Round(x)))
			} else {
				x := laplaceQuantile(w, cl.sd/math.Sqrt2)
				cu = append(cu, cl.cdf(math.Round(x)))
			}
		}
	}
	ks, cks := ksUniform(u), ksUniform(cu)
	ksMax := ksThreshold(len(u))
	return ksRow(name, claim, ref, ks, cks, ksMax, "the same draws mapped to the other shape (normal ↔ Laplace) at the same variance",
		fmt.Sprintf("%d draws: KS distance of the randomised PIT to U(0, 1) %.3g, fails beyond %.3g (DKW, 1e-5)", len(u), ks, ksMax))
}

// stdNormalQuantile returns Φ⁻¹(p).
func stdNormalQuantile(p float64) float64 { return -math.Sqrt2 * math.Erfcinv(2*p) }

// laplaceQuantile returns the p-quantile of Lap(b).
func laplaceQuantile(p, b float64) float64 {
	if p < 0.5 {
		return b * math.Log(2*p)
	}
	return -b * math.Log(2*(1-p))
}

// SecureSamplers measures dpb/noise's secure samplers (rows, laws and
// sizes: the comment at the top of this file): the discrete Laplace of
// [noise.New] with LaplaceLaw (dim 3, scale 2.6, ℓ1 sensitivity 1.7), the
// discrete Gaussian of GaussianLaw (σ = 1.3 and 2.9, ℓ2 sensitivity 1.1) and
// the symmetric one of SymGaussianLaw (3×3, σ = 1.7, sensitivity √2·L̃² at
// L̃² = 2, SS18's), each against the law its constructor documents with the
// scale computed here. The configs leave Mode unset, which is the secure
// sampler (the law measured here); its bits come from rng (SetEntropy).
func SecureSamplers(rng *rand.Rand) (Verdicts, error) {
	entropy := noise.RandReader{R: rng}
	var vs Verdicts
	ref := "CKS20 (NeurIPS 2020) Algorithms 1–3 and dpb/noise's documented calibration (the built secure sampler; scale computed by the check)"

	// Discrete Laplace.
	const ldim, lscale, lsens = 3, 2.6, 1.7
	build := func(f float64) (*noise.SecureNoise, error) {
		sAny, err := noise.New(noise.Config{Law: noise.LaplaceLaw, Dim: ldim, Scale: f * lscale, Sensitivity: lsens}, nil)
		s, _ := sAny.(*noise.SecureNoise) // nil on error
		if err == nil {
			s.SetEntropy(entropy)
		}
		return s, err
	}
	g := secureGrid(lscale)
	tau := math.Ceil(lscale * (1 + float64(float64(ldim)*g/lsens)) / g)
	law := newDiscreteLaplaceLaw(tau)
	lc := []secureClass{{name: "entries", entries: []int{0, 1, 2}, sd: math.Sqrt(law.variance()), lap: true, law: law}}
	nz, err := build(1)
	if err != nil {
		return nil, err
	}
	cz, err := build(secureDefect)
	if err != nil {
		return nil, err
	}
	d, off := drawSecure(nz, lc, g, secureLaplaceDraws)
	cd, _ := drawSecure(cz, lc, g, secureLaplaceDraws)
	claim := fmt.Sprintf("measured on the built object: noise.NewSecureLaplaceNoise(dim %d, scale %g, sens %g) draws g·k, g = 2^%d, k discrete Laplace with τ = ⌈scale(1 + dim·g/sens)/g⌉ = %.0f steps (computed by the check)", ldim, lscale, lsens, int(math.Log2(g)), tau)
	vs = append(vs, secureScaleRow("secure-laplace-scale", claim+", variance 2q/(1−q)², q = e^{−1/τ}", ref, lc, d, cd, 6, off, fmt.Sprintf("scale τg = %.6g", tau*g)))
	vs = append(vs, secureLawRow(rng, "secure-laplace-law", claim+": its law, exactly (Kolmogorov–Smirnov)", ref, lc, d))

	// Discrete Gaussian.
	sig := []float64{1.3, 2.9}
	const gsens = 1.1
	gb := func(f float64) (*noise.SecureNoise, error) {
		sAny, err := noise.New(noise.Config{Law: noise.GaussianLaw, Sigmas: []float64{f * sig[0], f * sig[1]}, Sensitivity: gsens}, nil)
		s, _ := sAny.(*noise.SecureNoise) // nil on error
		if err == nil {
			s.SetEntropy(entropy)
		}
		return s, err
	}
	g = secureGrid(sig[0])
	fg := 1 + float64(g*math.Sqrt(2)*(sig[1]/sig[0])/gsens)
	gc := make([]secureClass, 2)
	for i, s := range sig {
		gc[i] = secureClass{name: fmt.Sprintf("entry %d (σ = %g)", i, s), entries: []int{i}, sd: math.Ceil(s * fg / g)}
	}
	if nz, err = gb(1); err != nil {
		return nil, err
	}
	if cz, err = gb(secureDefect); err != nil {
		return nil, err
	}
	d, off = drawSecure(nz, gc, g, secureGaussDraws)
	cd, _ = drawSecure(cz, gc, g, secureGaussDraws)
	claim = fmt.Sprintf("measured on the built object: noise.NewSecureGaussianNoise(σ = %v, sens %g) draws g·k, g = 2^%d, k discrete Gaussian with σ′_i = ⌈σ_i f/g⌉ = %.0f, %.0f steps, f = 1 + g√dim(max σ/min σ)/sens (computed by the check)", sig, gsens, int(math.Log2(g)), gc[0].sd, gc[1].sd)
	vs = append(vs, secureScaleRow("secure-gauss-scale", claim+", variance σ′_i²", ref, gc, d, cd, 3, off, ""))
	vs = append(vs, secureLawRow(rng, "secure-gauss-law", claim+": its law, exactly (Kolmogorov–Smirnov)", ref, gc, d))

	// Symmetric discrete Gaussian (SS18's node noise on secure mode).
	const n, ssig = 3, 1.7
	ssens := math.Sqrt2 * 2
	sb := func(f float64) (*noise.SecureNoise, error) {
		sAny, err := noise.New(noise.Config{Law: noise.SymGaussianLaw, N: n, Sigma: f * ssig, Sensitivity: ssens}, nil)
		s, _ := sAny.(*noise.SecureNoise) // nil on error
		if err == nil {
			s.SetEntropy(entropy)
		}
		return s, err
	}
	g = secureGrid(ssig)
	p := simd.PackedLen(n)
	fs := 1 + float64(g*math.Sqrt(float64(p))*math.Sqrt2/ssens)
	sc := []secureClass{{name: "diagonal", sd: math.Ceil(math.Sqrt2 * ssig * fs / g)}, {name: "off-diagonal", sd: math.Ceil(ssig * fs / g)}}
	for i := range n {
		for j := i; j < n; j++ {
			c := 1
			if i == j {
				c = 0
			}
			sc[c].entries = append(sc[c].entries, simd.PackedIndex(n, i, j))
		}
	}
	if nz, err = sb(1); err != nil {
		return nil, err
	}
	if cz, err = sb(secureDefect); err != nil {
		return nil, err
	}
	d, off = drawSecure(nz, sc, g, secureGaussDraws)
	cd, _ = drawSecure(cz, sc, g, secureGaussDraws)
	claim = fmt.Sprintf("measured on the built object: noise.NewSecureSymGaussianNoise(n %d, σ %g, sens √2·2) draws g·k, g = 2^%d, k discrete Gaussian with σ′ = ⌈√2σf/g⌉ = %.0f steps on the diagonal and ⌈σf/g⌉ = %.0f off it, f = 1 + g√(n(n+1)/2)·√2/sens (computed by the check)", n, ssig, int(math.Log2(g)), sc[0].sd, sc[1].sd)
	for c, cls := range []string{"diag", "offdiag"} {
		vs = append(vs, secureScaleRow("secure-symgauss-"+cls+"-scale", claim+": the "+sc[c].name+" entries' variance", ref, sc[c:c+1], d[c:c+1], cd[c:c+1], 3, off, ""))
	}
	vs = append(vs, secureLawRow(rng, "secure-symgauss-law", claim+": its law, exactly (Kolmogorov–Smirnov)", ref, sc, d))
	return vs, nil
}
