package mt14

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// ContextMechanism says how [ContextualUCB] releases A = Σ zzᵀ and b = Σ z·y.
type ContextMechanism int

const (
	// ContextNonPrivate uses the exact sums: LinUCB (Li et al. 2010).
	ContextNonPrivate ContextMechanism = iota
	// ContextEntryTrees is MT14 Algorithm 2: one Laplace tree counter per
	// entry A_ij (i ≤ j) and b_i, each ε₀-DP with ε₀ = 2ε/(d² + 3d).
	ContextEntryTrees
	// ContextSS18Tree streams the packed (d+1)×(d+1) matrix [z; y][z; y]ᵀ into
	// one tree, as Shariff & Sheffet (2018) Section 4 do, with Laplace node
	// noise calibrated to its ℓ1 sensitivity at the same ε.
	ContextSS18Tree
)

func (m ContextMechanism) String() string {
	switch m {
	case ContextNonPrivate:
		return "non-private"
	case ContextEntryTrees:
		return "entry-trees"
	case ContextSS18Tree:
		return "ss18-tree"
	}
	return fmt.Sprintf("ContextMechanism(%d)", int(m))
}

// ContextualUCBConfig configures [ContextualUCB].
type ContextualUCBConfig struct {
	// Dim is d, the length of every arm's context z_a(t). Required.
	Dim int
	// Arms is k. Required (>= 1).
	Arms int
	// Horizon is T, the number of leaves of every tree (the most updates).
	// Required (>= 1).
	Horizon int
	// Mechanism releasing A and b. Defaults to ContextNonPrivate.
	Mechanism ContextMechanism
	// Epsilon is ε of the whole algorithm. Required unless ContextNonPrivate.
	Epsilon float64
	// Alpha is the exploration parameter α. Defaults to 1.
	Alpha float64
	// Disjoint keeps one model (A_a, b_a and their trees) per arm, LinUCB with
	// disjoint models (Li et al. 2010, Algorithm 1); otherwise one model is
	// shared by all arms, as MT14 Algorithm 2 prints it. A round's data enters
	// only the pulled arm's trees, so ε is the same either way.
	Disjoint bool
	// PrintedWidth uses the width α·sqrt(zᵀÃz) that the text of MT14
	// Algorithm 2, line 7, prints; the default α·sqrt(zᵀÃ⁻¹z) is LinUCB's.
	PrintedWidth bool
	// Mode is the trees' release mode. Defaults (counter.ModeDefault) to
	// Plain, the binary mechanism MT14 cites.
	Mode counter.ReleaseMode
	// Noise selects the sampler. Unset (noise.Default) it is
	// noise.Secure: exact discrete Laplace on a grid from crypto/rand, no
	// seed, not reproducible (see [noise.Mode]). noise.Simulated, the
	// seeded floating-point noise every experiment runs, reproducible and
	// not a release-grade guarantee, must be named. Config and Privacy
	// report the resolved mode.
	Noise noise.Mode
	// Clip clips context entries and rewards into [0, 1] instead of
	// panicking on them. Defaults to false.
	Clip bool
}

// ContextualUCB is private contextual UCB sampling, MT14 Algorithm 2 (with
// the non-private LinUCB of Li et al. 2010 and an SS18-style single tree as
// alternatives, see [ContextMechanism]).
//
// At round t with contexts z_a(t) ∈ [0, 1]^d it reads the released
//
//	Ã = I_d + Σ_{s<t} z_s z_sᵀ + noise,   b̃ = Σ_{s<t} z_s y_s + noise
//
// (A starts at I_d, line 1) and pulls
//
//	argmax_a z_aᵀÃ⁻¹b̃ + α·sqrt(z_aᵀÃ⁻¹z_a)     if Ã is positive definite,
//	argmax_a z_aᵀb̃    + α·sqrt(z_aᵀz_a)        otherwise (line 9).
//
// Privacy (neighbours differ in one round's context and reward): contexts
// must lie in [0, 1]^d and rewards in [0, 1], so every entry z_i z_j and z_i y
// of one round lies in [0, 1] and moves by at most 1 — exactly the counters of
// MT14 Section 2.1.
//
//   - ContextEntryTrees: (d² + 3d)/2 counters, each with Lap(m/ε₀) per node,
//     m = TreeLevels(T), ε₀ = 2ε/(d² + 3d) ([Epsilon0]); they compose to ε.
//     They are stored as one vector TreeSum with i.i.d. Laplace coordinates,
//     which has exactly the distribution of separate trees.
//   - ContextSS18Tree: the packed vector of v vᵀ, v = [z; y] ∈ [0, 1]^{d+1},
//     P = (d+1)(d+2)/2 entries, has ℓ1 sensitivity Σ_{i≤j} v_i v_j ≤ P, so each
//     node carries Lap(m·P/ε) per entry (the y² entry is unused but streamed,
//     as in SS18). At equal ε this is the entry-tree scale times P/(P−1).
//
// Choose is O(k d²); Update is one tree Add, one O(d³) Cholesky inverse of
// the pulled model. Nothing allocates after construction.
//
// A ContextualUCB is not safe for concurrent use: share it between goroutines
// through [bandit.NewLocked].
type ContextualUCB struct {
	cfg    ContextualUCBConfig
	d      int
	scale  float64 // Laplace scale per node entry (0: non-private)
	models []ctxModel
	vec    []float64 // one round's stream value
	z      []float64 // clipped context scratch
}

type ctxModel struct {
	tree *counter.TreeSum
	rel  []float64 // released stream sum
	a    []float64 // Ã, d×d
	inv  []float64 // Ã⁻¹ when pd
	chol []float64 // scratch
	b    []float64 // b̃
	th   []float64 // Ã⁻¹b̃
	pd   bool
}

var _ bandit.Policy = (*ContextualUCB)(nil)

// NewContextualUCB returns the policy drawing noise from rng.
func NewContextualUCB(cfg ContextualUCBConfig, rng *rand.Rand) (*ContextualUCB, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	if err := param.CheckDim("dim", cfg.Dim); err != nil {
		return nil, err
	}
	if cfg.Arms < 1 {
		return nil, fmt.Errorf("mt14: arms is %d, must be >= 1", cfg.Arms)
	}
	if cfg.Horizon < 1 {
		return nil, fmt.Errorf("mt14: horizon is %d, must be >= 1", cfg.Horizon)
	}
	if cfg.Alpha == 0 {
		cfg.Alpha = 1
	}
	if cfg.Mode == counter.ModeDefault {
		cfg.Mode = counter.Plain // the binary mechanism MT14 cites
	}
	if err := param.CheckNonNegative("alpha", cfg.Alpha); err != nil {
		return nil, err
	}
	if err := noise.CheckMode(cfg.Noise); err != nil {
		return nil, err
	}
	cfg.Noise = cfg.Noise.Resolve()
	d := cfg.Dim
	var dim int
	var scale float64
	switch cfg.Mechanism {
	case ContextNonPrivate:
		dim = simd.PackedLen(d) + d
	case ContextEntryTrees:
		if err := param.CheckEpsilon(cfg.Epsilon); err != nil {
			return nil, err
		}
		dim = simd.PackedLen(d) + d
		scale = TreeCounterScale(cfg.Horizon, 1, Epsilon0(cfg.Epsilon, d))
	case ContextSS18Tree:
		if err := param.CheckEpsilon(cfg.Epsilon); err != nil {
			return nil, err
		}
		dim = simd.PackedLen(d + 1)
		scale = TreeCounterScale(cfg.Horizon, float64(dim), cfg.Epsilon)
	default:
		return nil, fmt.Errorf("mt14: unknown context mechanism %d", int(cfg.Mechanism))
	}
	nm := 1
	if cfg.Disjoint {
		nm = cfg.Arms
	}
	p := &ContextualUCB{cfg: cfg, d: d, scale: scale, models: make([]ctxModel, nm),
		vec: make([]float64, dim), z: make([]float64, d)}
	for i := range p.models {
		var nz noise.Noise = noise.ZeroNoise{N: dim}
		if scale > 0 {
			// Both mechanisms calibrate to ℓ1 sensitivity dim (one per
			// entry, or dim for the whole vector).
			lap, err := noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: cfg.Noise, Dim: dim, Scale: scale, Sensitivity: float64(dim)}, rng)
			if err != nil {
				return nil, err
			}
			nz = lap
		}
		treeAny, err := counter.New(counter.Config{Kind: counter.Tree, Dim: dim, Horizon: cfg.Horizon, Noise: nz, Mode: cfg.Mode})
		if err != nil {
			return nil, err
		}
		tree := treeAny.(*counter.TreeSum)
		m := &p.models[i]
		*m = ctxModel{tree: tree, rel: make([]float64, dim), a: make([]float64, d*d),
			inv: make([]float64, d*d), chol: make([]float64, d*d), b: make([]float64, d), th: make([]float64, d)}
		p.refresh(m)
	}
	return p, nil
}

// Config returns the configuration with defaults filled in.
func (p *ContextualUCB) Config() ContextualUCBConfig { return p.cfg }

// NodeScale returns the Laplace scale per node entry (0 when non-private).
func (p *ContextualUCB) NodeScale() float64 { return p.scale }

// Tree returns the tree of model a (any arm's when the model is shared),
// for checks: with ContextEntryTrees its coordinates are the entry counters
// of Algorithm 2. Read it only; an Add would corrupt the policy.
func (p *ContextualUCB) Tree(a int) *counter.TreeSum { return p.model(a).tree }

// PositiveDefinite reports whether the model of arm a (any arm when shared)
// currently has a positive definite Ã.
func (p *ContextualUCB) PositiveDefinite(a int) bool { return p.model(a).pd }

// ModelTo writes model a's Ã (d×d row-major) and b̃ into the destinations.
func (p *ContextualUCB) ModelTo(a int, A, b []float64) {
	m := p.model(a)
	copy(A, m.a)
	copy(b, m.b)
}

func (p *ContextualUCB) model(a int) *ctxModel {
	if p.cfg.Disjoint {
		return &p.models[a]
	}
	return &p.models[0]
}

// Choose returns the arm of MT14 Algorithm 2, lines 6-10.
func (p *ContextualUCB) Choose(r *bandit.Round) int {
	if r.K != p.cfg.Arms || r.Dim != p.d {
		panic(param.BadDim)
	}
	d := p.d
	best, bestV := 0, math.Inf(-1)
	for a := 0; a < r.K; a++ {
		z := r.Actions[a*d : (a+1)*d]
		m := p.model(a)
		var v float64
		if m.pd {
			w := m.inv
			if p.cfg.PrintedWidth {
				w = m.a
			}
			v = ctxDot(z, m.th) + p.cfg.Alpha*math.Sqrt(math.Max(0, ctxQuad(w, z)))
		} else {
			v = ctxDot(z, m.b) + p.cfg.Alpha*math.Sqrt(ctxDot(z, z))
		}
		if v > bestV {
			best, bestV = a, v
		}
	}
	return best
}

// Update inserts z_{a}(t)z_{a}(t)ᵀ and z_{a}(t)·y into the pulled model's
// tree(s) (lines 11-12) and refreshes its released Ã, b̃. Contexts and
// rewards outside [0, 1] panic unless Clip is set.
func (p *ContextualUCB) Update(r *bandit.Round, arm int, reward float64) {
	if arm < 0 || arm >= r.K || r.K != p.cfg.Arms || r.Dim != p.d {
		panic(param.BadArm)
	}
	d := p.d
	y := bandit.UnitReward(reward, p.cfg.Clip)
	for i, v := range r.Actions[arm*d : (arm+1)*d] {
		p.z[i] = mt14Context(v, p.cfg.Clip)
	}
	clear(p.vec)
	switch p.cfg.Mechanism {
	case ContextSS18Tree:
		n := d + 1
		k := 0
		for i := 0; i < n; i++ {
			vi := y
			if i < d {
				vi = p.z[i]
			}
			for j := i; j < n; j++ {
				vj := y
				if j < d {
					vj = p.z[j]
				}
				p.vec[k] = vi * vj
				k++
			}
		}
	default:
		simd.PackOuter(p.vec[:simd.PackedLen(d)], p.z, 1)
		for i, zi := range p.z {
			p.vec[simd.PackedLen(d)+i] = zi * y
		}
	}
	m := p.model(arm)
	m.tree.Add(p.vec)
	p.refresh(m)
}

// refresh reads the model's release and recomputes Ã, b̃, Ã⁻¹ and θ̃.
func (p *ContextualUCB) refresh(m *ctxModel) {
	d := p.d
	m.tree.SumTo(m.rel)
	if p.cfg.Mechanism == ContextSS18Tree {
		n := d + 1
		for i := 0; i < d; i++ {
			for j := i; j < d; j++ {
				v := m.rel[simd.PackedIndex(n, i, j)]
				m.a[i*d+j], m.a[j*d+i] = v, v
			}
			m.b[i] = m.rel[simd.PackedIndex(n, i, d)]
		}
	} else {
		simd.UnpackSymTo(m.a, m.rel[:simd.PackedLen(d)], d)
		copy(m.b, m.rel[simd.PackedLen(d):])
	}
	for i := 0; i < d; i++ {
		m.a[i*d+i]++
	}
	m.pd = ctxCholInverse(m.inv, m.chol, m.a, d)
	if m.pd {
		for i := 0; i < d; i++ {
			m.th[i] = ctxDot(m.inv[i*d:(i+1)*d], m.b)
		}
	}
}

// mt14Context is [bandit.UnitReward] for context entries.
func mt14Context(v float64, clip bool) float64 {
	if v >= 0 && v <= 1 {
		return v
	}
	if clip && !math.IsNaN(v) {
		return math.Min(1, math.Max(0, v))
	}
	panic(fmt.Sprintf("mt14: context entry %v outside [0, 1] (the bound the mechanism is calibrated for; set Clip to clip)", v))
}

func ctxDot(x, y []float64) float64 {
	var s float64
	for i, v := range x {
		s += float64(v * y[i])
	}
	return s
}

// quad returns zᵀWz for W d×d row-major.
func ctxQuad(w, z []float64) float64 {
	d := len(z)
	var s float64
	for i, zi := range z {
		s += float64(zi * ctxDot(w[i*d:(i+1)*d], z))
	}
	return s
}

// ctxCholInverse writes the inverse of the symmetric d×d matrix a into inv
// and reports whether a is (numerically) positive definite: the Cholesky
// factorisation a = LLᵀ must succeed with pivots > d·1e-12·max|a_ii|. l is
// scratch (d×d). No allocation.
func ctxCholInverse(inv, l, a []float64, d int) bool {
	var amax float64
	for i := 0; i < d; i++ {
		amax = math.Max(amax, math.Abs(a[i*d+i]))
	}
	tol := float64(d) * 1e-12 * amax
	clear(l)
	for j := 0; j < d; j++ {
		s := a[j*d+j]
		for k := 0; k < j; k++ {
			s -= l[j*d+k] * l[j*d+k]
		}
		if !(s > tol) {
			return false
		}
		ljj := math.Sqrt(s)
		l[j*d+j] = ljj
		for i := j + 1; i < d; i++ {
			s := a[i*d+j]
			for k := 0; k < j; k++ {
				s -= l[i*d+k] * l[j*d+k]
			}
			l[i*d+j] = s / ljj
		}
	}
	// inv = L⁻ᵀ L⁻¹: solve column by column, L y = e_c then Lᵀ x = y.
	for c := 0; c < d; c++ {
		for i := 0; i < d; i++ {
			s := 0.0
			if i == c {
				s = 1
			}
			for k := 0; k < i; k++ {
				s -= l[i*d+k] * inv[k*d+c]
			}
			inv[i*d+c] = s / l[i*d+i]
		}
		for i := d - 1; i >= 0; i-- {
			s := inv[i*d+c]
			for k := i + 1; k < d; k++ {
				s -= l[k*d+i] * inv[k*d+c]
			}
			inv[i*d+c] = s / l[i*d+i]
		}
	}
	return true
}
