package ss18

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// roundCal gives the per-round bounds of [NewRegularizer] (RegGaussianCounterRound).
type roundCal struct {
	sigma, rho, sd, alpha, hn float64
	sigmaU                    float64        // σ_u of a split noise (levers.go), else 0 (σ)
	shift                     *releasedShift // the released-shift lever (levers.go), else nil
	ctr                       counter.Counter
	last                      int // the counter round of cached
	cached                    RegBounds
	lastGrid                  int     // the grid point of vGrid
	vGrid                     float64 // VarianceAt(lastGrid)
	// The Norms lever (norms.go): Ê_d (0: off), d, and q_d at the grid
	// point's budget.
	eBound float64
	d      int
	qGrid  float64
}

// gridUp returns the smallest point ⌈2^{j/8}⌉ ≥ t (j ≥ 0) of a geometric
// grid, capped at n.
func gridUp(t, n int) int {
	pt := func(j int) int { return int(math.Ceil(xmath.Pow(2, float64(j)/8))) }
	j := max(0, int(math.Ceil(8*math.Log2(float64(t)))))
	for pt(j) < t {
		j++
	}
	for j > 0 && pt(j-1) >= t {
		j--
	}
	return min(n, pt(j))
}

// nondecreasingVariance lists the counters whose VarianceAt(t) never
// decreases in t: the padded tree (constant), the square root (a sum of
// squares over j < t) and the BLT (V(t) − V(t−1) = (Σ_i ω_i λ_i^{t−1})² ≥ 0).
func nondecreasingVariance(kind counter.Kind) bool {
	return kind == counter.TreePadded || kind == counter.Sqrt || kind == counter.BLT
}

// at returns the bounds of the release after the counter's t-th item
// (LinUCB round t: the regularizer's first item is the zero item).
func (c *roundCal) at(t int) RegBounds {
	if t == c.last {
		return c.cached
	}
	a := c.alpha / (2 * float64(t) * c.hn) // a_t, Σ_t a_t = α/2
	if g := gridUp(t, c.ctr.Horizon()); g != c.lastGrid {
		c.lastGrid, c.vGrid = g, c.ctr.VarianceAt(g)
		if c.eBound != 0 {
			// a_g ≤ a_t for every t of the cell: a valid, cached q.
			c.qGrid = normsQuantile(c.d, c.alpha/(2*float64(g)*c.hn))
		}
	}
	su := c.sigma
	if c.sigmaU != 0 {
		su = c.sigmaU
	}
	var ups, g0 float64
	if c.eBound != 0 {
		ups, g0 = roundNoiseNorms(c.sigma, su, c.vGrid, c.eBound, a, c.qGrid)
	} else {
		ups, g0 = roundNoise(c.sigma, su, c.vGrid, c.sd, a)
	}
	c.last = t
	rho := c.rho
	if c.shift != nil {
		rho = c.shift.choose(ups, g0)
	}
	c.cached = RegBounds{RhoMin: rho, RhoMax: rho + float64(2*ups), Gamma: g0 / math.Sqrt(rho), Shift: rho + ups}
	return c.cached
}

// roundNoise returns Υ and g of a release whose noise has variance v (in
// units of σ²) per entry, at failure budget a (NewGaussianCounterRegRound's
// derivation): Υ = σ_V√v(2√d + 2√(ln(4/a))) bounds the Gram block's norm,
// g = σ_u√v(√d + √(2 ln(2/a))) the reward vector's (sd = √d). The one
// place these constants are written: the per-round bounds and the levers'
// calibration both call it.
func roundNoise(sigmaV, sigmaU, v, sd, a float64) (ups, g0 float64) {
	sqv := math.Sqrt(v)
	ups = float64(float64(sigmaV*sqv) * (2*sd + 2*math.Sqrt(xmath.Log(4/a))))
	g0 = float64(sigmaU*sqv) * (sd + math.Sqrt(2*xmath.Log(2/a)))
	return ups, g0
}

// harmonic returns H_n = Σ_{s=1}^n 1/s.
func harmonic(n int) float64 {
	var h float64
	for s := n; s >= 1; s-- {
		h += 1 / float64(s)
	}
	return h
}

// NewGaussianCounterRegRound is the Gaussian regularizer on the counter kind
// with σ calibrated exactly ([GaussianCounterCalibration]: the same noise,
// so the same (ε, δ)), whose Proposition 11 bounds and shift follow the
// counter's variance round by round (the GaussianBLTRound variant). SS18
// Algorithm 1 allows a changing regularizer H_t; Proposition 4's proof
// needs, in each round t, ρ_min I ⪯ H_t ⪯ ρ_max(t) I and
// ‖h_t‖_{H_t⁻¹} ≤ γ_t on an event of probability ≥ 1 − a_t with
// Σ_t a_t ≤ α/2, and a ρ_min that does not change (the self-normalised
// bound of Abbasi-Yadkori et al. 2011, Thm 1, holds uniformly in t for one
// fixed λ = ρ_min, and det(G_t + ρ_min I) ≤ det V_t); then
// ‖θ̃_t − θ*‖_{V_t} ≤ σ√(2 ln(2/α) + ln det V_t − d ln ρ_min) + S√ρ_max(t) + γ_t
// for all t w.p. ≥ 1 − α, which is the β_t LinUCB uses.
//
// Derivation. Round t's release has noise variance VarianceAt(t) (units of
// σ²) per entry, at most V_t = VarianceAt(t̄), t̄ ≥ t the next point
// ⌈2^{j/8}⌉ of a geometric grid: kind must be a counter whose variance
// never decreases (the padded tree, the square root, the BLT), and the grid
// keeps the cost at one VarianceAt per grid cell (about 8 log₂ n in all)
// instead of one per round (O(buffers²) powers for the BLT), for bounds at
// most ~0.5% looser. The failure budget of round t is
// a_t = α/(2 t H_n), H_n = Σ_{s≤n} 1/s (summable: Σ a_t = α/2; early
// rounds, where SS18's regret accrues, get more than α/(2n)), split as in
// [GaussianCounterCalibrationSharp]: the two tails of ‖N_t block‖ ≤ Υ_t at
// a_t/4 each, ‖h_t‖ ≤ g_t at a_t/2:
//
//	Υ_t = σ√V_t (2√d + 2√(ln(4/a_t)))        (Sudakov–Fernique, √2-Lipschitz)
//	g_t = σ√V_t (√d + √(2 ln(2/a_t)))
//	H_t = N_t + (ρ + Υ_t) I:  ρ_min = ρ,  ρ_max(t) = ρ + 2Υ_t,  γ_t = g_t/√ρ.
//
// The shift ρ + Υ_t depends on t only, never on data. ρ is the minimiser of
// β̄ (Proposition 4's closed form, σ = S = L = 1) at round ⌈√n⌉, with the
// bounds of that round: SS18's regret accrues early (the curves of Fig. 4's
// setting are flat after ~10⁵ of 10⁶ rounds), so the radius of early rounds
// is the one to make small.
//
// Deprecated: use NewRegularizer(RegularizerConfig{Kind:
// RegGaussianCounterRound, Counter: kind, Noise: noise.Simulated, ...}, rng)
// (kept for the notebook beyond_less_noise).
func NewGaussianCounterRegRound(s Setting, kind counter.Kind, rng *rand.Rand) (*TreeRegularizer, error) {
	return newGaussianCounterRegRound(s, kind, noise.Simulated, rng)
}

func newGaussianCounterRegRound(s Setting, kind counter.Kind, mode noise.Mode, rng *rand.Rand) (*TreeRegularizer, error) {
	return newRoundReg(s, kind, Levers{}, mode, rng)
}

// newRoundReg is newGaussianCounterRegRound with levers (levers.go); with
// none it is the GaussianBLTRound regularizer, bit for bit.
func newRoundReg(s Setting, kind counter.Kind, l Levers, mode noise.Mode, rng *rand.Rand) (*TreeRegularizer, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	if l.any() {
		return newLeverReg(s, kind, l, mode, rng)
	}
	if !nondecreasingVariance(kind) {
		return nil, fmt.Errorf("ss18: the per-round Gaussian regularizer needs a counter whose variance never decreases (tree-padded, sqrt, blt), not %v", kind)
	}
	cal, err := GaussianCounterCalibration(s, kind)
	if err != nil {
		return nil, err
	}
	rc := &roundCal{sigma: cal.Sigma, sd: math.Sqrt(float64(s.D)), alpha: s.AlphaOrDefault(), hn: harmonic(s.N)}
	probe, err := counter.New(counter.Config{Kind: kind, Dim: 1, Horizon: s.N, Noise: noise.ZeroNoise{N: 1}})
	if err != nil {
		return nil, err
	}
	rc.ctr, rc.rho = probe, 1
	tm := int(math.Ceil(math.Sqrt(float64(s.N))))
	b := rc.at(tm)
	ups := b.Shift - 1 // Υ at round tm
	g0 := b.Gamma      // g at round tm (ρ = 1)
	cp := ConfidenceParams{D: s.D, Sigma: 1, S: 1, L: 1, Alpha: rc.alpha}
	rc.rho = minimiseLog(ups*1e-4, ups*1e4, func(rho float64) float64 {
		return BetaBar(cp, RegBounds{RhoMin: rho, RhoMax: rho + 2*ups, Gamma: g0 / math.Sqrt(rho)}, tm)
	})
	rc.last = 0
	cal.Bounds = rc.at(1)
	r, err := newGaussianCounterRegCal(s, cal, mode, rng)
	if err != nil {
		return nil, err
	}
	rc.ctr = r.ctr
	rc.last = 0
	r.round = rc
	return r, nil
}

// newLeverReg builds the per-round regularizer with levers: the counter
// and noise of [LeverCalibration], the bounds of
// [NewGaussianCounterRegRound] with Υ_t from σ_V and g_t from σ_u, ρ_min
// from the calibration.
func newLeverReg(s Setting, kind counter.Kind, l Levers, mode noise.Mode, rng *rand.Rand) (*TreeRegularizer, error) {
	if err := noise.CheckMode(mode); err != nil {
		return nil, err
	}
	lc, err := LeverCalibration(s, kind, l)
	if err != nil {
		return nil, err
	}
	rc := &roundCal{sigma: lc.Sigma, sigmaU: lc.SigmaU, rho: lc.Rho, sd: math.Sqrt(float64(s.D)), alpha: s.AlphaOrDefault(), hn: harmonic(s.N)}
	if l.Norms {
		rc.alpha, rc.eBound = normsSetup(rc.alpha, s.D)
		rc.d = s.D
	}
	if l.Shift {
		rc.shift = newReleasedShift(s, lc.Rho)
	}
	if rc.ctr, err = leverProbe(s.N, kind, lc.Beta); err != nil {
		return nil, err
	}
	lc.Bounds = rc.at(1)
	n1 := s.D + 1
	cc := counter.Config{Kind: kind, Dim: simd.PackedLen(n1), Horizon: s.N}
	if lc.Beta != 0.5 {
		if cc.Omega, cc.Lambda, err = counter.BLTParamsBeta(s.N, lc.Beta); err != nil {
			return nil, err
		}
	}
	if cc.Noise, err = leverNoise(s, lc, &cc, mode, rng); err != nil {
		return nil, err
	}
	ctr, err := counter.New(cc)
	if err != nil {
		return nil, err
	}
	cal := lc.GaussianCounterCal
	r := &TreeRegularizer{
		kind: "Gaussian", d: s.D, setting: s, ctr: ctr, diag: lc.Bounds.Shift, bounds: lc.Bounds,
		upsilon: lc.Bounds.Shift - lc.Rho, z: make([]float64, n1), buf: make([]float64, simd.PackedLen(n1)), cal: &cal, lever: &lc,
	}
	ctr.Add(r.buf) // the data-independent zero item
	rc.ctr = ctr
	rc.last = 0
	r.round = rc
	return r, nil
}

// leverNoise returns the node noise of a lever regularizer: the
// symmetrised Gaussian with σ_V (and σ_u when split) of lc, simulated from
// rng, or in a secure mode the exact discrete Gaussian of
// [noise.SymGaussianLaw] with the same σ's, whose grid inflation is
// computed for the packed ℓ2 change of an attained neighbouring pair
// ([leverSensitivity]). On the Toeplitz counters (Sqrt, BLT, the latter
// on the Toeplitz lever's own (1−z)^{−β} parameters) it sets cc.Bound to
// the per-entry data bound ([leverEntryBound], clipped there) and the
// noise pays the slack of their measurement error for that counter
// ([counter.ToeplitzSlackFor]): the argument of
// [newGaussianCounterRegCal], per entry. The levers Shift and Norms change
// no noise.
//
// What the secure mode does not carry over: Υ_t and g_t bound the norms of
// continuous Gaussian noise of scale σ_V, σ_u; the discrete Gaussian's
// entries (σ′ ≥ σ the inflated scale) have variance at most σ′² and are
// σ′-subgaussian (Canonne, Kamath & Steinke 2020), but are not Gaussian,
// so the confidence radius is the continuous mechanism's, as for every
// secure Gaussian regularizer of this package. Privacy is what the secure
// mode proves, and is unaffected.
func leverNoise(s Setting, lc LeverCal, cc *counter.Config, mode noise.Mode, rng *rand.Rand) (noise.Noise, error) {
	nc := noise.Config{Law: noise.SymGaussianLaw, Mode: noise.Simulated, N: s.D + 1, Sigma: lc.Sigma, SigmaU: splitSigmaU(lc)}
	return symNoise(nc, cc, mode, leverSensitivity(s, lc), leverEntryBound(s, lc), rng)
}

// symNoise returns the symmetrised Gaussian node noise nc describes
// (simulated, as given) for the counter cc, or, in a secure mode, its exact
// discrete counterpart sized for the packed ℓ2 change sens of an attained
// neighbouring pair; on the Toeplitz counters (Sqrt, BLT on cc's own ω, λ)
// it sets cc.Bound to the per-entry data bound entry, clipped there, and
// the noise pays the slack of that counter's measurement error
// ([counter.ToeplitzSlackFor] at the noise's grid, [noise.SecureSymGrid]).
// The calibrated regularizers and the levers build their noise here.
func symNoise(nc noise.Config, cc *counter.Config, mode noise.Mode, sens, entry float64, rng *rand.Rand) (noise.Noise, error) {
	if !mode.Secure() {
		return noise.New(nc, rng)
	}
	nc.Mode, nc.Sensitivity = mode, sens
	if cc.Kind == counter.Sqrt || cc.Kind == counter.BLT {
		cc.Bound = counter.DataBound{Entry: entry, Clip: true}
		slack, err := counter.ToeplitzSlackFor(*cc, noise.SecureSymGrid(nc.N, nc.Sigma, nc.SigmaU))
		if err != nil {
			return nil, err
		}
		nc.Slack = slack
	}
	return noise.New(nc, rng)
}

// leverEntryBound returns the bound on every entry of a packed record
// that the secure Toeplitz counters need, with LinUCB's tolerance: L̃²
// unsplit (|v_i v_j| ≤ ‖v‖²), max(L², LB) split (|x_i x_j| ≤ ‖x‖², |x_i y|
// ≤ ‖x‖|y|, the corner zero), L = XBound, B = YBound; ×(1 + boundSlack)²
// covers ‖x‖² ≤ L²(1 + boundSlack), |y| ≤ B(1 + boundSlack).
func leverEntryBound(s Setting, lc LeverCal) float64 {
	t := (1 + boundSlack) * (1 + boundSlack)
	if !lc.Levers.Split {
		return s.Lt2 * t
	}
	l, b := lc.Levers.XBound, lc.Levers.YBound
	return math.Max(l*l, l*b) * t
}

// leverSensitivity returns the ℓ2 norm of the packed change of a
// neighbouring pair that the data bounds allow (attained, as
// noise.New's secure Gaussian needs: any such pair's norm is at most
// max ‖Δ‖_σ·max σ, so the inflation it computes covers the rounding).
// Unsplit: √2·L̃² (the pair √L̃²e₁, √L̃²e₂, as [newGaussianCounterRegCal]).
// Split (corner zero), the larger of two pairs: (Le₁, B) against
// (Le₂, −B), which moves two diagonal entries by L² and two u entries by
// LB, √(2L⁴ + 2L²B²) (d ≥ 2); and (Le₁, B) against (Le₁, −B), which moves
// u₁ by 2LB.
func leverSensitivity(s Setting, lc LeverCal) float64 {
	if !lc.Levers.Split {
		return math.Sqrt2 * s.Lt2
	}
	l, b := lc.Levers.XBound, lc.Levers.YBound
	sens := 2 * l * b
	if s.D >= 2 {
		sens = math.Max(sens, math.Sqrt(float64(2*l*l*l*l)+float64(2*l*l*b*b)))
	}
	return sens
}

// splitSigmaU returns the noise's SigmaU: σ_u when split, else 0 (unsplit).
func splitSigmaU(lc LeverCal) float64 {
	if lc.Levers.Split {
		return lc.SigmaU
	}
	return 0
}

// minimiseLog returns the minimiser of f on [lo, hi] (f unimodal in ln x
// near its grid minimum): an 800-point log grid, then golden section.
func minimiseLog(lo, hi float64, f func(float64) float64) float64 {
	return minimiseLogGrid(lo, hi, 800, 60, f)
}

// minimiseLogGrid is minimiseLog with a log grid of the given steps and
// iters steps of golden section (the levers' outer search over r uses a
// coarser one).
func minimiseLogGrid(lo, hi float64, steps, iters int, f func(float64) float64) float64 {
	a, b := xmath.Log(lo), xmath.Log(hi)
	h := (b - a) / float64(steps)
	best, bx := math.Inf(1), a
	for i := 0; i <= steps; i++ {
		x := a + float64(float64(i)*h)
		if v := f(xmath.Exp(x)); v < best {
			best, bx = v, x
		}
	}
	l, r := bx-h, bx+h
	const phi = 0.6180339887498949
	for range iters {
		m1, m2 := r-float64(phi*(r-l)), l+float64(phi*(r-l))
		if f(xmath.Exp(m1)) <= f(xmath.Exp(m2)) {
			r = m2
		} else {
			l = m1
		}
	}
	return xmath.Exp((l + r) / 2)
}

// BoundsChange reports whether Bounds (and the shift) change from round to
// round ([NewRegularizer] (RegGaussianCounterRound)); LinUCB then reads them every round.
func (r *TreeRegularizer) BoundsChange() bool { return r.round != nil }

// RoundBounds returns the bounds of the release after the counter's t-th
// item (LinUCB round t); the constant bounds when they do not change.
func (r *TreeRegularizer) RoundBounds(t int) RegBounds {
	if r.round == nil {
		return r.bounds
	}
	if t < 1 || t > r.ctr.Horizon() {
		panic(fmt.Sprintf("ss18: round %d outside 1..%d", t, r.ctr.Horizon()))
	}
	return r.round.at(t)
}
