package as17

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// SCRiBLEConfig configures [NewSCRiBLE] and [NewPrivateSCRiBLE].
type SCRiBLEConfig struct {
	// Set is Ball or Cube (with the barriers of [SCRiBLE]). Defaults to Ball.
	// The zero value of DecisionSet is Simplex, which is rejected; use Ball
	// or Cube explicitly.
	Set DecisionSet
	// Dim is N. Required.
	Dim int
	// Horizon T >= 2. Required.
	Horizon int
	// Epsilon ε: λ = ‖𝒴‖₁/ε and the default η (Theorem 4.5). Required:
	// > 0, or +Inf for non-private SCRiBLE.
	Epsilon float64
	// Eta defaults to [SCRiBLEEta].
	Eta float64
	// Lambda is the Laplace scale of Algorithm 4 (NewPrivateSCRiBLE only).
	// Defaults to [SCRiBLELambda] = ‖𝒴‖₁/ε as printed; twice that is ε-DP
	// when neighbours replace a loss (see [PrivateBandit]).
	Lambda float64
	// Clip clips out-of-bound losses instead of rejecting them
	// (NewPrivateSCRiBLE only).
	Clip bool
	// Noise selects Algorithm 4's sampler (NewPrivateSCRiBLE only; see
	// [PrivateBanditConfig.Noise]): unset (noise.Default) is noise.Secure;
	// noise.Simulated must be named.
	Noise noise.Mode
}

// SCRiBLE is the bandit linear optimisation algorithm of Abernethy, Hazan &
// Rakhlin (2008/2012) used by AS17 Theorem 4.5, with a ν-self-concordant
// barrier R on 𝒳:
//
//	Ball  R(x) = −log(1 − ‖x‖²)        ν = 1
//	Cube  R(x) = −Σ log(1 − x_i²)      ν = 2N
//
// Each round, with {(λ_i, e_i)} the eigen-decomposition of ∇²R(x_t):
//
//	pick i uniformly, s = ±1;  play y_t = x_t + s λ_i^{-1/2} e_i   (on the Dikin ellipsoid, so y_t ∈ 𝒳)
//	l̃_t = N ℓ_t s λ_i^{1/2} e_i   (ℓ_t the fed-back loss)
//	x_{t+1} = argmin_x η ⟨Σ_{s≤t} l̃_s, x⟩ + R(x)
//
// For these two barriers the argmin and the eigenvectors are closed form:
// ball x = −a/(1+√(1+a²)) · L/‖L‖ with a = η‖L‖ (eigenvectors x̂ with λ =
// 2(1+r²)/(1−r²)² and its complement with λ = 2/(1−r²)); cube, coordinatewise
// x_i = −g/(1+√(1+g²)), g = ηL_i (eigenvectors e_i, λ_i = (1−x_i)⁻² + (1+x_i)⁻²).
// The analysis needs η‖l̃_t‖*_{x_t} = ηN|ℓ_t| ≲ 1/2; a much larger step can
// drive x_t to the boundary, where λ_i^{1/2} and so l̃_t blow up (Feedback
// then returns an error once the estimates overflow).
// Cost per round: O(N); no allocation.
//
// An SCRiBLE is not safe for concurrent use: share it between goroutines
// behind a mutex.
type SCRiBLE struct {
	cfg  SCRiBLEConfig
	rng  *rand.Rand
	x    []float64 // x_t
	sum  []float64 // Σ l̃_s
	dir  []float64 // e_i of the current round
	coef float64   // N s λ_i^{1/2}, or 0 before Play
	// Distances to the boundary, computed without cancellation so that x
	// stays strictly inside even when the argmin is 1 − 1e−20 from it:
	// ball: in = 1 − ‖x‖²; cube: gap[i] = 1 − |x_i|.
	in  float64
	gap []float64
}

// NewSCRiBLE returns non-private SCRiBLE; feed it noisy losses through
// [PrivateBandit] (or use [NewPrivateSCRiBLE]).
func NewSCRiBLE(cfg SCRiBLEConfig, rng *rand.Rand) (*SCRiBLE, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	if cfg.Set != Ball && cfg.Set != Cube {
		return nil, fmt.Errorf("as17: SCRiBLE decision set is %v, must be ball or cube", cfg.Set)
	}
	if err := param.CheckDim("dimension", cfg.Dim); err != nil {
		return nil, err
	}
	if cfg.Horizon < 2 {
		return nil, fmt.Errorf("as17: horizon is %d, must be >= 2", cfg.Horizon)
	}
	if !math.IsInf(cfg.Epsilon, 1) {
		if err := param.CheckEpsilon(cfg.Epsilon); err != nil {
			return nil, err
		}
	}
	if cfg.Eta == 0 {
		cfg.Eta = SCRiBLEEta(cfg.Set, cfg.Dim, cfg.Horizon, cfg.Epsilon)
	}
	if err := param.CheckPositive("eta", cfg.Eta); err != nil {
		return nil, err
	}
	n := cfg.Dim
	sc := &SCRiBLE{cfg: cfg, rng: rng, x: make([]float64, n), sum: make([]float64, n), dir: make([]float64, n), in: 1, gap: make([]float64, n)}
	for i := range sc.gap {
		sc.gap[i] = 1
	}
	return sc, nil
}

// Config returns the configuration with defaults filled in.
func (s *SCRiBLE) Config() SCRiBLEConfig { return s.cfg }

// Center returns x_t, the centre of the current Dikin ellipsoid (owned by s).
func (s *SCRiBLE) Center() []float64 { return s.x }

// Play samples y_t on the Dikin ellipsoid of x_t and writes it into dst.
func (s *SCRiBLE) Play(dst []float64) []float64 {
	n := s.cfg.Dim
	dst = param.DstOf(dst, n)
	i := s.rng.IntN(n)
	sg := sign(s.rng)
	lam := s.eigen(i)
	s.coef = float64(n) * sg * math.Sqrt(lam)
	step := sg / math.Sqrt(lam)
	for j, v := range s.x {
		dst[j] = v + float64(step*s.dir[j])
	}
	return dst
}

// eigen writes the i-th eigenvector of ∇²R(x_t) into s.dir and returns its eigenvalue.
func (s *SCRiBLE) eigen(i int) float64 {
	clear(s.dir)
	if s.cfg.Set == Cube {
		s.dir[i] = 1
		g := s.gap[i] // 1 − |x_i|; the other distance is 2 − g
		return 1/(g*g) + 1/((2-g)*(2-g))
	}
	var r2 float64
	for _, v := range s.x {
		r2 += float64(v * v)
	}
	if r2 == 0 {
		s.dir[i] = 1
		return 2
	}
	r := math.Sqrt(r2)
	// Householder H = I − 2wwᵀ/wᵀw with H e_0 = ±x̂: column i of H is an
	// orthonormal basis vector, column 0 spans x.
	x0 := s.x[0] / r
	sgn := -1.0
	if x0 > 0 {
		sgn = 1 // w = e_0 + x̂ is the stable choice when x̂ ≈ e_0
	}
	// w = e_0 + sgn·x̂, wᵀw = 2(1 + sgn·x0).
	ww := 2 * (1 + float64(sgn*x0))
	wi := sgn * s.x[i] / r
	if i == 0 {
		wi += 1
	}
	f := 2 * wi / ww
	for j, v := range s.x {
		wj := sgn * v / r
		if j == 0 {
			wj += 1
		}
		s.dir[j] = -f * wj
	}
	s.dir[i] += 1
	d := s.in
	if i == 0 {
		return 2 * (2 - d) / (d * d)
	}
	return 2 / d
}

// Feedback forms l̃_t and moves x to argmin η⟨Σ l̃, x⟩ + R(x).
func (s *SCRiBLE) Feedback(loss float64) error {
	if s.coef == 0 {
		panic("as17: Feedback without Play")
	}
	if err := param.CheckFinite("loss", loss); err != nil {
		return err
	}
	c := s.coef * loss
	for j, v := range s.dir {
		s.sum[j] += c * v
		if math.IsInf(s.sum[j], 0) || math.IsNaN(s.sum[j]) {
			return fmt.Errorf("as17: SCRiBLE loss estimate overflowed (eta %v too large for the noise)", s.cfg.Eta)
		}
	}
	s.coef = 0
	eta := s.cfg.Eta
	if s.cfg.Set == Cube {
		for j, v := range s.sum {
			g := eta * v
			x, gap := barrierStep(g)
			s.x[j], s.gap[j] = -x, gap
		}
		return nil
	}
	var n2 float64
	for _, v := range s.sum {
		n2 += float64(v * v)
	}
	if n2 == 0 {
		clear(s.x)
		s.in = 1
		return nil
	}
	nl := math.Sqrt(n2)
	rad, gap := barrierStep(eta * nl)
	s.in = gap * (2 - gap) // 1 − r² = (1 − r)(1 + r)
	for j, v := range s.sum {
		s.x[j] = -rad * v / nl
	}
	return nil
}

// barrierStep returns r = g/(1+√(1+g²)), the minimiser of g·r − log(1 − r²)
// negated (|r| < 1), and 1 − |r| computed without cancellation:
// 1 − |r| = (1 + 1/(√(1+g²)+|g|)) / (1 + √(1+g²)).
func barrierStep(g float64) (r, gap float64) {
	q := math.Hypot(1, g)
	r = g / (1 + q)
	gap = (1 + 1/(q+math.Abs(g))) / (1 + q)
	return r, gap
}

// NewPrivateSCRiBLE returns the private SCRiBLE of Theorem 4.5: Algorithm 4
// with λ = ‖𝒴‖₁/ε and B = ‖𝒴‖₁ around SCRiBLE with the theorem's η (for
// ε = +Inf, bare SCRiBLE). 𝒴 is the unit ℓ2 ball for Ball and the unit ℓ1
// ball for Cube, so |⟨l, y⟩| ≤ ‖l‖₁‖y‖∞ ≤ ‖𝒴‖₁‖y‖∞ as Lemma 4.2 needs.
func NewPrivateSCRiBLE(cfg SCRiBLEConfig, rng *rand.Rand) (BanditLearner, error) {
	s, err := NewSCRiBLE(cfg, rng)
	if err != nil {
		return nil, err
	}
	if math.IsInf(cfg.Epsilon, 1) {
		return s, nil
	}
	b := cfg.Set.YNorm1(cfg.Dim)
	lam := cfg.Lambda
	if lam == 0 {
		lam = SCRiBLELambda(cfg.Set, cfg.Dim, cfg.Epsilon)
	}
	return NewPrivateBandit(s, PrivateBanditConfig{Dim: cfg.Dim, Lambda: lam, Bound: b, Clip: cfg.Clip, Noise: cfg.Noise}, rng)
}
