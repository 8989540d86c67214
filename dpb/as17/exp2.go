package as17

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/internal/noisescale"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// BanditLearner is a bandit linear optimisation learner (AS17 Section 4):
// each round it plays x̃_t ∈ 𝒳 (Play writes it into dst; nil allocates) and
// then sees only the scalar loss ⟨l_t, x̃_t⟩ (Feedback). Feedback returns an
// error for a non-finite loss, or one outside the bound a private learner's
// noise is calibrated for. For K-armed bandits x̃_t is a vertex e_i.
type BanditLearner interface {
	Play(dst []float64) []float64
	Feedback(loss float64) error
}

var (
	_ BanditLearner = (*Exp2)(nil)
	_ BanditLearner = (*PrivateBandit)(nil)
	_ BanditLearner = (*SCRiBLE)(nil)
)

// Exp2Config configures [NewExp2] and [NewPrivateExp2].
type Exp2Config struct {
	// Arms is N >= 2. Required.
	Arms int
	// Horizon T >= 2. Required.
	Horizon int
	// Epsilon ε sets λ = 1/ε and the default η, γ (Theorem 4.1). Required:
	// > 0, or +Inf for non-private EXP2 (λ = 0).
	Epsilon float64
	// Eta and Gamma default to [Exp2Params] (as printed).
	Eta, Gamma float64
	// CorrectedGamma uses [Exp2GammaCorrected] as the default γ instead.
	CorrectedGamma bool
	// Lambda is the Laplace scale of Algorithm 4 (NewPrivateExp2 only).
	// Defaults to 1/ε as printed (Lemma 4.2 with B = 1); 2/ε is the scale
	// that is ε-DP when neighbours replace a loss (see [PrivateBandit]).
	Lambda float64
	// Clip clips losses outside [−1, 1] instead of rejecting them
	// (NewPrivateExp2 only).
	Clip bool
	// Noise selects Algorithm 4's sampler (NewPrivateExp2 only; see
	// [PrivateBanditConfig.Noise]): unset (noise.Default) is noise.Secure,
	// exact discrete Laplace from crypto/rand; noise.Simulated, the seeded
	// floating-point noise the experiments run, must be named.
	Noise noise.Mode
}

// Exp2 is EXP2 with exploration μ, AS17 Algorithm 5, for K-armed bandits
// (𝒳 = {e_1, …, e_N}, μ uniform):
//
//	p_t = (1−γ) q_t + γ/N;  play i_t ~ p_t
//	l̃_t = P_t⁺ e_{i_t} e_{i_t}ᵀ l_t = (ℓ_t / p_t(i_t)) e_{i_t}   (P_t = diag(p_t))
//	q_{t+1}(i) ∝ q_t(i) exp(−η l̃_t(i))
//
// ℓ_t is whatever the caller feeds back: the true loss (non-private) or the
// Algorithm 4 noisy one (see [PrivateBandit]). Exp2 itself adds no noise.
// Weights are kept as logarithms, so noisy (negative, large) estimates cannot
// overflow. Cost per round: O(N); no allocation.
//
// An Exp2 is not safe for concurrent use: share it between goroutines
// behind a mutex.
type Exp2 struct {
	cfg  Exp2Config
	rng  *rand.Rand
	logw []float64
	p    []float64
	arm  int
}

// NewExp2 returns Algorithm 5 with the parameters of cfg.
func NewExp2(cfg Exp2Config, rng *rand.Rand) (*Exp2, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	if cfg.Arms < 2 {
		return nil, fmt.Errorf("as17: arms is %d, must be >= 2", cfg.Arms)
	}
	if cfg.Horizon < 2 {
		return nil, fmt.Errorf("as17: horizon is %d, must be >= 2", cfg.Horizon)
	}
	if !math.IsInf(cfg.Epsilon, 1) {
		if err := param.CheckEpsilon(cfg.Epsilon); err != nil {
			return nil, err
		}
	}
	eta, gamma := Exp2Params(cfg.Arms, cfg.Horizon, cfg.Epsilon)
	if cfg.CorrectedGamma {
		gamma = Exp2GammaCorrected(cfg.Arms, cfg.Horizon, cfg.Epsilon)
	}
	if cfg.Eta == 0 {
		cfg.Eta = eta
	}
	if cfg.Gamma == 0 {
		cfg.Gamma = math.Min(1, gamma)
	}
	if err := param.CheckPositive("eta", cfg.Eta); err != nil {
		return nil, err
	}
	if math.IsNaN(cfg.Gamma) || cfg.Gamma <= 0 || cfg.Gamma > 1 {
		return nil, fmt.Errorf("as17: gamma is %v, must be in (0, 1]", cfg.Gamma)
	}
	e := &Exp2{cfg: cfg, rng: rng, logw: make([]float64, cfg.Arms), p: make([]float64, cfg.Arms), arm: -1}
	e.probs()
	return e, nil
}

// Config returns the configuration with defaults filled in.
func (e *Exp2) Config() Exp2Config { return e.cfg }

// probs sets p = (1−γ) softmax(logw) + γ/N.
func (e *Exp2) probs() {
	m := math.Inf(-1)
	for _, v := range e.logw {
		m = math.Max(m, v)
	}
	var z float64
	for i, v := range e.logw {
		e.p[i] = xmath.Exp(v - m)
		z += e.p[i]
	}
	g, u := e.cfg.Gamma, 1/float64(len(e.p))
	for i := range e.p {
		e.p[i] = float64((1-g)*e.p[i]/z) + float64(g*u)
	}
}

// Probs returns p_t (owned by e; valid until the next Feedback).
func (e *Exp2) Probs() []float64 { return e.p }

// Arm returns the arm drawn by the last Play, or −1 once its loss has been
// fed back.
func (e *Exp2) Arm() int { return e.arm }

// Play draws i_t ~ p_t and writes e_{i_t} into dst.
func (e *Exp2) Play(dst []float64) []float64 {
	dst = param.DstOf(dst, len(e.p))
	u := e.rng.Float64()
	e.arm = len(e.p) - 1
	for i, p := range e.p {
		u -= p
		if u < 0 {
			e.arm = i
			break
		}
	}
	clear(dst)
	dst[e.arm] = 1
	return dst
}

// Feedback applies the exponential-weights update with l̃_t = ℓ/p_t(i_t).
func (e *Exp2) Feedback(loss float64) error {
	if e.arm < 0 {
		panic("as17: Feedback without Play")
	}
	if err := param.CheckFinite("loss", loss); err != nil {
		return err
	}
	e.logw[e.arm] -= e.cfg.Eta * loss / e.p[e.arm]
	e.arm = -1
	e.probs()
	return nil
}

// PrivateBanditConfig configures [NewPrivateBandit].
type PrivateBanditConfig struct {
	// Dim is N, the dimension of the played points. Required.
	Dim int
	// Lambda is the Laplace scale λ of Z_t ~ Lap^N(λ). Required (> 0);
	// Lemma 4.2: λ = B/ε.
	Lambda float64
	// Bound is B of Lemma 4.2: |⟨l, x̃_t⟩| ≤ B ‖x̃_t‖∞ for every l ∈ 𝒴.
	// Feedback with |ℓ| > B‖x̃_t‖∞ is rejected (or clipped). Required.
	Bound float64
	// Clip clips out-of-bound losses to ±B‖x̃_t‖∞ instead of rejecting them.
	Clip bool
	// Noise selects the sampler of Z_t. Unset (noise.Default) it is
	// noise.Secure: exact discrete Laplace on a grid from crypto/rand, no
	// seed (see [PrivateBandit]); noise.SecureSeeded draws the same law from
	// the constructor's generator; noise.Simulated, the seeded
	// floating-point Lap(λ) of the experiments, reproducible and not a
	// release-grade guarantee (its low bits can reveal the loss), must be
	// named.
	Noise noise.Mode
}

// PrivateBandit is AS17 Algorithm 4, the reduction to the non-private
// setting: it plays the inner learner's x̃_t and forwards
//
//	⟨l_t, x̃_t⟩ + ⟨Z_t, x̃_t⟩,   Z_t ~ Lap^N(λ),
//
// to it. By Lemma 4.2 the played sequence is ε-DP for λ = B/ε (the proof's
// sensitivity is that of one loss, ‖l^Fict‖₁ ≤ B; replacing a loss moves it by
// up to 2B, so λ = 2B/ε is the safe scale for Definition 2.1's neighbours).
// Only the coordinates where x̃_t ≠ 0 are drawn (the others do not enter
// ⟨Z_t, x̃_t⟩), so EXP2 costs one Laplace draw per round.
//
// Secure noise (noise.Secure, noise.SecureSeeded): with j* the first
// coordinate where |x̃_j| = ‖x̃_t‖∞, the reduction releases the loss
// normalised and clamped, v = clamp(ℓ/‖x̃_t‖∞, −B, B) (replacing a loss
// moves it by at most 2B), rounded to the grid g and plus g·k, k an exact
// discrete Laplace draw: m = ⌊v⌉_g + g·k, the discrete Laplace mechanism
// with scale τ = ⌈λ(1 + g/(2B))/g⌉ grid steps (noise.NewSecureLaplaceNoise
// for sensitivity 2B), (2B/λ)-DP as the continuous one (its ratio bound;
// dpb/counter's grid.go). The learner gets ‖x̃_t‖∞·m + Σ_{j≠j*} x̃_j·g·k_j,
// with fresh discrete draws k_j for the other coordinates: a function of m
// and data-independent draws (post-processing), whose law is Algorithm 4's
// with discrete Laplace Z_t (x̃_{j*}Z_{j*} and ‖x̃_t‖∞Z_{j*} have the same
// law). Nothing of ℓ reaches the learner but through m.
//
// A PrivateBandit is not safe for concurrent use: share it between goroutines
// behind a mutex.
type PrivateBandit struct {
	cfg   PrivateBanditConfig
	inner BanditLearner
	rng   *rand.Rand
	x     []float64
	xinf  float64
	sec   *noise.SecureNoise // the discrete Laplace of the secure modes, else nil
	draw  [1]float64
}

// NewPrivateBandit wraps inner in Algorithm 4.
func NewPrivateBandit(inner BanditLearner, cfg PrivateBanditConfig, rng *rand.Rand) (*PrivateBandit, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	if inner == nil {
		return nil, fmt.Errorf("as17: nil inner learner")
	}
	if err := param.CheckDim("dimension", cfg.Dim); err != nil {
		return nil, err
	}
	if err := param.CheckPositive("lambda", cfg.Lambda); err != nil {
		return nil, err
	}
	if err := param.CheckPositive("loss bound", cfg.Bound); err != nil {
		return nil, err
	}
	if err := noise.CheckMode(cfg.Noise); err != nil {
		return nil, err
	}
	cfg.Noise = cfg.Noise.Resolve()
	pb := &PrivateBandit{cfg: cfg, inner: inner, rng: rng, x: make([]float64, cfg.Dim), xinf: -1}
	if cfg.Noise.Secure() {
		snAny, err := noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: cfg.Noise, Dim: 1, Scale: cfg.Lambda, Sensitivity: 2 * cfg.Bound}, rng)
		if err != nil {
			return nil, err
		}
		sn := snAny.(*noise.SecureNoise)
		pb.sec = sn
	}
	return pb, nil
}

// Config returns the configuration with the resolved noise mode.
func (pb *PrivateBandit) Config() PrivateBanditConfig { return pb.cfg }

// Inner returns the wrapped learner.
func (pb *PrivateBandit) Inner() BanditLearner { return pb.inner }

// Play returns the inner learner's x̃_t.
func (pb *PrivateBandit) Play(dst []float64) []float64 {
	dst = param.DstOf(dst, pb.cfg.Dim)
	pb.inner.Play(pb.x)
	pb.xinf = 0
	for _, v := range pb.x {
		pb.xinf = math.Max(pb.xinf, math.Abs(v))
	}
	copy(dst, pb.x)
	return dst
}

// Feedback validates ℓ = ⟨l_t, x̃_t⟩ against B‖x̃_t‖∞ and forwards ℓ + ⟨Z_t, x̃_t⟩.
func (pb *PrivateBandit) Feedback(loss float64) error {
	if pb.xinf < 0 {
		panic("as17: Feedback without Play")
	}
	if err := param.CheckFinite("loss", loss); err != nil {
		return err
	}
	if b := pb.cfg.Bound * pb.xinf; math.Abs(loss) > b*(1+lossSlack) {
		if !pb.cfg.Clip {
			return fmt.Errorf("as17: loss is %v, must be within ±%v = B‖x̃‖∞ (the bound the noise is calibrated for; set Clip to clip)", loss, b)
		}
		loss = math.Copysign(b, loss)
	}
	if pb.sec != nil {
		loss = pb.secureLoss(loss)
	} else {
		for _, v := range pb.x {
			if v != 0 {
				loss += float64(v * noisescale.Scale(noise.Laplace(pb.rng, pb.cfg.Lambda)))
			}
		}
	}
	pb.xinf = -1
	return pb.inner.Feedback(loss)
}

// secureLoss returns the secure mode's noisy loss (see [PrivateBandit]):
// ‖x̃‖∞·(⌊clamp(ℓ/‖x̃‖∞, −B, B)⌉_g + g·k) + Σ_{j≠j*} x̃_j·g·k_j.
func (pb *PrivateBandit) secureLoss(loss float64) float64 {
	xi, b, g := pb.xinf, pb.cfg.Bound, pb.sec.Grid()
	if xi == 0 { // x̃_t = 0: the loss is 0 and nothing is released
		return 0
	}
	v := math.Max(-b, math.Min(b, loss/xi))
	pb.sec.Sample(pb.draw[:])
	m := float64(math.RoundToEven(v/g)*g) + pb.draw[0] // the mechanism's release
	out := float64(xi * m)
	star := true
	for _, x := range pb.x {
		if x == 0 {
			continue
		}
		if star && math.Abs(x) == xi {
			star = false // j*: its noise is in m
			continue
		}
		pb.sec.Sample(pb.draw[:])
		out += float64(x * pb.draw[0])
	}
	return out
}

// NewPrivateExp2 returns the private EXP2 of Theorem 4.1: Algorithm 4 with
// λ = 1/ε and B = 1 (‖l_t‖∞ ≤ 1) around Algorithm 5 with the theorem's η, γ.
// With ε = +Inf it returns the bare (non-private) Algorithm 5.
func NewPrivateExp2(cfg Exp2Config, rng *rand.Rand) (BanditLearner, error) {
	e, err := NewExp2(cfg, rng)
	if err != nil {
		return nil, err
	}
	if math.IsInf(cfg.Epsilon, 1) {
		return e, nil
	}
	lam := cfg.Lambda
	if lam == 0 {
		lam = 1 / cfg.Epsilon
	}
	return NewPrivateBandit(e, PrivateBanditConfig{Dim: cfg.Arms, Lambda: lam, Bound: 1, Clip: cfg.Clip, Noise: cfg.Noise}, rng)
}
