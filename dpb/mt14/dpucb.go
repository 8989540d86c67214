package mt14

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// DPUCBConfig configures [DPUCB].
type DPUCBConfig struct {
	// Arms is k. Required (>= 1).
	Arms int
	// Horizon is T, the number of leaves of every arm's tree. Required (>= 2).
	Horizon int
	// Epsilon is the privacy parameter ε of the whole algorithm. Required (> 0).
	Epsilon float64
	// Gamma is the failure probability γ of Theorem 4, used in Γ. Defaults to 1/T.
	Gamma float64
	// RelaxationScale multiplies the confidence relaxation Γ. Defaults to 1
	// (Γ as printed); smaller values are a heuristic, not the paper's algorithm.
	RelaxationScale float64
	// Mode is the tree's release mode. Defaults (counter.ModeDefault) to
	// Plain, the binary mechanism MT14 cites and Theorem 4 assumes; Padded is
	// AS17's TreeBasedAgg.
	Mode counter.ReleaseMode
	// Clip clips rewards into [0, 1] instead of panicking on them. Defaults to
	// false: a reward outside [0, 1] (or NaN) panics in Update.
	Clip bool
	// NoRelaxation sets Γ = 0: the index becomes UCB1's on the private totals.
	// Privacy is unchanged (it comes from the trees alone; Γ only shapes the
	// choice); this is an ablation, not the paper's algorithm.
	NoRelaxation bool
	// NoNoise replaces the Laplace node noise by zero (exactness tests and the
	// "Γ without noise" ablation); the result is not private.
	NoNoise bool
	// Noise selects the sampler. Unset (noise.Default) it is
	// noise.Secure: exact discrete Laplace on a grid from crypto/rand, no
	// seed, not reproducible (see [noise.Mode]). noise.Simulated, the
	// seeded floating-point noise every experiment runs, reproducible and
	// not a release-grade guarantee, must be named. Config and Privacy
	// report the resolved mode.
	// The square-root and BLT counters have no secure Laplace sampler
	// (their secure measurements are discrete Gaussian only): on them an
	// unset or secure Noise is refused with an error that says to name
	// noise.Simulated.
	Noise noise.Mode
	// Counter is each arm's continual counter. Defaults to CounterTree (the
	// binary mechanism in release mode Mode, as MT14); CounterHonaker,
	// CounterSmooth and CounterKary (the k-ary tree at the arity
	// [counter.KaryArity] picks for T) are pure-DP alternatives whose
	// node scale is b = Cost().L1/ε₀ (see [DPUCB]); Mode must then be Plain.
	Counter counter.Kind
}

// DPUCB is differentially private UCB sampling, MT14 Algorithm 1.
//
// Each arm a has a tree counter (the binary mechanism, [counter.TreeSum] of dimension
// 1 over T leaves) of its rewards. With ε₀ = ε/k (line 1), each node carries
// Lap(b) noise with
//
//	b = m / ε₀ = m·k/ε,   m = 1 + ⌈log₂ T⌉ = TreeLevels(T):
//
// a reward in [0, 1] enters one node per level, m nodes in all, so one round's
// reward moves the node sums of its arm's tree by at most m in ℓ1 and Lap(m/ε₀)
// makes each tree ε₀-DP; the k trees compose to ε (the paper's reasoning in
// Section 3.1). The neighbouring relation changes one round's reward vector f_t.
// (Since a round's reward enters only the pulled arm's tree, ε₀ = ε would
// already suffice; the printed ε/k is kept.)
//
// Rounds 1..k pull each arm once; afterwards
//
//	a_t = argmax_a  r̃_a/n_a + sqrt(2 ln t / n_a) + Γ/n_a,
//	Γ = k · log²T · log(k·T·log T / γ) / ε        (line 7, [Gamma])
//
// where r̃_a is the private total from arm a's tree (it changes only when arm
// a is pulled, so it is cached). Choose is O(k), Update one Laplace draw;
// nothing allocates after construction.
//
// Other counters (Config.Counter). Any [Counter] whose record
// enters node sums with coefficients of total ℓ1 norm Cost().L1 is ε₀-DP
// with Lap(Cost().L1/ε₀) node noise (the Laplace mechanism on the node
// sums; releases are post-processing), so b = Cost().L1/ε₀. Honaker's
// estimator keeps the tree (b = m/ε₀) and lowers the variance; the smooth
// binary mechanism lowers both b (h − k + 1 < m nodes per record) and the
// worst round's variance. The k-ary tree ([counter.KaryTree]) puts a reward in one
// block per level, h = ⌊log_k T⌋ + 1 blocks with coefficient 1: changing one
// round's reward in [0, 1] moves the node sums of its arm by at most h in
// ℓ1, so Lap(h/ε₀) per node makes the arm's counter ε₀-DP (Dwork et al.
// 2006's Laplace mechanism; every release is a sum of closed nodes, post-
// processing); b = h·k/ε, with h = 5 against m = 21 at T = 10⁶ (arity 16),
// and a release carries the digit sum of its round in nodes (at most 74
// there, against the tree's 19: the worst variance × b² is 0.22 of the
// tree's). Γ stays MT14's: it bounds the tree's release noise through
// the Laplace-sum tail (Chan, Shi & Song 2011, Lemma 2.8: a sum Σ_i γ_i,
// γ_i ~ Lap(b_i), exceeds ν√(8 ln(2/δ)) with probability ≤ δ for any
// ν ≥ √Σ b_i² and ν ≥ max b_i). A release of these counters is such a sum
// with b_i = |w_i| b_c, |w_i| ≤ 1, Σ w_i² = VarianceAt(t); the constructor
// checks b_c ≤ b and b_c² MaxVariance() ≤ b² m, so every ν that serves
// the tree serves the counter and Γ remains a valid relaxation.
//
// A DPUCB is not safe for concurrent use: wrap it in [bandit.NewLocked] to
// share it between goroutines.
type DPUCB struct {
	cfg   DPUCBConfig
	gamma float64 // Γ·RelaxationScale
	scale float64 // Laplace scale per node (0 without noise)
	trees []counter.Counter
	n     []int
	r     []float64 // released private totals r̃_a
	z     [1]float64
	skip  int // pulls UpdateErr skipped
}

var _ bandit.Checked = (*DPUCB)(nil)

// NewDPUCB returns a DP-UCB policy drawing its noise from rng.
func NewDPUCB(cfg DPUCBConfig, rng *rand.Rand) (*DPUCB, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	if cfg.Arms < 1 {
		return nil, fmt.Errorf("mt14: arms is %d, must be >= 1", cfg.Arms)
	}
	if cfg.Horizon < 2 {
		return nil, fmt.Errorf("mt14: horizon is %d, must be >= 2", cfg.Horizon)
	}
	if err := param.CheckEpsilon(cfg.Epsilon); err != nil {
		return nil, err
	}
	if err := noise.CheckMode(cfg.Noise); err != nil {
		return nil, err
	}
	requested := cfg.Noise
	cfg.Noise = cfg.Noise.Resolve()
	if cfg.Gamma == 0 {
		cfg.Gamma = 1 / float64(cfg.Horizon)
	}
	if cfg.Mode == counter.ModeDefault {
		cfg.Mode = counter.Plain // Theorem 4's binary mechanism
	}
	if err := param.CheckProb("gamma", cfg.Gamma); err != nil {
		return nil, err
	}
	if cfg.RelaxationScale == 0 {
		cfg.RelaxationScale = 1
	}
	if err := param.CheckPositive("relaxation scale", cfg.RelaxationScale); err != nil {
		return nil, err
	}
	p := &DPUCB{
		cfg:   cfg,
		gamma: cfg.RelaxationScale * Gamma(cfg.Arms, cfg.Horizon, cfg.Epsilon, cfg.Gamma),
		trees: make([]counter.Counter, cfg.Arms),
		n:     make([]int, cfg.Arms),
		r:     make([]float64, cfg.Arms),
	}
	if cfg.NoRelaxation {
		p.gamma = 0
	}
	eps0 := cfg.Epsilon / float64(cfg.Arms)
	kind := cfg.Counter
	switch {
	case kind == counter.Tree && cfg.Mode == counter.Padded:
		kind = counter.TreePadded
	case kind != counter.Tree && cfg.Mode != counter.Plain:
		return nil, fmt.Errorf("mt14: release mode %v applies to the binary tree only, counter is %v", cfg.Mode, kind)
	}
	if !cfg.NoNoise {
		p.scale = TreeCounterScale(cfg.Horizon, 1, eps0)
		if kind != counter.Tree && kind != counter.TreePadded {
			probe, err := counter.New(counter.Config{Kind: kind, Dim: 1, Horizon: cfg.Horizon, Noise: noise.ZeroNoise{N: 1}})
			if err != nil {
				return nil, err
			}
			b := probe.Cost().L1 / eps0
			if !cfg.NoRelaxation && !(b <= p.scale && b*b*probe.MaxVariance() <= p.scale*p.scale*float64(counter.TreeLevels(cfg.Horizon))) {
				return nil, fmt.Errorf("mt14: MT14's Γ does not cover the %v counter's noise (node scale %g, max variance %g; tree: %g, %d): set NoRelaxation", kind, b, probe.MaxVariance(), p.scale, counter.TreeLevels(cfg.Horizon))
			}
			p.scale = b
		}
	}
	for a := range p.trees {
		var nz noise.Noise = noise.ZeroNoise{N: 1}
		if !cfg.NoNoise {
			lap, err := noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: cfg.Noise, Dim: 1, Scale: p.scale, Sensitivity: 1}, rng)
			if err != nil {
				return nil, err
			}
			nz = lap
		}
		t, err := counter.New(counter.Config{Kind: kind, Dim: 1, Horizon: cfg.Horizon, Noise: nz})
		if err != nil {
			return nil, noise.ExplainDefault(requested, err)
		}
		p.trees[a] = t
	}
	return p, nil
}

// Config returns the configuration with defaults filled in.
func (p *DPUCB) Config() DPUCBConfig { return p.cfg }

// Relaxation returns the Γ in use (times RelaxationScale; 0 with NoRelaxation).
func (p *DPUCB) Relaxation() float64 { return p.gamma }

// NodeScale returns the Laplace scale of every node: b = m·k/ε on the tree,
// Cost().L1·k/ε on another counter (0 with NoNoise).
func (p *DPUCB) NodeScale() float64 { return p.scale }

// Pulls returns n_a (a view; do not modify).
func (p *DPUCB) Pulls() []int { return p.n }

// PrivateTotals returns r̃_a, the released totals (a view; do not modify).
func (p *DPUCB) PrivateTotals() []float64 { return p.r }

// Tree returns arm a's tree (for checks), or nil when the arms run another
// counter (see Counter).
func (p *DPUCB) Tree(a int) *counter.TreeSum {
	t, _ := p.trees[a].(*counter.TreeSum)
	return t
}

// Counter returns arm a's counter.
func (p *DPUCB) Counter(a int) counter.Counter { return p.trees[a] }

// Choose returns the arm of MT14 Algorithm 1, line 10.
func (p *DPUCB) Choose(r *bandit.Round) int {
	if r.K != len(p.n) {
		panic(param.BadArm)
	}
	return mt14Choose(r.T, p.n, p.r, p.gamma)
}

// ChooseErr is Choose returning an error instead of panicking when the
// round's K is not the number of arms.
func (p *DPUCB) ChooseErr(r *bandit.Round) (int, error) {
	if r == nil || r.K != len(p.n) {
		return -1, fmt.Errorf("mt14: round has %v arms, DP-UCB has %d", roundK(r), len(p.n))
	}
	return p.Choose(r), nil
}

func roundK(r *bandit.Round) any {
	if r == nil {
		return "no"
	}
	return r.K
}

// UpdateErr is Update for a service: an arm out of range is an error and
// changes nothing; a reward outside [0, 1] (with Clip unset) or NaN is
// skipped, counted in Skipped and returned as an error, and the policy
// keeps learning. The skipped pull enters the arm's tree as reward 0 and
// counts as a pull, so the arm's tree keeps one leaf per pull and every
// later pull its own leaf: each leaf is a function of its own round's
// reward with value in [0, 1], which is all the tree's ε₀-DP analysis
// (Theorem 3) needs, so the privacy is unchanged. The arm's mean estimate is
// biased down by at most its skipped pulls over its pulls.
func (p *DPUCB) UpdateErr(r *bandit.Round, arm int, reward float64) error {
	if arm < 0 || arm >= len(p.n) {
		return fmt.Errorf("mt14: arm %d outside DP-UCB's %d arms", arm, len(p.n))
	}
	var err error
	if !(reward >= 0 && reward <= 1) && (!p.cfg.Clip || math.IsNaN(reward)) {
		err = fmt.Errorf("mt14: round %d skipped: reward %v outside [0, 1] (the bound the mechanism is calibrated for; set Clip to clip)", roundT(r), reward)
		p.skip++
		reward = 0
	}
	p.Update(r, arm, reward)
	return err
}

func roundT(r *bandit.Round) int {
	if r == nil {
		return 0
	}
	return r.T
}

// Skipped returns the number of pulls UpdateErr skipped.
func (p *DPUCB) Skipped() int { return p.skip }

// Err returns nil: DP-UCB refuses its input by panicking (Update) or with
// an error (ChooseErr, UpdateErr), and has no state it cannot continue from.
func (p *DPUCB) Err() error { return nil }

// Update inserts the reward into the pulled arm's tree (line 12) and reads
// back its private total. Rewards outside [0, 1] panic unless Clip is set.
//
// Update need not follow a Choose: each call is one observation of arm, so
// a state can be rebuilt by feeding a logged history (as the delay tests
// do); privacy does not depend on the order, since every observation is one
// leaf of that arm's tree. More observations of one arm than Horizon panic
// (the tree's capacity).
func (p *DPUCB) Update(r *bandit.Round, arm int, reward float64) {
	if arm < 0 || arm >= len(p.n) {
		panic(param.BadArm)
	}
	p.z[0] = bandit.UnitReward(reward, p.cfg.Clip)
	t := p.trees[arm]
	t.Add(p.z[:])
	t.SumTo(p.z[:])
	p.r[arm] = p.z[0]
	p.n[arm]++
}

// mt14InitialArm implements the initial round-robin of UCB1 and MT14 Algorithm 1
// (lines 2-6): round t ≤ k pulls arm t−1. Afterwards an arm never updated
// (possible only when feedback is delayed, see [Delayed]) is pulled first,
// its index being +∞.
func mt14InitialArm(t int, n []int) (int, bool) {
	if t >= 1 && t <= len(n) {
		return t - 1, true
	}
	for a, c := range n {
		if c == 0 {
			return a, true
		}
	}
	return 0, false
}

// mt14Choose returns the arm of round t for UCB1 (gamma = 0) and MT14
// Algorithm 1, line 10: after the initial arms of [mt14InitialArm], the first
// arm maximising r_a/n_a + √(2 ln t / n_a) + γ/n_a, where r_a is arm a's
// (private) total reward and n_a its number of pulls.
func mt14Choose(t int, n []int, totals []float64, gamma float64) int {
	if a, ok := mt14InitialArm(t, n); ok {
		return a
	}
	lt := 2 * xmath.Log(float64(t))
	totals = totals[:len(n)]
	best, bestV := 0, math.Inf(-1)
	for a, c := range n {
		fc := float64(c)
		v := totals[a]/fc + math.Sqrt(lt/fc) + gamma/fc
		if v > bestV {
			best, bestV = a, v
		}
	}
	return best
}
