package mab

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/noise"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// DPSEConfig configures [DPSE].
type DPSEConfig struct {
	// Arms is k. Required (>= 1).
	Arms int
	// Horizon is T. Required (>= 2); it sets the default Beta.
	Horizon int
	// Epsilon is the privacy parameter ε of the whole algorithm. Required (> 0).
	Epsilon float64
	// Beta is the failure probability β of the elimination tests. Defaults to
	// 1/T (Sajed & Sheffet's choice for regret minimisation).
	Beta float64
	// PlusOne selects the other reading of the epoch length, R_e =
	// ⌈max{…}⌉ + 1 (the listing's ⌈max{…} + 1⌉) in place of ⌈max{…}⌉: one
	// more pull of every active arm in every epoch. Off by default.
	PlusOne bool
	// NoNoise is the ε → ∞ limit: no Laplace noise, no privacy width c_e and
	// no ε-term in R_e — non-private successive elimination (Even-Dar et al.
	// 2006) on the same epochs; not private.
	NoNoise bool
	// Clip clips rewards into [0, 1] instead of panicking on them.
	Clip bool
	// Noise selects the sampler of the batch releases: noise.Secure (exact
	// discrete Laplace on a grid from crypto/rand, rewards rounded to the
	// grid), also when unset (noise.Default); noise.SecureSeeded (the
	// same with the rng's bits); or noise.Simulated (seeded floating-point
	// Laplace, reproducible, not a release-grade guarantee), which must be
	// named. NoNoise takes no sampler: with it, Noise stays unset or is
	// noise.Simulated.
	Noise noise.Mode
}

// DPSE is DP Successive Elimination, Sajed & Sheffet, "An Optimal Private
// Stochastic-MAB Algorithm Based on an Optimal Private Stopping Rule", ICML
// 2019, Algorithm 1 (DP-SE). Followed: the ICML version's listing as a
// public implementation of it reproduces it (the paper's text is not in this
// repository and could not be retrieved here), with S the active arms and
// epochs e = 1, 2, …:
//
//	Δ_e = 2^{−e}
//	R_e = ⌈max{ 32 ln(8|S|e²/β)/Δ_e²,  8 ln(4|S|e²/β)/(εΔ_e) }⌉
//	pull every arm of S R_e times (in blocks, arm by arm); its epoch mean
//	  μ̃_a = (R_e rewards of this epoch)/R_e + Lap(1/(εR_e))      (forgetting)
//	h_e = √(ln(8|S|e²/β)/(2R_e)),  c_e = ln(4|S|e²/β)/(εR_e)
//	remove from S every a with max_b μ̃_b − μ̃_a > 2(h_e + c_e)
//
// until one arm is left, which is then played to the end.
//
// Where each constant comes from (the paper is not at hand; these are the
// reasons a reader can check): 8|S|e²/β and 4|S|e²/β spread the failure
// probability β over the active arms and the epochs (Σ_e 1/e² < 2) for
// Hoeffding's two-sided tail 2e^{−2R h²} of an epoch mean and the Laplace
// tail e^{−εRc} of its noise Lap(1/(εR)); the factors 32 and 8 of R_e make
// h_e ≤ Δ_e/8 and c_e ≤ Δ_e/8, so that an arm Δ_e/2 or more below the best
// is eliminated by the end of epoch e and the best never is (tested:
// TestDPSEWidths). Two readings of the rounding exist: R_e = ⌈max{…}⌉ (the
// default, which this package has always run) and ⌈max{…} + 1⌉ =
// ⌈max{…}⌉ + 1 ([DPSEConfig.PlusOne]); the private-MAB figure (dpb/mabfig)
// shows both. Issue 51 reports an independent implementation whose epochs
// differ from the default by exactly 2 pulls, as the second reading's do
// with two active arms.
//
// DP-SE breaks no ties: every active arm is pulled R_e times and
// eliminations compare the means against the best, whatever the order. The
// blocks of an epoch go in arm order, so a run stopped inside an epoch has
// pulled the arms listed first more; once every bad arm is eliminated the
// order no longer matters (the private-MAB figure's runs at T = 10⁶).
//
// Privacy: each
// reward enters one epoch mean, each released once with Lap(1/(εR_e)) — Lap(1/ε)
// on the sum ([privArms]) — so DP-SE is ε-DP. Regret (Sajed & Sheffet 2019):
// O(Σ_a ln T/Δ_a + k ln T/ε), optimal in order by SS18's Corollary 15.
// Choose and Update are O(1) except at epoch ends (O(k)); nothing allocates
// after construction.
//
// A DPSE is not safe for concurrent use: share it between goroutines
// through [bandit.NewLocked].
type DPSE struct {
	cfg    DPSEConfig
	s      *privArms
	active []int // S, in arm order
	epoch  int
	r      int // R_e
	pos    int // index in active of the arm being pulled
	left   int // its pulls still to choose in this epoch
	closed int // arms of S whose epoch mean is released
}

var _ bandit.Policy = (*DPSE)(nil)

// NewDPSE returns a DP-SE policy drawing its noise from rng.
func NewDPSE(cfg DPSEConfig, rng *rand.Rand) (*DPSE, error) {
	if cfg.Horizon < 2 {
		return nil, fmt.Errorf("mab: horizon is %d, must be >= 2", cfg.Horizon)
	}
	if cfg.Beta == 0 {
		cfg.Beta = 1 / float64(cfg.Horizon)
	}
	if err := param.CheckProb("beta", cfg.Beta); err != nil {
		return nil, err
	}
	s, err := newPrivArms(cfg.Arms, cfg.Epsilon, cfg.NoNoise, true, cfg.Clip, cfg.Noise, rng)
	if err != nil {
		return nil, err
	}
	p := &DPSE{cfg: cfg, s: s, active: make([]int, cfg.Arms)}
	for a := range p.active {
		p.active[a] = a
	}
	p.startEpoch()
	return p, nil
}

// Config returns the configuration with defaults filled in.
func (p *DPSE) Config() DPSEConfig { return p.cfg }

// Active returns the arms not yet eliminated (a view; do not modify).
func (p *DPSE) Active() []int { return p.active }

// Epoch returns e and R_e of the current epoch.
func (p *DPSE) Epoch() (e, r int) { return p.epoch, p.r }

// Pulls returns N_a (a view; do not modify).
func (p *DPSE) Pulls() []int { return p.s.n }

// PrivateMean returns arm a's last released epoch mean μ̃_a (NaN before
// its first release).
func (p *DPSE) PrivateMean(a int) float64 { return p.s.mean(a) }

// Threshold returns 2(h_e + c_e), the elimination threshold of the current
// epoch (0 once one arm is left).
func (p *DPSE) Threshold() float64 {
	if len(p.active) == 1 {
		return 0
	}
	h, c := p.widths()
	return 2 * (h + c)
}

// dpseLogs returns ln(8|S|e²/β) and ln(4|S|e²/β).
func (p *DPSE) dpseLogs() (l8, l4 float64) {
	v := float64(len(p.active)) * float64(p.epoch) * float64(p.epoch) / p.cfg.Beta
	return xmath.Log(8 * v), xmath.Log(4 * v)
}

// startEpoch begins epoch e+1: R_e and the first block.
func (p *DPSE) startEpoch() {
	p.epoch++
	p.pos, p.closed = 0, 0
	if len(p.active) == 1 {
		return
	}
	d := math.Ldexp(1, -p.epoch)
	l8, l4 := p.dpseLogs()
	r := 32 * l8 / (d * d)
	if !p.cfg.NoNoise {
		r = math.Max(r, 8*l4/(p.cfg.Epsilon*d))
	}
	// R_e ≤ 2^53 keeps the count exact; far beyond any horizon.
	p.r = int(math.Min(math.Ceil(r), 1<<53))
	if p.cfg.PlusOne {
		p.r++
	}
	p.left = p.r
}

// widths returns h_e and c_e of the current epoch (c_e = 0 with NoNoise).
func (p *DPSE) widths() (h, c float64) {
	l8, l4 := p.dpseLogs()
	h = math.Sqrt(l8 / (2 * float64(p.r)))
	if !p.cfg.NoNoise {
		c = l4 / (p.cfg.Epsilon * float64(p.r))
	}
	return h, c
}

// Choose returns the arm of the current block, or the last arm left.
func (p *DPSE) Choose(r *bandit.Round) int {
	if len(p.active) == 1 {
		return p.s.choose(r, p.active[0])
	}
	if p.pos >= len(p.active) {
		panic("mab: DP-SE chose past its epoch: rewards must be reported before the next Choose")
	}
	a := p.active[p.pos]
	if p.left--; p.left == 0 {
		p.pos++
		p.left = p.r
	}
	return p.s.choose(r, a)
}

// Update adds the reward to the arm's epoch block; when all of S's epoch
// means are released it eliminates and starts the next epoch. Rewards outside
// [0, 1] panic unless Clip is set; NaN always panics.
func (p *DPSE) Update(r *bandit.Round, arm int, reward float64) {
	p.s.add(arm, reward)
	if len(p.active) == 1 || p.s.bn[arm] < p.r {
		return
	}
	p.s.release(arm)
	if p.closed++; p.closed < len(p.active) {
		return
	}
	best := math.Inf(-1)
	for _, a := range p.active {
		best = math.Max(best, p.s.mean(a))
	}
	h, c := p.widths()
	keep := p.active[:0]
	for _, a := range p.active {
		if !(best-p.s.mean(a) > 2*(h+c)) {
			keep = append(keep, a)
		}
	}
	p.active = keep
	p.startEpoch()
}

// Privacy reports DP-SE's ε (δ = 0).
func (p *DPSE) Privacy() bandit.Privacy {
	return p.s.privacy("DP-SE", p.cfg.Epsilon, "one fresh block of R_e rewards per active arm and epoch")
}
