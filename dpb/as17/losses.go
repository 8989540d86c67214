package as17

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// DecisionSet names the decision set 𝒳 ⊂ ℝᴺ of one of AS17's three online
// linear optimisation settings (Section 2), and with it the loss set 𝒴:
//
//	Simplex  𝒳 = Δ_N (prediction with expert advice)   𝒴 = {‖l‖∞ ≤ 1}
//	Ball     𝒳 = {‖x‖₂ ≤ 1} (OLO over the sphere)       𝒴 = {‖l‖₂ ≤ 1}
//	Cube     𝒳 = {‖x‖∞ ≤ 1} (OLO over the cube)         𝒴 = {‖l‖₁ ≤ 1}
type DecisionSet int

const (
	Simplex DecisionSet = iota
	Ball
	Cube
)

func (s DecisionSet) String() string {
	switch s {
	case Simplex:
		return "simplex"
	case Ball:
		return "ball"
	case Cube:
		return "cube"
	}
	return fmt.Sprintf("DecisionSet(%d)", int(s))
}

func (s DecisionSet) valid() bool { return s == Simplex || s == Ball || s == Cube }

// LossNorm returns the p of the norm bounding 𝒴 (∞, 2 or 1).
func (s DecisionSet) LossNorm() float64 {
	switch s {
	case Simplex:
		return math.Inf(1)
	case Ball:
		return 2
	case Cube:
		return 1
	}
	panic("as17: unknown decision set")
}

// YNorm1 returns ‖𝒴‖₁ = max_{l∈𝒴} ‖l‖₁ in dimension n: n, √n, 1.
func (s DecisionSet) YNorm1(n int) float64 {
	switch s {
	case Simplex:
		return float64(n)
	case Ball:
		return math.Sqrt(float64(n))
	case Cube:
		return 1
	}
	panic("as17: unknown decision set")
}

// YNorm2 returns ‖𝒴‖₂ in dimension n: √n, 1, 1.
func (s DecisionSet) YNorm2(n int) float64 {
	if s == Simplex {
		return math.Sqrt(float64(n))
	}
	return 1
}

// XNorm2 returns ‖𝒳‖₂ in dimension n: 1, 1, √n.
func (s DecisionSet) XNorm2(n int) float64 {
	if s == Cube {
		return math.Sqrt(float64(n))
	}
	return 1
}

// Norm returns ‖l‖ in 𝒴's norm.
func (s DecisionSet) Norm(l []float64) float64 {
	var v float64
	switch s {
	case Simplex:
		for _, x := range l {
			v = math.Max(v, math.Abs(x))
		}
	case Ball:
		for _, x := range l {
			v += float64(x * x)
		}
		v = math.Sqrt(v)
	case Cube:
		for _, x := range l {
			v += math.Abs(x)
		}
	default:
		panic("as17: unknown decision set")
	}
	return v
}

// MinLinear returns min_{x∈𝒳} ⟨L, x⟩: min_i L_i, −‖L‖₂, −‖L‖₁.
func (s DecisionSet) MinLinear(L []float64) float64 {
	switch s {
	case Simplex:
		m := math.Inf(1)
		for _, v := range L {
			m = math.Min(m, v)
		}
		return m
	case Ball:
		return -Ball.Norm(L)
	case Cube:
		return -Cube.Norm(L)
	}
	panic("as17: unknown decision set")
}

// Width returns max_{x∈𝒳} ⟨Z, x⟩ − min_{x∈𝒳} ⟨Z, x⟩: max−min of the entries,
// 2‖Z‖₂ and 2‖Z‖₁. D_Lap of Theorem 3.1 is its expectation.
func (s DecisionSet) Width(z []float64) float64 {
	if s == Simplex {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range z {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		return hi - lo
	}
	return -2 * s.MinLinear(z)
}

// ArgminLinearTo writes a minimiser of ⟨L, x⟩ over 𝒳 into dst (the linear
// oracle of FTPL, Algorithm 3): the vertex e_i with i the first minimal entry,
// −L/‖L‖₂ (0 if L = 0), and −sign(L) (0 entries stay 0).
func (s DecisionSet) ArgminLinearTo(dst, L []float64) {
	if len(dst) != len(L) {
		panic(param.BadDim)
	}
	switch s {
	case Simplex:
		best := 0
		for i, v := range L {
			if v < L[best] {
				best = i
			}
		}
		clear(dst)
		dst[best] = 1
	case Ball:
		n := Ball.Norm(L)
		for i, v := range L {
			if n > 0 {
				dst[i] = -v / n
			} else {
				dst[i] = 0
			}
		}
	case Cube:
		for i, v := range L {
			switch {
			case v > 0:
				dst[i] = -1
			case v < 0:
				dst[i] = 1
			default:
				dst[i] = 0
			}
		}
	default:
		panic("as17: unknown decision set")
	}
}

// lossSlack is the rounding allowance on ‖l‖ ≤ 1: norms up to 1 + lossSlack
// are accepted as in 𝒴.
const lossSlack = 1e-9

// checkLoss validates l against 𝒴 (the unit ball of s's loss norm, scaled by
// bound) and returns the loss to use: a non-finite entry is always an error;
// a norm above bound is an error unless clip, in which case the projection
// of l back onto 𝒴 (entries clamped for ℓ∞, rescaled for ℓ₂ and ℓ₁) is
// written into buf (len(l)) and returned. The caller's l is never modified.
func checkLoss(s DecisionSet, buf, l []float64, bound float64, clip bool) ([]float64, error) {
	if err := param.CheckVectorFinite("loss", l); err != nil {
		return nil, err
	}
	n := s.Norm(l)
	if n <= bound*(1+lossSlack) {
		return l, nil
	}
	if !clip {
		return nil, fmt.Errorf("as17: loss has %s norm %v, must be <= %v (the bound the noise is calibrated for; set Clip to clip)", lossNormName(s), n, bound)
	}
	buf = buf[:len(l)]
	if s == Simplex {
		for i, v := range l {
			buf[i] = math.Max(-bound, math.Min(bound, v))
		}
		return buf, nil
	}
	f := bound / n
	for i, v := range l {
		buf[i] = v * f
	}
	return buf, nil
}

func lossNormName(s DecisionSet) string {
	switch s {
	case Simplex:
		return "l-inf"
	case Ball:
		return "l2"
	}
	return "l1"
}

// LossSequence is an oblivious loss sequence l_1, l_2, … ∈ 𝒴: Next writes
// l_t into dst. Its draws come only from its own generator, never from the
// learner's actions, so learners run from the same stream face the same losses.
type LossSequence interface {
	Dim() int
	Next(t int, dst []float64)
}

// LossKind chooses how a [Losses] sequence is generated.
type LossKind int

const (
	// Stochastic losses are i.i.d.: l_t = (1−g)ξ_t + g·u with ξ_t a
	// zero-mean random vector of 𝒴 and u a fixed unit "bias" favouring
	// coordinate 0, so a fixed decision is best by a margin set by the gap g.
	Stochastic LossKind = iota
	// WorstCase losses are pure zero-mean noise (g = 0): no decision is
	// better in expectation, and the regret of every learner against the best
	// decision in hindsight is Θ(√T) (the classical lower-bound construction).
	WorstCase
	// Switching losses are adversarial in the sense of changing the best
	// decision: the horizon is cut into Phases equal phases and phase k biases
	// coordinate k mod N, so a learner must keep tracking the leader.
	Switching
)

func (k LossKind) String() string {
	switch k {
	case Stochastic:
		return "stochastic"
	case WorstCase:
		return "worst-case"
	case Switching:
		return "switching"
	}
	return fmt.Sprintf("LossKind(%d)", int(k))
}

// LossConfig configures [NewLosses].
type LossConfig struct {
	// Set gives 𝒴 (see [DecisionSet]). Defaults to Simplex.
	Set DecisionSet
	// Dim is N. Required (>= 1; >= 2 for Simplex).
	Dim int
	// Kind of sequence. Defaults to Stochastic.
	Kind LossKind
	// Gap g ∈ [0, 1], the weight of the bias. Defaults to 0.5 for
	// Stochastic and Switching; ignored (0) for WorstCase.
	Gap float64
	// Horizon T. Required for Switching (phases are T/Phases rounds long).
	Horizon int
	// Phases of a Switching sequence. Defaults to 4.
	Phases int
}

// Losses is the [LossSequence] built by [NewLosses]. Per set, with s_i
// i.i.d. uniform signs:
//
//	Simplex: ξ = s (entries ±1),        u = 1 − 2e_b   (every expert but b loses)
//	Ball:    ξ = s/√N,                  u = −e_b
//	Cube:    ξ = s_j e_j, j uniform,    u = −e_b
//
// and l_t = (1−g)ξ_t + g u, so ‖l_t‖ ≤ 1 in 𝒴's norm; b is 0, or k mod N in
// phase k of a Switching sequence.
type Losses struct {
	cfg LossConfig
	rng *rand.Rand
}

// NewLosses returns the loss sequence cfg describes, drawing from rng.
func NewLosses(cfg LossConfig, rng *rand.Rand) (*Losses, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	if !cfg.Set.valid() {
		return nil, fmt.Errorf("as17: unknown decision set %d", int(cfg.Set))
	}
	if err := param.CheckDim("dimension", cfg.Dim); err != nil {
		return nil, err
	}
	if cfg.Set == Simplex && cfg.Dim < 2 {
		return nil, fmt.Errorf("as17: dimension is %d, must be >= 2 for the simplex", cfg.Dim)
	}
	switch cfg.Kind {
	case Stochastic, Switching:
		if cfg.Gap == 0 {
			cfg.Gap = 0.5
		}
	case WorstCase:
		cfg.Gap = 0
	default:
		return nil, fmt.Errorf("as17: unknown loss kind %d", int(cfg.Kind))
	}
	if math.IsNaN(cfg.Gap) || cfg.Gap < 0 || cfg.Gap > 1 {
		return nil, fmt.Errorf("as17: gap is %v, must be in [0, 1]", cfg.Gap)
	}
	if cfg.Kind == Switching {
		if cfg.Phases == 0 {
			cfg.Phases = 4
		}
		if cfg.Phases < 1 {
			return nil, fmt.Errorf("as17: phases is %d, must be >= 1", cfg.Phases)
		}
		if cfg.Horizon < 1 {
			return nil, fmt.Errorf("as17: horizon is %d, must be >= 1 for switching losses", cfg.Horizon)
		}
	}
	return &Losses{cfg: cfg, rng: rng}, nil
}

// Dim returns N.
func (l *Losses) Dim() int { return l.cfg.Dim }

// Config returns the configuration with defaults filled in.
func (l *Losses) Config() LossConfig { return l.cfg }

// Best returns b, the coordinate the bias favours in round t.
func (l *Losses) Best(t int) int {
	if l.cfg.Kind != Switching {
		return 0
	}
	phase := (t - 1) * l.cfg.Phases / l.cfg.Horizon
	return phase % l.cfg.Dim
}

// Next writes l_t into dst (len N).
func (l *Losses) Next(t int, dst []float64) {
	n := l.cfg.Dim
	if len(dst) != n {
		panic(param.BadDim)
	}
	g := l.cfg.Gap
	a := 1 - g
	b := l.Best(t)
	switch l.cfg.Set {
	case Simplex:
		for i := range dst {
			dst[i] = float64(a*sign(l.rng)) + g
		}
		dst[b] -= 2 * g
	case Ball:
		s := a / math.Sqrt(float64(n))
		for i := range dst {
			dst[i] = s * sign(l.rng)
		}
		dst[b] -= g
	case Cube:
		clear(dst)
		j := l.rng.IntN(n)
		dst[j] = a * sign(l.rng)
		dst[b] -= g
	}
}

func sign(rng *rand.Rand) float64 {
	if rng.Uint64()>>63 == 1 {
		return -1
	}
	return 1
}
