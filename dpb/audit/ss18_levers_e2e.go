package audit

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// leverBound is the split bound of the lever rows, ‖x‖ ≤ 1 and |y| ≤ 1: the
// beyond-ss18 figure's (unit actions, ±1 rewards; ss18fig runs the split
// variants with XBound = YBound = 1).
const leverBound = 1.0

// splitPair names a neighbouring pair of the split audits, each at the
// bounds ‖x‖ = X, |y| = Y ([splitRecords]).
type splitPair int

const (
	// splitPairU moves the reward vector the most: the same x = Xe₁, y = Y
	// (D) or y′ = −Y (D′); ΔV = 0, ‖Δu‖ = 2XY, the largest (levers.go's
	// bound ‖Δu‖² ≤ ‖x‖²y² + ‖x′‖²y′² + 2|yy′⟨x, x′⟩|).
	splitPairU splitPair = iota
	// splitPairV moves the Gram block the most: orthogonal x = Xe₁ and
	// x′ = Xe₂ (‖ΔV‖_F = √2X², the largest), y = y′ = 0, the y that keeps Δu
	// smallest (Δu = 0).
	splitPairV
	// splitPairWorst is [ss18.SplitWorstNeighbours]: x′ at angle arccos κ
	// from x (κ = Y²/(X²r²) ≤ 1), y = Y, y′ = −Y, the pair that maximises
	// the split's μ² (levers.go, f = X⁴(1 + κ)²).
	splitPairWorst
)

// splitPairs lists the split audits' pairs, in table order.
var splitPairs = []splitPair{splitPairU, splitPairV, splitPairWorst}

func (p splitPair) String() string {
	switch p {
	case splitPairU:
		return "u"
	case splitPairV:
		return "v"
	case splitPairWorst:
		return "worst"
	}
	return fmt.Sprintf("splitPair(%d)", int(p))
}

// leverName is the audit name of alg's row on pair p:
// ss18-e2e-gaussian-split-worst, ss18-e2e-gaussian-levers-u, and
// ss18-e2e-gaussian-toeplitz (the Toeplitz lever alone: pair v only).
func leverName(alg ss18.Alg, p splitPair) string {
	switch alg {
	case ss18.GaussianSplit:
		return "ss18-e2e-gaussian-split-" + p.String()
	case ss18.GaussianLevers:
		return "ss18-e2e-gaussian-levers-" + p.String()
	case ss18.GaussianToeplitz:
		if p == splitPairV {
			return "ss18-e2e-gaussian-toeplitz"
		}
	}
	panic(fmt.Sprintf("audit: no lever audit of %v on pair %v", alg, p))
}

// splitRecords returns the records (x, y) of D and (x′, y′) of D′ of pair p
// in dimension d ≥ 2 under ‖x‖ ≤ xb, |y| ≤ yb, r = σ_u/σ_V the row's ratio.
func splitRecords(p splitPair, d int, xb, yb, r float64) (x []float64, y float64, x2 []float64, y2 float64) {
	x, x2 = make([]float64, d), make([]float64, d)
	switch p {
	case splitPairU:
		x[0], x2[0] = xb, xb
		return x, yb, x2, -yb
	case splitPairV:
		x[0], x2[1] = xb, xb
		return x, 0, x2, 0
	case splitPairWorst:
		return ss18.SplitWorstNeighbours(d, xb, yb, r)
	}
	panic(fmt.Sprintf("audit: unknown split pair %d", int(p)))
}

// splitNeighbours describes pair p's records for user s.
func splitNeighbours(p splitPair, s int, x []float64, y float64, x2 []float64, y2 float64) string {
	what := map[splitPair]string{
		splitPairU:     "the pair that moves u the most (ΔV = 0, ‖Δu‖ = 2XY)",
		splitPairV:     "the pair that moves V the most (orthogonal unit x, ‖ΔV‖_F = √2X², Δu = 0)",
		splitPairWorst: "ss18.SplitWorstNeighbours, the pair that maximises μ²",
	}[p]
	return fmt.Sprintf("users ≠ %d send (x, y) = 0; user %d sends x = %.4g, y = %g (D) or x′ = %.4g, y′ = %g (D′): %s",
		s, s, x[:2], y, x2[:2], y2, what)
}

// splitWeights returns the Neyman–Pearson coefficients of the packed
// entries a record moves: cV[i·d+j] (i ≤ j) on V_ij and cu[i] on u_i are
// Δ/var, Δ the entry's change from D to D′ and var its noise variance per
// draw (σ_V² off V's diagonal, 2σ_V² on it, σ_u² on u:
// [noise.NewSymGaussianSplit]), and m2 = Σ Δ²/var, so that the pair's exact
// Gaussian-DP parameter is √(q·m2), q = a_sᵀ(BBᵀ)⁻¹a_s.
func splitWeights(x []float64, y float64, x2 []float64, y2, sv, su float64) (cV, cu []float64, m2 float64) {
	d := len(x)
	cV, cu = make([]float64, d*d), make([]float64, d)
	for i := range d {
		for j := i; j < d; j++ {
			dv := float64(x2[i]*x2[j]) - float64(x[i]*x[j])
			v := float64(sv * sv)
			if i == j {
				v *= 2
			}
			cV[i*d+j] = dv / v
			m2 += float64(dv*dv) / v
		}
		du := float64(x2[i]*y2) - float64(x[i]*y)
		cu[i] = du / float64(su*su)
		m2 += float64(du*du) / float64(su*su)
	}
	return cV, cu, m2
}

// leverBuild returns the calibration and the policy configuration of the
// lever variant alg at e2eSetting on noise of the given mode, built for a
// data bound shrink times too small (shrink > 1: a control): split bounds
// ‖x‖, |y| ≤ leverBound/√shrink (which scale √f and so σ_V and σ_u by
// 1/shrink, r re-chosen by [ss18.LeverCalibration]), else L̃²/shrink
// (σ/shrink). On secure noise the control is built instead for the ε′ at
// which μ is shrink times the calibrated one, at the row's bounds (σ_V and
// σ_u about shrink times smaller; r and β re-chosen): a bound too small
// would clip the pair's records (the Toeplitz counters' data bound),
// undoing the defect.
func leverBuild(alg ss18.Alg, shrink float64, mode noise.Mode) (ss18.LeverCal, ss18.PolicyConfig) {
	lv, ok := alg.Levers()
	if !ok {
		panic("audit: not a lever variant: " + alg.String())
	}
	s := e2eSetting
	pc := ss18.PolicyConfig{Alg: alg, Noise: mode}
	if mode.Secure() {
		if lv.Split {
			lv.XBound, lv.YBound, pc.XBound, pc.YBound = leverBound, leverBound, leverBound, leverBound
		}
		if shrink != 1 {
			cal, _ := leverBuild(alg, 1, mode)
			s.Epsilon = accounting.GDPEpsilon(shrink*cal.Mu, s.Delta)
		}
	} else if lv.Split {
		b := leverBound / math.Sqrt(shrink)
		lv.XBound, lv.YBound, pc.XBound, pc.YBound = b, b, b, b
	} else {
		s.Lt2 /= shrink
	}
	pc.Setting = s
	lc, err := ss18.LeverCalibration(s, counter.BLT, lv)
	if err != nil {
		panic(err)
	}
	return lc, pc
}

// leverNoiseMatrix returns B of the BLT counter a lever calibration runs
// (on (1−z)^{−β}) over the n rounds of e2eSetting.
func leverNoiseMatrix(lc ss18.LeverCal) ([]float64, int, float64) {
	cfg := counter.Config{Kind: counter.BLT, Horizon: e2eSetting.N}
	if lc.Beta != 0.5 {
		var err error
		if cfg.Omega, cfg.Lambda, err = counter.BLTParamsBeta(e2eSetting.N, lc.Beta); err != nil {
			panic(err)
		}
	}
	// Counter rounds 1..n: round 1 is the zero item, user u is round u+1.
	s, w, sq := pairWeightsFrom(noiseMatrixOf(cfg), 1, 2)
	return w, s - 1, float64(sq * sq)
}

// checkLeverReg panics unless reg runs the calibration want: the audit
// must see the noise the variant releases with.
func checkLeverReg(reg ss18.Regularizer, want ss18.LeverCal) {
	lr, ok := reg.(interface{ Levers() (ss18.LeverCal, bool) })
	if !ok {
		panic("audit: the lever variant's regularizer reports no levers")
	}
	got, ok := lr.Levers()
	if !ok || got.Sigma != want.Sigma || got.SigmaU != want.SigmaU || got.Beta != want.Beta {
		panic(fmt.Sprintf("audit: the lever regularizer runs σ_V = %v, σ_u = %v, β = %v; the calibration says %v, %v, %v",
			got.Sigma, got.SigmaU, got.Beta, want.Sigma, want.SigmaU, want.Beta))
	}
}

// leverE2E is the end-to-end audit of a lever variant of SS18 §4.2's
// Gaussian regularizer (levers.go re-accounts its privacy: GaussianSplit,
// GaussianLevers on pair p; GaussianToeplitz on splitPairV, the pair of
// the BLT row ss18-e2e-gaussian-blt), through the regularizer
// [ss18.NewPolicy] builds for it, built for a bound shrink times too small
// (shrink > 1: a control, [leverBuild]) and fed the pair at the row's
// bounds. The output is every release (V_t, ũ_t), rounds 1 to n.
//
// Test (Neyman–Pearson). The releases are the counter's sums of the
// packed records plus Bη per packed entry, the entries' draws independent
// (noise.NewSymGaussianSplit: σ_V² off V's diagonal, 2σ_V² on it, σ_u² on
// u; σ_u = σ_V unsplit), plus a data-independent shift of V's diagonal.
// A record at counter round s moves entry e of the releases from round s
// on by Δ_e, so the log-likelihood ratio is increasing in
// Σ_t w_t Σ_e (Δ_e/var_e) release_e(t), w = (BBᵀ)⁻¹a_s: a Gaussian shift of
// μ = √(a_sᵀ(BBᵀ)⁻¹a_s · Σ_e Δ_e²/var_e), which is levers.go's μ² =
// Cost.L2Sq·(‖ΔV‖_F²/(2σ_V²) + ‖Δu‖²/σ_u²) where a_sᵀ(BBᵀ)⁻¹a_s = Cost.L2Sq
// (the BLT counter, TestLeverE2EMu). B is read off the counter by impulse
// noise (on (1−z)^{−β} for the Toeplitz lever) and s is the user with the
// largest a_sᵀ(BBᵀ)⁻¹a_s. The shift adds a constant (and cancels: both
// records have the same norm). The test is the row's, from the row's σ_V
// and σ_u, in the control too.
//
// The control goes √2 (2 with short) beyond the pair's own exact boundary
// (the factor √2·μ/μ_pair of [secureControlFactor]: a pair below the
// calibrated μ, the split's u and v pairs, would stay private under a σ/√2
// control or be caught by no test of this size), so each row's control is
// the same distance from private.
func leverE2E(alg ss18.Alg, p splitPair, shrink float64, mode noise.Mode) *Mechanism {
	s := e2eSetting
	cal, _ := leverBuild(alg, 1, mode)
	built, pc := leverBuild(alg, shrink, mode)
	w, user, q := leverNoiseMatrix(cal)
	xb, yb := leverBound, leverBound
	if !cal.Levers.Split {
		xb, yb = math.Sqrt(s.Lt2), 0
	}
	x, y, x2, y2 := splitRecords(p, s.D, xb, yb, cal.Ratio)
	cV, cu, m2 := splitWeights(x, y, x2, y2, cal.Sigma, cal.SigmaU)
	mu := math.Sqrt(q * m2)
	split := fmt.Sprintf("σ_V = %.4g, σ_u = %.4g (r = %.4g), ‖x‖ ≤ %g, |y| ≤ %g, the y² corner not released", built.Sigma, built.SigmaU, built.Ratio, pc.XBound, pc.YBound)
	if !cal.Levers.Split {
		split = fmt.Sprintf("σ = %.4g, L̃² = %g", built.Sigma, pc.Setting.Lt2)
	}
	name := leverName(alg, p)
	if mode.Secure() {
		name += "-secure"
	}
	m := &Mechanism{
		Name: name,
		Mechanism: describe(fmt.Sprintf("SS18 %v regularizer (per-round bounds; BLT counter on (1−z)^{−%g}; %s), d = %d, n = %d, every released (V_t, ũ_t)",
			alg, built.Beta, split, s.D, s.N), mode),
		Neighbours: splitNeighbours(p, user, x, y, x2, y2) +
			fmt.Sprintf(" (the user with the largest a_sᵀ(BBᵀ)⁻¹a_s; the pair's exact μ = %.4f, calibrated μ = %.4f)", mu, cal.Mu),
		Test:        "Neyman–Pearson: Σ_t w_t (Σ_{i≤j} ΔV_ij V_ij(t)/var_ij + Σ_i Δu_i ũ_i(t)/σ_u²) over the n releases, w = (BBᵀ)⁻¹a_s from the counter's noise matrix B",
		Epsilon:     s.Epsilon,
		Delta:       s.Delta,
		Trials:      100000,
		ShortTrials: 4000,
		New:         leverTrial(pc, built, w, user, cV, cu, [2][]float64{x, x2}, [2]float64{y, y2}),
	}
	if shrink == 1 {
		m.Control = func(short bool) *Mechanism {
			f, _ := secureControlFactor(short, mu, cal.Mu)
			c := leverE2E(alg, p, f, mode)
			bc, _ := leverBuild(alg, f, mode)
			_, _, mc := splitWeights(x, y, x2, y2, bc.Sigma, bc.SigmaU)
			base := math.Sqrt2
			if short {
				base = 2
			}
			what := fmt.Sprintf("a bound %s too small", fctr(f))
			if mode.Secure() {
				what = fmt.Sprintf("ε′ = %.4g at δ = %g (μ × %s, the same bounds), secure sampler", accounting.GDPEpsilon(f*cal.Mu, s.Delta), s.Delta, fctr(f))
			}
			c.Mechanism = fmt.Sprintf("control: %v built for %s (%s; %s × μ/μ_pair = %s × %.4g), fed the pair at the row's bounds: the pair's exact μ is %.4g, %.4g × the row's %.4g",
				alg, what, leverControlNoise(cal, bc), fctr(base), fctr(base), cal.Mu/mu, math.Sqrt(q*mc), math.Sqrt(q*mc)/mu, mu)
			return c
		}
		m.Note = leverNote(cal, p, mu, q)
	}
	return m
}

// leverNote is a lever row's note: the pair's exact μ against the worst
// pair's and the calibrated μ, or a calibration bug when it exceeds μ.
// The worst pair's μ is below the calibrated one by the zero item alone:
// the audited user's record enters at counter round 2 or later, where
// a_sᵀ(BBᵀ)⁻¹a_s = q, while Cost.L2Sq is the largest column of C, round
// 1's, the data-independent zero item's (TestLeverE2EMu).
func leverNote(cal ss18.LeverCal, p splitPair, mu, q float64) string {
	if mu > cal.Mu*(1+1e-9) {
		return fmt.Sprintf("the pair's exact μ = %.6g exceeds the calibrated μ = %.6g: calibration bug", mu, cal.Mu)
	}
	worst := math.Sqrt(q/cal.Cost.L2Sq) * cal.Mu // levers.go: μ² = L2Sq·f/σ_V² at the worst pair
	note := fmt.Sprintf("the worst pair's exact μ is %.4f (a_sᵀ(BBᵀ)⁻¹a_s = %.4f at the audited user's counter round, Cost.L2Sq = %.4f at the zero item's round 1), calibrated μ = %.4f",
		worst, q, cal.Cost.L2Sq, cal.Mu)
	if p == splitPairWorst || !cal.Levers.Split {
		return "the worst pair: " + note
	}
	return fmt.Sprintf("this pair's exact μ = %.4f is %.4g× below the worst pair's: %s", mu, worst/mu, note)
}

// leverControlNoise describes a control's noise against the row's.
func leverControlNoise(cal, bc ss18.LeverCal) string {
	if !cal.Levers.Split {
		return fmt.Sprintf("σ/%.4g, β = %g", cal.Sigma/bc.Sigma, bc.Beta)
	}
	return fmt.Sprintf("σ_V/%.4g, σ_u/%.4g, r re-chosen %.4g, β = %g", cal.Sigma/bc.Sigma, cal.SigmaU/bc.SigmaU, bc.Ratio, bc.Beta)
}

// leverTrial returns the trial function of [leverE2E]: the policy pc
// builds (checked to run the calibration built), user `user` sending
// record which, the test statistic over the n releases.
func leverTrial(pc ss18.PolicyConfig, built ss18.LeverCal, w []float64, user int, cV, cu []float64, xs [2][]float64, ys [2]float64) func() func(*rand.Rand, int) float64 {
	return func() func(*rand.Rand, int) float64 {
		s := pc.Setting
		d := s.D
		probe, err := ss18.NewPolicy(pc, rand.New(rand.NewPCG(0, 0)))
		if err != nil {
			panic(err)
		}
		checkLeverReg(probe.Regularizer(), built)
		v, u, z := make([]float64, d*d), make([]float64, d), make([]float64, d)
		return func(rng *rand.Rand, which int) float64 {
			p, err := ss18.NewPolicy(pc, rng)
			if err != nil {
				panic(err)
			}
			reg := p.Regularizer()
			stat := 0.0
			for t := 1; t <= s.N; t++ {
				// Release t: counter round t, after users 1..t−1.
				reg.StatsTo(v, u)
				r := 0.0
				for i := range d {
					for j := i; j < d; j++ {
						r += float64(cV[i*d+j] * v[i*d+j])
					}
					r += float64(cu[i] * u[i])
				}
				stat += float64(w[t-1] * r)
				clear(z)
				yt := 0.0
				if t == user {
					copy(z, xs[which])
					yt = ys[which]
				}
				reg.Add(z, yt)
			}
			return roundScore(stat)
		}
	}
}

// leverAudits returns the end-to-end audits of the noise levers (issue 55),
// in table order: GaussianSplit on each of [splitPairs], GaussianToeplitz
// on the pair e₁ against e₂, GaussianLevers on the split's worst pair.
func leverAudits() []*Mechanism {
	var ms []*Mechanism
	for _, p := range splitPairs {
		ms = append(ms, leverE2E(ss18.GaussianSplit, p, 1, noise.Simulated))
	}
	return append(ms, leverE2E(ss18.GaussianToeplitz, splitPairV, 1, noise.Simulated), leverE2E(ss18.GaussianLevers, splitPairWorst, 1, noise.Simulated))
}

// leverSecureAudits returns the lever rows on the secure sampler (mode
// Secure or SecureSeeded), each variant of ss18.NoiseLeverAlgs on its
// worst pair (the split's for a split, e₁ against e₂ without): the exact
// discrete Gaussian with per-entry σ's inflated for the rounding
// (noise.SymGaussianLaw split) on the BLT's Toeplitz measurements with the
// lever's own β. The test is the simulated row's (it sees the discrete law
// to within the rounding); the control is built for ε′ ([leverBuild]).
func leverSecureAudits(mode noise.Mode) []*Mechanism {
	var ms []*Mechanism
	for _, a := range ss18.NoiseLeverAlgs {
		p := splitPairV
		if lv, _ := a.Levers(); lv.Split {
			p = splitPairWorst
		}
		ms = append(ms, leverE2E(a, p, 1, mode))
	}
	return ms
}
