package ss18

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/linalg"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// RadiusForm selects how LinUCB computes the confidence radius β_t.
type RadiusForm int

const (
	// RadiusLogDet is SS18 Proposition 4's radius,
	//	β_t = σ·sqrt(2 ln(2/α) + ln det V_t − d ln ρ_min) + S·sqrt(ρ_max) + γ.
	RadiusLogDet RadiusForm = iota
	// RadiusClosedForm is its closed-form upper bound β̄_t,
	//	β̄_t = σ·sqrt(2 ln(2/α) + d ln(ρ_max/ρ_min + t L²/(d ρ_min))) + S·sqrt(ρ_max) + γ.
	RadiusClosedForm
	// RadiusMinEig is RadiusLogDet with its two data-independent terms
	// tightened by the smallest eigenvalue of the released matrix V_t (a
	// post-processing of released values, so the privacy is unchanged):
	//
	//	β_t = σ·sqrt(2 ln(2/α) + ln det V_t − d ln ρ_min)
	//	      + S·min(√ρ_max, ρ_max/√λ_t) + min(γ, g₀/√λ_t),
	//
	// where λ_t ≤ λ_min(V_t) is certified (see [LinUCB.MinEigLower]) and g₀
	// bounds ‖h_t‖ (see [TreeRegularizer.NoiseNormBound]).
	//
	// Proof. Proposition 4 splits ‖θ̃_t − θ*‖_{V_t} into the self-normalised
	// term, the bias ‖H_t θ*‖_{V_t⁻¹} and the noise ‖h_t‖_{V_t⁻¹}, and
	// bounds the last two on its event (ρ_min I ⪯ H_t ⪯ ρ_max I and the
	// bound on h_t) by S√ρ_max and γ. On the same event, for any vector w,
	// ‖w‖_{V_t⁻¹} ≤ ‖w‖₂/√λ_min(V_t), with ‖H_t θ*‖₂ ≤ ρ_max S and
	// ‖h_t‖₂ ≤ g₀; so each term is at most the smaller of the two bounds.
	// λ_t is a lower bound on λ_min(V_t) on that event (λ_min(V_t) ≥ ρ_min
	// because V_t = G_t + H_t ⪰ H_t) or whatever the event (the Frobenius
	// bound and the Cholesky test of V_t − μI). The radius is at most
	// RadiusLogDet's and uses only released values: V_t, the bounds and
	// constants of the configuration.
	RadiusMinEig
)

func (f RadiusForm) String() string {
	switch f {
	case RadiusLogDet:
		return "logdet"
	case RadiusClosedForm:
		return "closed"
	case RadiusMinEig:
		return "mineig"
	}
	return fmt.Sprintf("RadiusForm(%d)", int(f))
}

// LinUCBConfig configures [NewLinUCB].
type LinUCBConfig struct {
	// Dim is d, the feature dimension. Required.
	Dim int
	// Horizon is n, the number of rounds. Required.
	Horizon int
	// Regularizer supplies V_t and ũ_t (Ridge, WishartTree, GaussianTree). Required.
	Regularizer Regularizer
	// Sigma is the sub-Gaussian constant σ of the reward noise. Defaults to 1.
	Sigma float64
	// S bounds ‖θ*‖. Defaults to 1.
	S float64
	// L bounds ‖x‖ (used by the closed-form radius). Defaults to 1.
	L float64
	// Alpha is the failure probability α of the confidence set. Defaults to 1/Horizon.
	Alpha float64
	// Radius selects the form of β_t. Defaults to RadiusLogDet.
	Radius RadiusForm
	// Clip scales an observation with ‖x‖² + y² > L̃² (the regularizer's
	// DataBound) onto the sphere ‖(x, y)‖ = L̃ before it enters the
	// mechanism. Without Clip such an observation is rejected: Update records
	// the error (see Err) and the policy stops learning.
	Clip bool
}

// LinUCB is SS18 Algorithm 1, LinUCB with changing perturbations: in round t
// it forms V_t = G_t + H_t and ũ_t = u_t + h_t from its [Regularizer],
// θ̃_t = V_t⁻¹ ũ_t, and plays
//
//	x_t = argmax_{x ∈ D_t} ⟨θ̃_t, x⟩ + β_t ‖x‖_{V_t⁻¹}.
//
// With a private tree regularizer the policy is (ε, δ)-jointly differentially
// private (SS18 Theorem 7 / Section 4): everything it does is post-processing
// of the tree's releases, and the actions shown to round t depend on other
// rounds' data only through them. With Ridge it is ordinary LinUCB.
//
// Per round: one d×d Cholesky factorisation (O(d³)), O(d²) per action, and the
// regularizer's update. Nothing allocates after construction.
//
// The algorithm reads plainly in algorithm1.go: a reference implementation
// in plain loops (Cholesky, two triangular solves, β_t by Proposition 4,
// the argmax), which the tests hold LinUCB to for every regularizer
// (TestReferenceMatchesFastPath). LinUCB computes the same in the kernels'
// layout (linucb_fast.go: θ̃_t = Mᵀz with M = L⁻¹ and z = M ũ_t, the
// assembly, the lockstep driver), with the same bits on every CPU.
//
// A LinUCB is not safe for concurrent use, not even two concurrent Chooses
// (each writes the policy's scratch and this round's factor): wrap it in
// [bandit.NewLocked] to share it between goroutines.
type LinUCB struct {
	cfg LinUCBConfig // validated, its defaults filled in
	d   int
	reg Regularizer // cfg.Regularizer: V_t and ũ_t
	b   RegBounds   // ρ_min, ρ_max, γ of β_t (this round's when they change)
	bnd dataBound   // the data bound the mechanism is calibrated for
	rc  radiusConsts
	t   int // rounds completed

	beta, logDet float64 // β_t and ln det V_t of the prepared round
	f            factors // V_t = L Lᵀ, M = L⁻¹, z = M ũ_t in the kernels' layout, λ_t, and the kernels' scratch (linucb_fast.go)

	err     error // the first observation Update rejected
	skipped int   // rounds UpdateErr skipped
}

// radiusConsts are the parts of β_t that do not depend on V_t:
// β_t = σ·sqrt(c0 + ln det V_t) + c1 (log-det form) or
// σ·sqrt(c0 + d ln(c2 + t·c3)) + c1 (closed form).
type radiusConsts struct {
	c0, c1, c2, c3 float64
	changing       bool       // the regularizer's bounds change every round (BoundsChange): recompute them each round
	logK           float64    // added to the self-normalised term's log (the released-shift lever's 2 ln K), else 0
	obs            minEigSeer // told λ_t each round (the released-shift lever), else nil
}

// minEigSeer is a regularizer whose next bounds depend on the released
// λ_t (the released-shift lever, released_shift.go).
type minEigSeer interface {
	ObserveMinEig(lam float64)
	SelfNormLog() float64
}

var _ bandit.Checked = (*LinUCB)(nil)

// NewLinUCB returns SS18 Algorithm 1 with the given configuration.
func NewLinUCB(cfg LinUCBConfig) (*LinUCB, error) {
	cfg, b, err := cfg.check()
	if err != nil {
		return nil, err
	}
	d := cfg.Dim
	p := &LinUCB{cfg: cfg, d: d, reg: cfg.Regularizer, b: b, bnd: boundOf(cfg.Regularizer), f: newFactors(d, cfg.Regularizer)}
	if cb, ok := cfg.Regularizer.(interface{ BoundsChange() bool }); ok && cb.BoundsChange() {
		p.rc.changing = true
	}
	if o, ok := cfg.Regularizer.(minEigSeer); ok && o.SelfNormLog() > 0 {
		p.rc.obs, p.rc.logK = o, o.SelfNormLog()
	}
	p.setRadiusConstants()
	return p, nil
}

// check validates the configuration and returns it with its defaults
// filled in, and the regularizer's first bounds.
func (cfg LinUCBConfig) check() (LinUCBConfig, RegBounds, error) {
	if err := param.CheckDim("dimension", cfg.Dim); err != nil {
		return cfg, RegBounds{}, err
	}
	if cfg.Horizon < 1 {
		return cfg, RegBounds{}, fmt.Errorf("ss18: horizon is %d, must be >= 1", cfg.Horizon)
	}
	if cfg.Regularizer == nil {
		return cfg, RegBounds{}, fmt.Errorf("ss18: LinUCB needs a regularizer (NewRegularizer)")
	}
	if rd := cfg.Regularizer.Dim(); rd != cfg.Dim {
		return cfg, RegBounds{}, fmt.Errorf("ss18: regularizer has dimension %d, LinUCB has %d", rd, cfg.Dim)
	}
	if cfg.Sigma == 0 {
		cfg.Sigma = 1
	}
	if cfg.S == 0 {
		cfg.S = 1
	}
	if cfg.L == 0 {
		cfg.L = 1
	}
	if cfg.Alpha == 0 {
		cfg.Alpha = 1 / float64(cfg.Horizon)
		if cfg.Horizon == 1 {
			cfg.Alpha = 0.5
		}
	}
	for _, c := range []struct {
		name string
		v    float64
	}{{"sigma", cfg.Sigma}, {"S", cfg.S}, {"L", cfg.L}} {
		if err := param.CheckPositive(c.name, c.v); err != nil {
			return cfg, RegBounds{}, err
		}
	}
	if err := param.CheckProb("alpha", cfg.Alpha); err != nil {
		return cfg, RegBounds{}, err
	}
	if cfg.Radius != RadiusLogDet && cfg.Radius != RadiusClosedForm && cfg.Radius != RadiusMinEig {
		return cfg, RegBounds{}, fmt.Errorf("ss18: unknown radius form %d", int(cfg.Radius))
	}
	if h, ok := cfg.Regularizer.(interface{ Horizon() int }); ok && h.Horizon() < cfg.Horizon {
		return cfg, RegBounds{}, fmt.Errorf("ss18: regularizer built for %d rounds, LinUCB horizon is %d", h.Horizon(), cfg.Horizon)
	}
	b := cfg.Regularizer.Bounds()
	if !(b.RhoMin > 0) || !(b.RhoMax >= b.RhoMin) || !(b.Gamma >= 0) || math.IsInf(b.RhoMax, 0) || math.IsInf(b.Gamma, 0) {
		return cfg, RegBounds{}, fmt.Errorf("ss18: regularizer bounds %+v unusable: need 0 < ρ_min <= ρ_max < ∞ and 0 <= γ < ∞", b)
	}
	return cfg, b, nil
}

// Choose returns the index of the action with the largest upper confidence
// bound ⟨θ̃_t, x⟩ + β_t ‖x‖_{V_t⁻¹} (the first one on ties). A decision set
// of the wrong shape or with a NaN or infinite feature panics (never
// played); [LinUCB.ChooseErr] returns the same refusals as errors.
func (p *LinUCB) Choose(r *bandit.Round) int {
	p.checkRound(r)
	p.ensure()
	a := p.chooseBlocked(r)
	if !p.finiteScores(r) {
		panic(bandit.CheckRound(r, p.d).Error() + " (ChooseErr returns it as an error)")
	}
	return a
}

// ChooseErr is Choose for decision sets a service cannot vouch for: one of
// the wrong shape or with a NaN or infinite feature is refused with an error
// naming the action and coordinate ([bandit.CheckRound]), and nothing is
// played or changed (the arm returned is then −1).
func (p *LinUCB) ChooseErr(r *bandit.Round) (int, error) {
	if r == nil || r.Dim != p.d || r.K < 1 || len(r.Actions) < r.K*r.Dim {
		return -1, bandit.CheckRound(r, p.d)
	}
	p.ensure()
	a := p.chooseBlocked(r)
	if !p.finiteScores(r) {
		return -1, bandit.CheckRound(r, p.d)
	}
	return a, nil
}

// finiteScores reports whether the decision set r just scored has only
// finite features, looking at its K scores first: a NaN or infinite feature
// x_i makes its action's score NaN or infinite. (z = M x, M = L⁻¹ lower
// triangular with M_ii = 1/L_ii finite and nonzero, so z_i holds M_ii·x_i
// and is NaN or ±Inf; then ‖x‖²_{V⁻¹} = ‖z‖² is +Inf or NaN, β_t > 0 keeps
// it so, and no IEEE sum or product of a NaN or infinite operand is
// finite.) Only when a score is not finite — a finite feature can overflow
// a score too — are the K·d features read, by [bandit.FiniteActions]; so
// the usual round pays O(K), not O(K·d).
func (p *LinUCB) finiteScores(r *bandit.Round) bool {
	var s0, s1 float64
	sc := p.f.scores[:r.K]
	for len(sc) >= 2 {
		s0 += sc[0] - sc[0]
		s1 += sc[1] - sc[1]
		sc = sc[2:]
	}
	for _, v := range sc {
		s0 += v - v
	}
	return s0+s1 == 0 || bandit.FiniteActions(r)
}

// checkRound panics unless r has the shape of a decision set this policy
// can score: the policy's dimension, K ≥ 1, K·d numbers.
func (p *LinUCB) checkRound(r *bandit.Round) {
	if r.Dim != p.d {
		panic(param.BadDim)
	}
	if r.K < 1 {
		panic(param.BadArm)
	}
	if len(r.Actions) < r.K*r.Dim {
		panic(bandit.ShortActions(r))
	}
}

// prepare forms V_t, its Cholesky factor, M = L⁻¹, z = M ũ_t and β_t for
// round t = p.t+1. θ̃_t = Mᵀ z is formed only when asked for (ThetaTo).
// prepareLockstep (linucb_fast.go) does the same for four policies at
// once, in the same three phases.
func (p *LinUCB) prepare() {
	p.prepareStats()
	prepareFactors(p)
	p.prepareFinish()
}

// prepareStats writes V_t and ũ_t into v and u (and this round's bounds
// when they change).
func (p *LinUCB) prepareStats() {
	p.f.stats(p.reg, p.d)
	if p.rc.changing {
		// SS18 Algorithm 1 with a changing regularizer: this round's ρ_max,
		// γ (ρ_min stays fixed, see NewGaussianCounterRegRound).
		p.b = p.reg.Bounds()
		p.setRadiusConstants()
	}
}

// prepareFinish computes ln det V_t and β_t from the factor in v (M and z
// are written) and marks the round prepared.
func (p *LinUCB) prepareFinish() {
	p.logDet = linalg.LogDetChol(p.f.v, p.d)
	p.f.lamOK = false
	if p.cfg.Radius == RadiusMinEig {
		p.beta = p.minEigRadius(p.lamT())
		if p.rc.obs != nil {
			p.rc.obs.ObserveMinEig(p.f.lam)
		}
	} else {
		p.beta = p.radius(p.t + 1)
	}
	p.f.fresh = true
}

// factorJittered handles a V_t that is not positive definite (possible when
// a shifted regularizer's bounds fail, e.g. the shifted Wishart in Plain
// release mode): it adds the smallest multiple of I, doubling from
// 1e-9·(|tr V|/d + 1), that makes the factorisation succeed. NotPD counts
// the rounds where this happened; the proof checks report them.
func (p *LinUCB) factorJittered() {
	d := p.d
	p.reg.StatsTo(p.f.v, p.f.u)
	var tr, minDiag float64
	minDiag = math.Inf(1)
	for i := 0; i < d; i++ {
		tr += math.Abs(p.f.v[i*d+i])
		minDiag = min(minDiag, p.f.v[i*d+i])
	}
	jit := float64(1e-9 * (tr/float64(d) + 1))
	if minDiag < 0 {
		jit += -minDiag
	}
	for {
		p.reg.StatsTo(p.f.v, p.f.u)
		for i := 0; i < d; i++ {
			p.f.v[i*d+i] += jit
		}
		if p.f.cholesky(d) {
			p.f.jit = jit
			return
		}
		jit *= 2
		if math.IsInf(jit, 0) || math.IsNaN(jit) {
			panic("ss18: V_t cannot be made positive definite (non-finite statistics)")
		}
	}
}

// setRadiusConstants caches the parts of β_t that do not depend on t.
func (p *LinUCB) setRadiusConstants() {
	cp, b := p.Confidence(), p.b
	d := float64(p.d)
	p.rc.c1 = cp.S*math.Sqrt(b.RhoMax) + b.Gamma
	if p.cfg.Radius == RadiusClosedForm {
		p.rc.c0 = 2*xmath.Log(2/cp.Alpha) + p.rc.logK
		p.rc.c2 = b.RhoMax / b.RhoMin
		p.rc.c3 = cp.L * cp.L / (d * b.RhoMin)
	} else {
		p.rc.c0 = 2*xmath.Log(2/cp.Alpha) - d*xmath.Log(b.RhoMin) + p.rc.logK
	}
}

func (p *LinUCB) Confidence() ConfidenceParams {
	return ConfidenceParams{D: p.d, Sigma: p.cfg.Sigma, S: p.cfg.S, L: p.cfg.L, Alpha: p.cfg.Alpha}
}

// invFactorRow returns (M w)_i for the inverse factor M = L⁻¹ of this round
// (lower triangular; M_ij at mt[j·dp+i]), summed in increasing j.
func (p *LinUCB) invFactorRow(i int, w []float64) float64 {
	var s float64
	for j := 0; j <= i; j++ {
		s += float64(p.f.mt[j*p.f.dp+i] * w[j])
	}
	return s
}

// radius returns β_t in the configured form: the same numbers as [BetaLogDet]
// and [BetaBar] (tested), with the t-independent parts precomputed.
func (p *LinUCB) radius(t int) float64 {
	if p.cfg.Radius == RadiusClosedForm {
		return p.cfg.Sigma*math.Sqrt(p.rc.c0+float64(p.d)*xmath.Log(p.rc.c2+float64(t)*p.rc.c3)) + p.rc.c1
	}
	return p.cfg.Sigma*math.Sqrt(max(0, p.rc.c0+p.logDet)) + p.rc.c1
}

// Update feeds round t's observation to the regularizer. An observation that
// is not finite, or outside the bound ‖x‖² + y² ≤ L̃² the mechanism is
// calibrated for (unless Clip), is never passed on: Update records the error
// (see Err) and the policy stops learning from then on.
func (p *LinUCB) Update(r *bandit.Round, arm int, y float64) {
	x := r.Action(arm)
	if err := p.Observe(x, y); err != nil && p.err == nil {
		p.err = fmt.Errorf("round %d: %w", r.T, err)
	}
}

// UpdateErr is Update for a service: an observation Update would refuse (a
// NaN or infinite context or reward, ‖x‖² + y² above L̃² without Clip, or an
// arm outside the round) is skipped, counted in [LinUCB.Skipped] and
// returned as an error, and the policy keeps learning from the next round;
// Err is not set. Past the horizon it panics, as Update does; after a sticky
// Err it returns Err and adds nothing.
//
// A skipped round enters the regularizer as the zero observation (x, y) =
// (0, 0), so the round still takes its leaf of the tree and every later
// round keeps its own. Privacy (SS18 Theorem 7 / Section 4): the tree's
// analysis needs each round's item to be a function of that round's record
// alone with ‖x‖² + y² ≤ L̃²; the item entered (the record, clipped, or zero
// when it is refused) is such a function, and zero is within the bound, so
// the neighbouring streams' trees still differ in one leaf and the (ε, δ)
// is unchanged. Skipping without a leaf would not do: every later record
// would move to the next leaf.
func (p *LinUCB) UpdateErr(r *bandit.Round, arm int, y float64) error {
	if p.err != nil {
		return p.err
	}
	if p.t >= p.cfg.Horizon {
		panic(param.PastHorizon)
	}
	var err error
	switch {
	case arm < 0 || arm >= r.K:
		err = fmt.Errorf("ss18: arm %d outside the round's %d actions", arm, r.K)
	case r.Dim != p.d || len(r.Actions) < r.K*r.Dim:
		err = bandit.CheckRound(r, p.d)
	default:
		err = p.Observe(r.Action(arm), y)
	}
	if err == nil {
		return nil
	}
	clear(p.f.xy)
	p.reg.Add(p.f.xy, 0)
	p.t++
	p.f.fresh = false
	p.skipped++
	return fmt.Errorf("round %d skipped: %w", r.T, err)
}

// Skipped returns the number of rounds UpdateErr skipped.
func (p *LinUCB) Skipped() int { return p.skipped }

// Observe validates (x, y) and adds it to the regularizer, or returns the
// reason it was rejected (nothing is added then).
func (p *LinUCB) Observe(x []float64, y float64) error {
	if p.err != nil {
		return p.err
	}
	if len(x) != p.d {
		panic(param.BadDim)
	}
	if p.t >= p.cfg.Horizon {
		panic(param.PastHorizon)
	}
	// One pass: ‖x‖² + y² is finite iff every entry is (a finite entry too
	// large to square overflows to +Inf and fails the bound anyway).
	n2 := y * y
	for _, v := range x {
		n2 += float64(v * v)
	}
	if math.IsNaN(n2) || math.IsInf(n2, 0) {
		for i, v := range x {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("ss18: context x[%d] is %v, must be finite", i, v)
			}
		}
		if math.IsNaN(y) || math.IsInf(y, 0) {
			return fmt.Errorf("ss18: reward is %v, must be finite", y)
		}
	}
	x, y, err := p.bnd.admit(x, y, n2, p.cfg.Clip, p.f.xy)
	if err != nil {
		return err
	}
	p.reg.Add(x, y)
	p.t++
	p.f.fresh = false
	return nil
}

// boundSlack is the relative tolerance of the data bound: unit-norm actions
// computed in floating point have ‖x‖² = 1 ± a few ulps, and an observation
// within L̃²(1 + 1e-12) is treated as on the bound (its effect on the
// mechanism's sensitivity, and so on ε, is below one part in 10¹²).
const boundSlack = 1e-12

// Err returns the first observation Update rejected, or nil.
func (p *LinUCB) Err() error { return p.err }

// Rounds returns the number of observations so far (t − 1 during round t).
func (p *LinUCB) Rounds() int { return p.t }

// NotPD returns the number of rounds whose V_t was not positive definite and
// was factored with added jitter.
func (p *LinUCB) NotPD() int { return p.f.notPD }

// Bounds returns the regularizer's ρ_min, ρ_max, γ used in β_t.
func (p *LinUCB) Bounds() RegBounds { return p.b }

// Radius returns β_t for the current round t = Rounds()+1.
func (p *LinUCB) Radius() float64 {
	p.ensure()
	return p.beta
}

// LogDetV returns ln det V_t for the current round.
func (p *LinUCB) LogDetV() float64 {
	p.ensure()
	return p.logDet
}

// ThetaTo writes θ̃_t = V_t⁻¹ ũ_t for the current round into dst (nil allocates).
func (p *LinUCB) ThetaTo(dst []float64) []float64 {
	p.ensure()
	dst = param.DstOf(dst, p.d)
	// θ̃ = V⁻¹ũ = Mᵀ (M ũ) = Mᵀ z: entry j is column j of M (contiguous in
	// the kernel layout) dotted with z.
	d, dp := p.d, p.f.dp
	for j := 0; j < d; j++ {
		dst[j] = linalg.Dot(p.f.mt[j*dp+j:j*dp+d], p.f.zp[j:d])
	}
	return dst
}

// VTo writes V_t (d×d row-major) for the current round into dst (nil allocates).
func (p *LinUCB) VTo(dst []float64) []float64 {
	dst = param.DstOf(dst, p.d*p.d)
	p.reg.StatsTo(dst, p.f.s)
	return dst
}

// ConfidenceDistance returns ‖θ − θ̃_t‖_{V_t} for the current round: the
// quantity SS18 Proposition 4 bounds by β_t for θ = θ*. It uses the current
// factor and allocates nothing.
func (p *LinUCB) ConfidenceDistance(theta []float64) float64 {
	p.ensure()
	d := p.d
	if len(theta) != d {
		panic(param.BadDim)
	}
	// ‖θ − θ̃‖²_V = ‖Lᵀθ − z‖² since Lᵀθ̃ = Lᵀ L⁻ᵀ z = z.
	var s float64
	for i := 0; i < d; i++ {
		w := -p.f.zp[i]
		for k := i; k < d; k++ {
			w += float64(p.f.v[k*d+i] * theta[k])
		}
		s += float64(w * w)
	}
	return math.Sqrt(s)
}

func (p *LinUCB) ensure() {
	if !p.f.fresh {
		p.prepare()
	}
}

// InvNorm returns ‖w‖_{V_t⁻¹} = ‖L_t⁻¹ w‖ for the current round, from the
// inverse factor (allocates nothing).
func (p *LinUCB) InvNorm(w []float64) float64 {
	p.ensure()
	if len(w) != p.d {
		panic(param.BadDim)
	}
	var s float64
	for i := 0; i < p.d; i++ {
		m := p.invFactorRow(i, w)
		s += float64(m * m)
	}
	return math.Sqrt(s)
}

// Regularizer returns the policy's regularizer (for the proof checks, which
// read its perturbation; the policy itself never does).
func (p *LinUCB) Regularizer() Regularizer { return p.reg }
