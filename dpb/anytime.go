package dpb

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// epochs is the doubling schedule of the anytime policies (see [AnytimeSS18]).
type epochs struct {
	n0    int // the initial horizon guess
	e     int // current epoch
	start int // rounds completed before the current epoch
	done  int // rounds completed in all
}

// maxEpochHorizon keeps n₀·2^e and the round counts far from overflow.
const maxEpochHorizon = 1 << 50

func (ep *epochs) horizon(e int) int { return ep.n0 << e }

// epochAlpha returns α_e = α·2^{−(e+1)}.
func epochAlpha(alpha float64, e int) float64 { return alpha / float64(uint64(2)<<e) }

// next moves to the next epoch when the current one is full and reports
// whether it did.
func (ep *epochs) next() bool {
	if ep.done-ep.start < ep.horizon(ep.e) {
		return false
	}
	if ep.horizon(ep.e+1) > maxEpochHorizon {
		panic(param.PastHorizon)
	}
	ep.start += ep.horizon(ep.e)
	ep.e++
	return true
}

// back undoes next.
func (ep *epochs) back() {
	ep.e--
	ep.start -= ep.horizon(ep.e)
}

func (ep *epochs) appendState(e *enc) {
	e.int(ep.e)
	e.int(ep.start)
	e.int(ep.done)
}

func (ep *epochs) readState(d *dec) {
	e, start, done := d.int(), d.int(), d.int()
	if d.err != nil {
		return
	}
	if e < 0 || ep.n0<<e > maxEpochHorizon || start != ep.n0*((1<<e)-1) || done < start || done > start+ep.n0<<e {
		d.fail(fmt.Errorf("dpb: snapshot epoch %d (rounds %d, %d) inconsistent with the initial horizon %d", e, start, done, ep.n0))
		return
	}
	ep.e, ep.start, ep.done = e, start, done
}

// AnytimeSS18 is a variant of SS18 Algorithm 1 ([NewSS18Policy]) for an
// unknown horizon, by the doubling trick with a fresh tree per epoch:
// cfg.Setting.N is the initial guess n₀, and the policy keeps playing past
// it, (ε, δ)-jointly private for any number of rounds. It owns its random
// source, so [AnytimeSS18.MarshalBinary] saves everything a bit-identical
// continuation needs. [AnytimeDPUCB] does the same for MT14's DP-UCB.
//
// # The doubling trick, with a fresh mechanism per epoch
//
// The tree mechanism needs its horizon up front: m = 1 + ⌈log₂ n⌉ levels fix
// the noise per node. Given an initial guess n₀, epoch e = 0, 1, 2, … covers
// the n_e = n₀·2^e rounds n₀(2^e − 1) + 1, …, n₀(2^{e+1} − 1) with a fresh
// policy built for horizon n_e (its own tree, calibrated for n_e, and no
// memory of earlier epochs). The epoch boundaries do not depend on the data.
//
// Privacy across epochs: parallel composition. Every round's data enters
// exactly one epoch's tree, and the releases of epoch e are computed from the
// rounds of epoch e alone (a fresh policy keeps nothing of the epochs before).
// Two streams differing in one round t differ only in the input of epoch
// e(t)'s mechanism, which is (ε, δ)-DP; the other epochs' mechanisms see
// identical inputs given the same earlier outputs (adaptive inputs are fine:
// the argument conditions on the outputs of earlier epochs). So the whole run
// is (ε, δ)-DP — jointly for LinUCB — for every horizon, with the same ε and
// δ as one epoch: the epochs cost no privacy. (Carrying a previous epoch's
// last release into the next would also be post-processing, but the
// confidence sets would then have to cover the sum of two epochs' noise; a
// restart keeps SS18's Propositions 4, 9 and 11 exactly as they are.)
//
// Failure probability across epochs: epoch e uses α_e = α·2^{−(e+1)}, so the
// confidence sets of all epochs hold together with probability ≥ 1 − Σ α_e ≥ 1 − α.
//
// What it costs in regret (the price of restarting): if a bound R(n) holds for
// a policy built for horizon n and R is non-decreasing, a run of T ≥ n₀ rounds
// that ends in epoch E has regret at most Σ_{e ≤ E} R(n₀2^e).
//
//   - A √n-type bound, R(n) = C·√n·polylog(n) (SS18 Theorem 5; m and β_n grow
//     only logarithmically): Σ_{e ≤ E} √(n₀2^e) = √(n_E)·Σ_{j ≤ E} 2^{−j/2} <
//     √(n_E)·√2/(√2 − 1) ≈ 3.41·√(n_E), and n_E = n₀2^E ≤ 2T (T passed the
//     start n₀(2^E − 1) + 1 ≥ n₀2^{E−1} of epoch E), so the regret is at most
//     3.41·√2 ≈ 4.83 times C·√T·polylog(2T): a constant factor ≤ 4.83 over
//     knowing T (3.41 when T ends an epoch).
//   - A gap-dependent, logarithmic bound, R(n) = C·polylog(n)/Δ (SS18 Theorem
//     6, MT14 Theorem 4): each restart pays it again, so the factor is the
//     number of epochs, E + 1 ≤ 1 + log₂(T/n₀ + 1). A good guess n₀ keeps it 1.
//
// The alternative, an anytime counter (a tree whose levels grow with t, e.g.
// Chan, Shi & Song's hybrid mechanism), avoids forgetting but changes the
// noise every SS18 bound is stated for; it is not implemented here.
type AnytimeSS18 struct {
	cfg   SS18PolicyConfig
	alpha float64
	src   *rand.ChaCha8
	rng   *rand.Rand
	ep    epochs
	cur   *LinUCB
	err   error // the first rejected observation: learning stops there, as in LinUCB
}

var _ Policy = (*AnytimeSS18)(nil)

// NewAnytimeSS18 returns the policy; src must not be used by anything else
// (give it its own stream, e.g. [StreamSource](seed, id)). Its first epoch
// is NewSS18Policy with horizon n₀ = cfg.Setting.N and α₀ = α/2, drawing from
// rand.New(src).
func NewAnytimeSS18(cfg SS18PolicyConfig, src *rand.ChaCha8) (*AnytimeSS18, error) {
	if src == nil {
		panic(param.NilRand)
	}
	if err := cfg.Setting.Validate(); err != nil {
		return nil, err
	}
	p := &AnytimeSS18{cfg: cfg, alpha: cfg.Setting.AlphaOrDefault(), src: src, rng: rand.New(src), ep: epochs{n0: cfg.Setting.N}}
	if err := p.start(); err != nil {
		return nil, err
	}
	return p, nil
}

// EpochConfig returns the configuration of epoch e's policy.
func (p *AnytimeSS18) EpochConfig(e int) SS18PolicyConfig {
	c := p.cfg
	c.Setting.N = p.ep.horizon(e)
	c.Setting.Alpha = epochAlpha(p.alpha, e)
	return c
}

func (p *AnytimeSS18) start() error {
	cur, err := NewSS18Policy(p.EpochConfig(p.ep.e), p.rng)
	if err != nil {
		return err
	}
	p.cur = cur
	return nil
}

// advance starts the next epoch when the current one is full. A next epoch
// that cannot be built (a variant with a largest horizon, such as the
// square-root counter's MaxSqrtHorizon) is recorded in Err: the policy keeps
// playing the full epoch's policy and learns nothing more.
func (p *AnytimeSS18) advance() {
	if p.err != nil || !p.ep.next() {
		return
	}
	if err := p.start(); err != nil {
		p.ep.back()
		p.err = fmt.Errorf("dpb: epoch %d (horizon %d) cannot start: %w", p.ep.e+1, p.ep.horizon(p.ep.e+1), err)
	}
}

// Choose plays the current epoch's LinUCB.
func (p *AnytimeSS18) Choose(r *Round) int {
	p.advance()
	return p.cur.Choose(r)
}

// Update feeds the observation to the current epoch's LinUCB (see
// [LinUCB.Update] for rejected observations and [AnytimeSS18.Err]).
func (p *AnytimeSS18) Update(r *Round, arm int, y float64) {
	if p.err != nil {
		return
	}
	p.advance()
	if p.err != nil {
		return
	}
	p.cur.Update(r, arm, y)
	if p.err = p.cur.Err(); p.err != nil {
		return
	}
	p.ep.done++
}

// Err returns the first observation rejected (see [LinUCB.Update]) or the
// error of a next epoch that could not start, or nil. After it the policy
// stops learning: it keeps its epoch and statistics.
func (p *AnytimeSS18) Err() error { return p.err }

// Rounds returns the number of rounds learned from in all epochs.
func (p *AnytimeSS18) Rounds() int { return p.ep.done }

// Epoch returns the current epoch e and its horizon n₀·2^e.
func (p *AnytimeSS18) Epoch() (e, horizon int) { return p.ep.e, p.ep.horizon(p.ep.e) }

// Current returns the current epoch's LinUCB (for inspection: radius, θ̃).
func (p *AnytimeSS18) Current() *LinUCB { return p.cur }

// Privacy reports the (ε, δ) of the whole run: that of each epoch's tree,
// by parallel composition over the epochs' disjoint rounds.
func (p *AnytimeSS18) Privacy() Privacy {
	return anytimePrivacy(p.cur.Privacy(), p.ep)
}

func anytimePrivacy(inner Privacy, ep epochs) Privacy {
	inner.Accounting = fmt.Sprintf("doubling trick from n₀ = %d, now epoch %d (n_e = %d); each epoch a fresh mechanism on its own rounds, so the epochs compose in parallel to the one epoch's guarantee, for any horizon; current epoch: %s",
		ep.n0, ep.e, ep.horizon(ep.e), inner.Accounting)
	return inner
}

const anytimeSS18Tag = "dpb.AnytimeSS18"

func (c SS18PolicyConfig) appendState(e *enc) {
	s := c.Setting
	e.int(int(c.Alg))
	e.int(s.D)
	e.int(s.N)
	e.f64(s.Epsilon)
	e.f64(s.Delta)
	e.f64(s.Lt2)
	e.f64(s.Alpha)
	e.int(int(c.Mode))
	e.f64(c.Lambda)
	e.int(int(c.Shift))
	e.f64(c.ShiftValue)
	e.int(int(c.Radius))
	e.f64(c.Sigma)
	e.f64(c.S)
	e.f64(c.L)
	e.bool(c.Clip)
	e.int(int(c.Noise))
}

// MarshalBinary saves the policy mid-stream: the configuration (to refuse a
// restore into a different one), the epoch, the random source's state and
// the current epoch's LinUCB and tree (sums, node noises, padding, the
// symmetrised Gaussian's generator). A policy restored from it with
// [AnytimeSS18.UnmarshalBinary] continues bit-identically. Call it between
// rounds (after Update, before the next Choose).
//
// A secure-mode policy (Noise: NoiseSecure) cannot be saved: its noise comes
// from crypto/rand, which has no state to save, and a snapshot of its tree
// would let a restored copy re-release noise it already used.
func (p *AnytimeSS18) MarshalBinary() ([]byte, error) {
	e, err := anytimeSnapshot(anytimeSS18Tag, p.cfg.Noise, p.cfg.appendState, &p.ep, p.src)
	if err != nil {
		return nil, err
	}
	if err := p.cur.appendState(e); err != nil {
		return nil, err
	}
	return e.b, nil // the sticky error is the current LinUCB's, saved with it
}

// UnmarshalBinary restores a state saved by MarshalBinary into a policy
// built by NewAnytimeSS18 with the same configuration (any source: its state
// is overwritten). On error the policy must not be used.
func (p *AnytimeSS18) UnmarshalBinary(data []byte) error {
	d, src, err := anytimeRestore(data, anytimeSS18Tag, p.cfg.Noise, p.cfg.appendState, &p.ep)
	if err != nil {
		return err
	}
	if err := p.start(); err != nil { // epoch e's policy; its draws are overwritten below
		return err
	}
	if err := p.src.UnmarshalBinary(src); err != nil {
		return err
	}
	p.cur.readState(d)
	if err := d.done(); err != nil {
		return err
	}
	if p.cur.Rounds() != p.ep.done-p.ep.start {
		return fmt.Errorf("dpb: snapshot's LinUCB has %d rounds, its epoch %d", p.cur.Rounds(), p.ep.done-p.ep.start)
	}
	p.err = p.cur.Err()
	return nil
}

// AnytimeDPUCB is MT14's DP-UCB ([NewDPUCB]) for an unknown horizon, by the
// doubling trick with fresh arm trees per epoch (the derivation, privacy and
// regret, is [AnytimeSS18]'s):
// cfg.Horizon is the initial guess T₀, epoch e runs DP-UCB for T₀·2^e rounds
// with γ_e = γ·2^{−(e+1)}, and the whole run is ε-DP for any number of
// rounds. It owns its random source, so MarshalBinary saves everything.
type AnytimeDPUCB struct {
	cfg   DPUCBConfig
	gamma float64
	src   *rand.ChaCha8
	rng   *rand.Rand
	ep    epochs
	cur   *DPUCB
	local Round // the round as the current epoch sees it (T counted from the epoch's start)
	err   error // a next epoch that could not start (see Err)
}

var _ Policy = (*AnytimeDPUCB)(nil)

// NewAnytimeDPUCB returns the policy; src must not be used by anything else.
// Its first epoch is NewDPUCB with Horizon T₀ and Gamma γ/2, drawing from
// rand.New(src).
func NewAnytimeDPUCB(cfg DPUCBConfig, src *rand.ChaCha8) (*AnytimeDPUCB, error) {
	if src == nil {
		panic(param.NilRand)
	}
	if cfg.Horizon < 2 {
		return nil, fmt.Errorf("dpb: initial horizon is %d, must be >= 2", cfg.Horizon)
	}
	gamma := cfg.Gamma
	if gamma == 0 {
		gamma = 1 / float64(cfg.Horizon)
	}
	if err := param.CheckProb("gamma", gamma); err != nil {
		return nil, err
	}
	p := &AnytimeDPUCB{cfg: cfg, gamma: gamma, src: src, rng: rand.New(src), ep: epochs{n0: cfg.Horizon}}
	if err := p.start(); err != nil {
		return nil, err
	}
	return p, nil
}

// EpochConfig returns the configuration of epoch e's DP-UCB.
func (p *AnytimeDPUCB) EpochConfig(e int) DPUCBConfig {
	c := p.cfg
	c.Horizon = p.ep.horizon(e)
	c.Gamma = epochAlpha(p.gamma, e)
	return c
}

func (p *AnytimeDPUCB) start() error {
	cur, err := NewDPUCB(p.EpochConfig(p.ep.e), p.rng)
	if err != nil {
		return err
	}
	p.cur = cur
	return nil
}

func (p *AnytimeDPUCB) advance(r *Round) *Round {
	if p.err == nil && p.ep.next() {
		if err := p.start(); err != nil {
			p.ep.back()
			p.err = fmt.Errorf("dpb: epoch %d (horizon %d) cannot start: %w", p.ep.e+1, p.ep.horizon(p.ep.e+1), err)
		}
	}
	p.local = *r
	p.local.T = p.ep.done - p.ep.start + 1
	return &p.local
}

// Choose plays the current epoch's DP-UCB (its round count restarts with the epoch).
func (p *AnytimeDPUCB) Choose(r *Round) int { return p.cur.Choose(p.advance(r)) }

// Update feeds the reward to the current epoch's DP-UCB.
func (p *AnytimeDPUCB) Update(r *Round, arm int, reward float64) {
	lr := p.advance(r)
	if p.err != nil {
		return
	}
	p.cur.Update(lr, arm, reward)
	p.ep.done++
}

// Err returns the error of a next epoch that could not start, or nil: the
// policy then keeps playing the full epoch's DP-UCB and learns nothing more.
func (p *AnytimeDPUCB) Err() error { return p.err }

// Rounds returns the number of rounds played in all epochs.
func (p *AnytimeDPUCB) Rounds() int { return p.ep.done }

// Epoch returns the current epoch e and its horizon T₀·2^e.
func (p *AnytimeDPUCB) Epoch() (e, horizon int) { return p.ep.e, p.ep.horizon(p.ep.e) }

// Current returns the current epoch's DP-UCB.
func (p *AnytimeDPUCB) Current() *DPUCB { return p.cur }

// Privacy reports the ε of the whole run (parallel composition over epochs).
func (p *AnytimeDPUCB) Privacy() Privacy { return anytimePrivacy(p.cur.Privacy(), p.ep) }

const anytimeDPUCBTag = "dpb.AnytimeDPUCB"

func (c DPUCBConfig) appendState(e *enc) {
	e.int(c.Arms)
	e.int(c.Horizon)
	e.f64(c.Epsilon)
	e.f64(c.Gamma)
	e.f64(c.RelaxationScale)
	e.int(int(c.Mode))
	e.bool(c.Clip)
	e.bool(c.NoRelaxation)
	e.bool(c.NoNoise)
	e.int(int(c.Noise))
	e.int(int(c.Counter))
}

// MarshalBinary saves the policy between rounds, random state included.
// A secure-mode policy (Noise: NoiseSecure) cannot be saved (see
// [AnytimeSS18.MarshalBinary]).
func (p *AnytimeDPUCB) MarshalBinary() ([]byte, error) {
	e, err := anytimeSnapshot(anytimeDPUCBTag, p.cfg.Noise, p.cfg.appendState, &p.ep, p.src)
	if err != nil {
		return nil, err
	}
	p.cur.appendState(e)
	return e.b, nil
}

// UnmarshalBinary restores a state saved by MarshalBinary into a policy
// built by NewAnytimeDPUCB with the same configuration.
func (p *AnytimeDPUCB) UnmarshalBinary(data []byte) error {
	d, src, err := anytimeRestore(data, anytimeDPUCBTag, p.cfg.Noise, p.cfg.appendState, &p.ep)
	if err != nil {
		return err
	}
	if err := p.start(); err != nil {
		return err
	}
	if err := p.src.UnmarshalBinary(src); err != nil {
		return err
	}
	p.cur.readState(d)
	return d.done()
}

// anytimeSnapshot starts the snapshot of an anytime policy: its tag, its
// configuration (so that a restore into another one is refused), the epoch and
// the random source's state. Secure-mode policies are refused.
func anytimeSnapshot(tag string, noise NoiseMode, cfg func(*enc), ep *epochs, src *rand.ChaCha8) (*enc, error) {
	if err := secureSnapshot(noise); err != nil {
		return nil, err
	}
	e := &enc{}
	e.header(tag)
	cfg(e)
	ep.appendState(e)
	b, err := src.MarshalBinary()
	if err != nil {
		return nil, err
	}
	e.bytes(b)
	return e, nil
}

// anytimeRestore reads what anytimeSnapshot wrote: it refuses secure-mode
// policies and a snapshot of another configuration, restores the epoch and
// returns the decoder and the random source's saved state.
func anytimeRestore(data []byte, tag string, noise NoiseMode, cfg func(*enc), ep *epochs) (*dec, []byte, error) {
	if err := secureSnapshot(noise); err != nil {
		return nil, nil, err
	}
	d := &dec{b: data}
	d.header(tag)
	var want enc
	cfg(&want)
	got := d.b
	for range len(want.b) / 8 {
		d.u64()
	}
	if d.err == nil && string(got[:len(want.b)]) != string(want.b) {
		return nil, nil, fmt.Errorf("dpb: snapshot of an %s with another configuration", strings.TrimPrefix(tag, "dpb."))
	}
	ep.readState(d)
	src := d.bytes()
	if d.err != nil {
		return nil, nil, d.err
	}
	return d, src, nil
}
