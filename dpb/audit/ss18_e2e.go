package audit

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// e2eSetting is the setting of the end-to-end SS18 audits: d = 5 (the
// figures' dimension), n = 64 users, (ε, δ) = (1, 0.1) (SS18 Figure 4's
// privacy, the figures' too), L̃² = 1. The figures' L̃² = 2 scales data and
// noise alike (σ and the Wishart scale are proportional to L̃²), so the
// pair's privacy loss does not depend on it.
var e2eSetting = ss18.Setting{D: 5, N: 64, Epsilon: 1, Delta: 0.1, Lt2: 1}

// E2EAlgs lists the SS18 variants audited end to end: every regularizer
// whose noise is calibrated exactly (the beyond-ss18 figure's).
var E2EAlgs = []ss18.Alg{ss18.GaussianExact, ss18.GaussianHonaker, ss18.GaussianSmooth,
	ss18.GaussianBLT, ss18.GaussianBLTSharp, ss18.GaussianBLTRound, ss18.WishartTight}

// e2eName returns the audit name of a variant (ss18-e2e-gaussian-blt-sharp).
func e2eName(alg ss18.Alg) string {
	names := map[ss18.Alg]string{ss18.GaussianExact: "gaussian-exact", ss18.GaussianHonaker: "gaussian-honaker",
		ss18.GaussianSmooth: "gaussian-smooth", ss18.GaussianBLT: "gaussian-blt", ss18.GaussianBLTSharp: "gaussian-blt-sharp",
		ss18.GaussianBLTRound: "gaussian-blt-round", ss18.WishartTight: "wishart-tight"}
	n, ok := names[alg]
	if !ok {
		panic("audit: no end-to-end audit of " + alg.String())
	}
	return "ss18-e2e-" + n
}

// e2eNeighbours is the pair of every end-to-end SS18 audit (s the user).
//
// A user's data enters the packed Gram matrix vvᵀ, v = (x, y), ‖v‖² ≤ L̃²,
// and ‖vvᵀ − v′v′ᵀ‖_F² = 2 − 2(v·v′)² (L̃² = 1) is largest, 2, for
// orthogonal unit vectors; the other users' data is fixed, so only the
// difference matters and zero loses nothing. The calibrations assume this
// sensitivity (ss18.GaussianCounterCal, Theorem 8 for Wishart).
func e2eNeighbours(s int) string {
	return fmt.Sprintf("users ≠ %d send (x, y) = 0; user %d sends x = e₁ (D) or x = e₂ (D′), y = 0: ‖Δ(vvᵀ)‖_F = √2·L̃², the largest", s, s)
}

// e2eAudit returns the end-to-end audit of one calibrated SS18 variant: the
// regularizer a LinUCB policy of that variant builds ([ss18.NewPolicy], the
// beyond-ss18 figure's padded release mode; plain for the Wishart, see
// [wishartE2E]) run on all n users, the output audited being every released
// V_t, rounds 1 to n, including round 1's pure-noise release: the whole of
// what the policy computes its decisions from (ũ_t does not depend on the
// pair). Its control is the same variant calibrated for L̃²/√2 (L̃²/2
// with short) and fed the same data: its noise is √2 (2) times too small, a
// wrong L̃ factor (further scaled where the calibration is loose on these
// releases: [gaussianControlFactor]); for the Wishart, k halved (quartered
// with short).
//
// On secure noise (the Gaussian variants' ss18-e2e-…-secure rows: the
// Wishart has no secure sampler) the regularizer runs the exact discrete
// Gaussian of its counter's grid wrapper or Toeplitz measurements, the test
// is the same (it sees the discrete law to within the rounding), and the
// control is the variant built for the ε′ at which its σ is √2 (2 with
// short; further scaled as above) times smaller, at the same L̃²: a
// regularizer built for L̃²/√2 would clip (square root, BLT) or round away
// the data of norm L̃ the pair sends, undoing the defect.
func e2eAudit(alg ss18.Alg, mode noise.Mode) *Mechanism {
	if alg == ss18.WishartTight {
		return wishartE2E(e2eSetting, 0, 1)
	}
	return gaussianE2E(alg, e2eSetting, 1, mode)
}

// gaussianE2E audits an exactly calibrated Gaussian SS18 variant, its
// regularizer built for s.Lt2 / shrink (shrink > 1: a control with noise
// shrink times too small) and fed data of norm e2eSetting.Lt2.
//
// Test (Neyman–Pearson). The regularizer releases its counter's sums of the
// packed outer products plus symmetrised Gaussian noise, B η per entry, the
// diagonal entries' draws i.i.d. N(0, 2σ²) and independent of every other
// entry, plus a shift of the identity that is the same for every diagonal
// entry (it may change with the round: GaussianBLTRound). So V₁₁ and V₂₂
// over the rounds are independent N(a_s, 2σ²BBᵀ) and N(0, 2σ²BBᵀ) under D
// and swapped under D′ (a_s the indicator of the counter rounds that
// contain user s, after the data-independent zero item), and the
// log-likelihood ratio is increasing in wᵀ(V₂₂ − V₁₁), w = (BBᵀ)⁻¹a_s: a
// Gaussian shift of μ_s = √(a_sᵀ(BBᵀ)⁻¹a_s)·L̃²/σ standard deviations, the
// pair's exact Gaussian-DP parameter. B is read off the counter by impulse
// noise ([noiseMatrix]) and s is the user with the largest μ_s. The shift
// cancels in V₂₂ − V₁₁. The statistic is exact only if the regularizer
// releases what this model says; if it does not, the test is merely
// suboptimal and the bound still valid.
func gaussianE2E(alg ss18.Alg, s ss18.Setting, shrink float64, mode noise.Mode) *Mechanism {
	return gaussianE2EPair(alg, s, shrink, false, mode)
}

// e2eOffDiagNeighbours is the pair of the off-diagonal SS18 audit (s the
// user): v = √L̃²(e₁ + e₂)/√2 against √L̃²(e₁ − e₂)/√2, orthogonal unit
// vectors too (‖Δ(vvᵀ)‖_F = √2·L̃², the largest), whose outer products
// differ only off the diagonal: Δ = L̃²(e₁e₂ᵀ + e₂e₁ᵀ).
func e2eOffDiagNeighbours(s int) string {
	return fmt.Sprintf("users ≠ %d send (x, y) = 0; user %d sends x = √L̃²(e₁+e₂)/√2 (D) or √L̃²(e₁−e₂)/√2 (D′), y = 0: ‖Δ(vvᵀ)‖_F = √2·L̃², all of it off the diagonal (V₁₂ moves by ±L̃²/2)", s, s)
}

// gaussianE2EOffDiag is the end-to-end audit of alg on the off-diagonal
// pair (e2eOffDiagNeighbours), beside the diagonal one of gaussianE2E: a
// defect in the off-diagonal noise alone is invisible to the pair e₁
// against e₂, which moves only V₁₁ and V₂₂. The off-diagonal entries' draws
// are N(0, σ²), independent of the diagonal's, and V₁₂ moves by +L̃²/2 a_s
// (D) or −L̃²/2 a_s (D′): a shift of L̃²a_s against noise σ²BBᵀ, the same
// exact μ_s as the diagonal pair (2L̃²a_s against 4σ²BBᵀ). Test:
// Neyman–Pearson, −wᵀV₁₂.
func gaussianE2EOffDiag(alg ss18.Alg, mode noise.Mode) *Mechanism {
	return gaussianE2EPair(alg, e2eSetting, 1, true, mode)
}

// gaussianE2EPair is gaussianE2E on the diagonal pair, or on the
// off-diagonal one (offDiag).
func gaussianE2EPair(alg ss18.Alg, s ss18.Setting, shrink float64, offDiag bool, mode noise.Mode) *Mechanism {
	kind, ok := alg.GaussianCounter(counter.Padded)
	if !ok {
		panic("audit: not an exactly calibrated Gaussian variant")
	}
	calibrate := ss18.GaussianCounterCalibration
	if alg == ss18.GaussianBLTSharp {
		calibrate = ss18.GaussianCounterCalibrationSharp
	}
	cal, err := calibrate(s, kind)
	if err != nil {
		panic(err)
	}
	built := s
	name, neighbours, test := e2eName(alg), "", "Neyman–Pearson: wᵀ(V₂₂ − V₁₁) over the n releases, w = (BBᵀ)⁻¹a_s from the counter's noise matrix B"
	if offDiag {
		name, test = name+"-offdiag", "Neyman–Pearson: −wᵀV₁₂ over the n releases, w = (BBᵀ)⁻¹a_s from the counter's noise matrix B"
	}
	if mode.Secure() {
		name += "-secure"
		if shrink != 1 { // the control: built for ε′, σ/shrink, the same L̃²
			built.Epsilon = accounting.GDPEpsilon(shrink*cal.Mu, s.Delta)
		}
	} else {
		built.Lt2 = s.Lt2 / shrink
	}
	bcal, err := calibrate(built, kind)
	if err != nil {
		panic(err)
	}
	// Counter rounds 1..n: round 1 is the zero item, user u is round u+1.
	user, w, mu := pairWeightsFrom(noiseMatrix(kind, s.N), cal.Sigma, 2)
	user-- // counter round → user
	neighbours = e2eNeighbours(user)
	if offDiag {
		neighbours = e2eOffDiagNeighbours(user)
	}
	m := &Mechanism{
		Name: name,
		Mechanism: describe(fmt.Sprintf("SS18 %v regularizer (%v counter, padded release, σ = %.4g), d = %d, n = %d, every released V_t",
			alg, kind, bcal.Sigma, s.D, s.N), mode),
		Neighbours:  neighbours + fmt.Sprintf(" (the user with the largest exact μ_s = %.4f; calibrated μ = %.4f)", mu, cal.Mu),
		Test:        test,
		Epsilon:     s.Epsilon,
		Delta:       s.Delta,
		Trials:      100000,
		ShortTrials: 4000,
		New: func() func(*rand.Rand, int) float64 {
			d := s.D
			v, u, x := make([]float64, d*d), make([]float64, d), make([]float64, d)
			return func(rng *rand.Rand, which int) float64 {
				p, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: alg, Setting: built, Mode: counter.Padded, Noise: mode}, rng)
				if err != nil {
					panic(err)
				}
				reg := p.Regularizer()
				stat := 0.0
				for t := 1; t <= s.N; t++ {
					// Release t: counter round t, after users 1..t−1.
					reg.StatsTo(v, u)
					if offDiag {
						stat -= float64(w[t-1] * v[1])
					} else {
						stat += float64(w[t-1] * (v[d+1] - v[0]))
					}
					clear(x)
					if t == user {
						if offDiag { // (e₁ ± e₂)/√2, scaled to ‖x‖² = L̃²
							x[0], x[1] = math.Sqrt(s.Lt2/2), math.Sqrt(s.Lt2/2)
							if which == 1 {
								x[1] = -x[1]
							}
						} else {
							x[which] = math.Sqrt(s.Lt2) // e₁ (D) or e₂ (D′), scaled to ‖x‖² = L̃²
						}
					}
					reg.Add(x, 0)
				}
				return roundScore(stat)
			}
		},
	}
	if shrink == 1 {
		m.Control = func(short bool) *Mechanism {
			f, loose := gaussianControlFactor(short, mu, cal.Mu)
			c := gaussianE2EPair(alg, s, f, offDiag, mode)
			c.Mechanism = fmt.Sprintf("control: %s built for L̃²/%s (σ/%s) on data of norm L̃%s", alg, fctr(f), fctr(f), loose)
			if mode.Secure() {
				c.Mechanism = fmt.Sprintf("control: %s built for ε′ = %.4g at δ = %g (σ/%s, the same L̃²), secure sampler%s",
					alg, accounting.GDPEpsilon(f*cal.Mu, s.Delta), s.Delta, fctr(f), loose)
			}
			return c
		}
		m.Note = looseNote(mu, cal.Mu)
		if mu > cal.Mu*(1+1e-9) {
			m.Note = fmt.Sprintf("the pair's exact μ_s = %.6g exceeds the calibrated μ = %.6g: calibration bug", mu, cal.Mu)
		}
	}
	return m
}

// fctr prints a control's factor: √2, 2, or another factor to 4 digits.
func fctr(f float64) string {
	if f == math.Sqrt2 {
		return "√2"
	}
	if f != math.Trunc(f) {
		return fmt.Sprintf("%.4g", f)
	}
	return fmt.Sprintf("%g", f)
}

// wishartE2E audits SS18's Wishart tree at the tight k
// ([ss18.Setting.WishartKTight], the WishartTight variant), or at k when
// k > 0 (a control), on all n users, in plain release mode: the padded
// release adds to the plain one data-independent padding draws independent
// of the node noise, so it is a post-processing of the plain release, and
// plain is the worst case.
//
// Test (exact log-likelihood ratio). User 1's data is leaf 2 (after the
// zero item), in the nodes [1,2], [1,4], …, [1,64], each released alone at
// the rounds 2ʲ (plain tree); every other node is independent of the pair,
// and each other release is a sum of these nodes and of nodes without user
// 1, so the likelihood ratio of the whole release sequence is that of the
// six node blocks. No user is in more released nodes (a leaf's own node is
// released only at odd rounds, where user 1's leaf is even). A node's
// top-left d×d block is W_d(L̃²I, k) + data, with density ∝
// det(B)^{(k−d−1)/2} e^{−tr B/(2L̃²)}, and tr e₁e₁ᵀ = tr e₂e₂ᵀ, so the
// log-likelihood ratio is
//
//	(k − d − 1)/2 · Σ_j [ln det(B_j − e₂e₂ᵀ) − ln det(B_j − e₁e₁ᵀ)]
//
// (B_j = V_t + cI at t = 2ʲ, c the shift; ±∞ when one of them is not
// positive definite).
//
// The calibration is loose: Theorem 8's per-node constant (k₀ ≥ d + 1 +
// 28 ln(4/δ₀)/ε₀²) and the composition over m nodes ask for a k far above
// the one at which the six released nodes are (ε, δ)-DP. The row computes
// that k, k_need ([wishartKNeeded], the exact privacy profile of the six
// nodes by Monte Carlo: 16 at this setting, against the tight k = 1,728),
// and states the ratio. A control at k/2 would be private, so the control
// is the k at which the six nodes' exact privacy profile at ε equals that
// of the Gaussian rows' σ/√2 control (f·μ-GDP, μ the claim's, f = √2; 2
// with short): the same size of defect beyond the k the claim needs, the
// smallest of this kind that a test of these releases must catch.
//
// grow > 1 plants a gross defect for tests: user 1's x has
// ‖x‖² = grow·L̃², data the calibration does not cover.
func wishartE2E(s ss18.Setting, k int, grow float64) *Mechanism {
	tight, err := s.WishartKTight()
	if err != nil {
		panic(err)
	}
	row := k == 0 && grow == 1
	if k == 0 {
		k = tight
	}
	d := s.D
	r2 := grow * s.Lt2 // user 1's ‖x‖²
	m := &Mechanism{
		Name:            e2eName(ss18.WishartTight),
		Mechanism:       fmt.Sprintf("SS18 WishartTight regularizer (§4.1 tree, k = %d, plain release), d = %d, n = %d, every released V_t", k, d, s.N),
		Neighbours:      e2eNeighbours(1),
		Test:            "exact log-likelihood ratio of the released blocks at rounds 2, 4, …, 64 (the nodes holding user 1)",
		Epsilon:         s.Epsilon,
		Delta:           s.Delta,
		Trials:          100000,
		ShortTrials:     4000,
		NoSecureSampler: true,
		New: func() func(*rand.Rand, int) float64 {
			v, u, x := make([]float64, d*d), make([]float64, d), make([]float64, d)
			a, l := make([]float64, d*d), make([]float64, d*d)
			return func(rng *rand.Rand, which int) float64 {
				reg, err := ss18.NewRegularizer(ss18.RegularizerConfig{Kind: ss18.RegWishartTree, Setting: s, K: k, Mode: counter.Plain, Noise: noise.Simulated}, rng)
				if err != nil {
					panic(err)
				}
				c := reg.Bounds().Shift
				llr := 0.0
				for t := 1; t <= s.N; t++ {
					if t > 1 && t&(t-1) == 0 { // release t = 2ʲ: the node [1, t]
						reg.StatsTo(v, u)
						copy(a, v)
						for i := range d {
							a[i*d+i] += c
						}
						a[0] -= r2 // D: e₁e₁ᵀ removed
						l0 := logDetSym(a, l, d)
						a[0] += r2
						a[d+1] -= r2 // D′: e₂e₂ᵀ removed
						l1 := logDetSym(a, l, d)
						term, decided := wishartLLRTerm(l0, l1)
						if decided {
							return term
						}
						llr += term
					}
					clear(x)
					if t == 1 {
						x[which] = math.Sqrt(r2)
					}
					reg.Add(x, 0)
				}
				return roundScore(float64(k-d-1) / 2 * llr)
			}
		},
	}
	if row {
		m.Control = func(short bool) *Mechanism {
			need := wishartKNeed(s, s.Delta)
			// The note is set here, where k_need is first computed; Run
			// copies it into the result after running the control.
			m.Note = fmt.Sprintf("calibration %.0f× loose: the six released nodes are (%g, %g)-DP from k_need = %d (exact privacy profile, Monte Carlo), against k = %d",
				float64(tight)/float64(need), s.Epsilon, s.Delta, need, tight)
			f := math.Sqrt2
			if short {
				f = 2
			}
			// The control's privacy loss is the Gaussian rows' control's:
			// δ(ε) of f·μ-GDP, μ the claim's.
			dc := accounting.GDPDelta(f*accounting.GDPMu(s.Epsilon, s.Delta), s.Epsilon)
			kc := wishartKNeed(s, dc)
			c := wishartE2E(s, kc, grow)
			c.Mechanism = fmt.Sprintf("control: WishartTight with k = %d degrees of freedom per node (k/%.0f; k_need = %d): the k whose exact δ(%g) = %.3f is that of the Gaussian rows' σ/%s control",
				kc, float64(tight)/float64(kc), need, s.Epsilon, dc, fctr(f))
			return c
		}
	}
	return m
}

// wishartKNeed returns (cached) the smallest k at which the six released
// nodes holding user 1 of the end-to-end Wishart row are (s.Epsilon,
// delta)-DP ([wishartKNeeded], node matrices of size d + 1).
func wishartKNeed(s ss18.Setting, delta float64) int {
	wishartNeed.Lock()
	defer wishartNeed.Unlock()
	if k, ok := wishartNeed.k[delta]; ok {
		return k
	}
	tight, err := s.WishartKTight()
	if err != nil {
		panic(err)
	}
	k := wishartKNeeded(s.D+1, wishartE2ENodes(s.N), s.Epsilon, delta, tight)
	if wishartNeed.k == nil {
		wishartNeed.k = map[float64]int{}
	}
	wishartNeed.k[delta] = k
	return k
}

// wishartE2ENodes is the number of released nodes holding user 1 in a
// plain tree over n rounds after the zero item: the nodes [1, 2ʲ],
// 2 ≤ 2ʲ ≤ n.
func wishartE2ENodes(n int) int {
	c := 0
	for t := 2; t <= n; t *= 2 {
		c++
	}
	return c
}

// logDetSym returns ln det of the symmetric positive definite d×d matrix a
// (row-major), or NaN if it is not positive definite; l is d×d scratch
// (the Cholesky factor).
func logDetSym(a, l []float64, d int) float64 {
	sum := 0.0
	for j := range d {
		diag := a[j*d+j]
		for k := range j {
			diag -= float64(l[j*d+k] * l[j*d+k])
		}
		if !(diag > 0) {
			return math.NaN()
		}
		ljj := math.Sqrt(diag)
		l[j*d+j] = ljj
		sum += xmath.Log(diag)
		for i := j + 1; i < d; i++ {
			x := a[i*d+j]
			for k := range j {
				x -= float64(l[i*d+k] * l[j*d+k])
			}
			l[i*d+j] = x / ljj
		}
	}
	return sum
}
