package anytime

import (
	"bytes"
	"encoding"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/snap"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// ownSource returns a ChaCha8 source keyed by four Uint64 drawn from rng:
// the random state an anytime policy built from a *rand.Rand owns and saves
// (a *rand.Rand hides its source, so it cannot be saved itself).
func ownSource(rng *rand.Rand) *rand.ChaCha8 {
	if rng == nil {
		panic(param.NilRand)
	}
	var key [32]byte
	for i := 0; i < len(key); i += 8 {
		binary.LittleEndian.PutUint64(key[i:], rng.Uint64())
	}
	return rand.NewChaCha8(key)
}

// epochs is the doubling schedule of the anytime policies (see [SS18]).
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

// AppendBinary appends the epoch, the rounds before it and the rounds in all.
func (ep *epochs) AppendBinary(b []byte) ([]byte, error) {
	e := snap.Enc{B: b}
	e.Int(ep.e)
	e.Int(ep.start)
	e.Int(ep.done)
	return e.B, nil
}

// UnmarshalBinary restores what AppendBinary wrote, checked against the
// initial horizon.
func (ep *epochs) UnmarshalBinary(data []byte) error {
	d := snap.NewDec("anytime", data)
	e, start, done := d.Int(), d.Int(), d.Int()
	if err := d.Done(); err != nil {
		return err
	}
	if e < 0 || ep.n0<<e > maxEpochHorizon || start != ep.n0*((1<<e)-1) || done < start || done > start+ep.n0<<e {
		return fmt.Errorf("anytime: snapshot epoch %d (rounds %d, %d) inconsistent with the initial horizon %d", e, start, done, ep.n0)
	}
	ep.e, ep.start, ep.done = e, start, done
	return nil
}

// SS18 is a variant of SS18 Algorithm 1 ([ss18.NewPolicy]) for an
// unknown horizon, by the doubling trick with a fresh tree per epoch:
// cfg.Setting.N is the initial guess n₀, and the policy keeps playing past
// it, (ε, δ)-jointly private for any number of rounds. It owns its random
// source, so [SS18.MarshalBinary] saves everything a bit-identical
// continuation needs. [DPUCB] does the same for MT14's DP-UCB.
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
//
// An SS18 is not safe for concurrent use: wrap it in [bandit.NewLocked] to
// share it between goroutines (a service's handlers).
type SS18 struct {
	cfg   ss18.PolicyConfig
	alpha float64
	src   *rand.ChaCha8
	rng   *rand.Rand
	ep    epochs
	cur   *ss18.LinUCB
	err   error // the first rejected observation: learning stops there, as in LinUCB
	skip  int   // rounds UpdateErr skipped since construction or restore
}

var _ bandit.Checked = (*SS18)(nil)

// NewSS18 returns the policy, drawing from rng like every other constructor
// in dpb. The policy owns its random state so that MarshalBinary can save
// it: it keys a ChaCha8 source of its own with 32 bytes (four Uint64) drawn
// from rng here and never touches rng again (one seed still reproduces the
// run bit for bit). Its first epoch is NewPolicy with horizon
// n₀ = cfg.Setting.N and α₀ = α/2. [NewSS18FromSource] draws from a given
// source instead.
func NewSS18(cfg ss18.PolicyConfig, rng *rand.Rand) (*SS18, error) {
	return NewSS18FromSource(cfg, ownSource(rng))
}

// NewSS18FromSource is [NewSS18] drawing from src itself (rand.New(src)) instead
// of a source keyed from a *rand.Rand: for a caller that holds the exact
// stream, e.g. [bandit.StreamSource](seed, id), whose draws it then equals.
// src must not be used by anything else.
func NewSS18FromSource(cfg ss18.PolicyConfig, src *rand.ChaCha8) (*SS18, error) {
	if src == nil {
		panic(param.NilRand)
	}
	if err := cfg.Setting.Validate(); err != nil {
		return nil, err
	}
	requested := cfg.Noise
	cfg.Noise = cfg.Noise.Resolve() // what the epochs, Privacy and snapshots carry
	p := &SS18{cfg: cfg, alpha: cfg.Setting.AlphaOrDefault(), src: src, rng: rand.New(src), ep: epochs{n0: cfg.Setting.N}}
	if err := p.start(); err != nil {
		return nil, noise.ExplainDefault(requested, err)
	}
	return p, nil
}

// EpochConfig returns the configuration of epoch e's policy.
func (p *SS18) EpochConfig(e int) ss18.PolicyConfig {
	c := p.cfg
	c.Setting.N = p.ep.horizon(e)
	c.Setting.Alpha = epochAlpha(p.alpha, e)
	return c
}

func (p *SS18) start() error {
	cur, err := ss18.NewPolicy(p.EpochConfig(p.ep.e), p.rng)
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
func (p *SS18) advance() {
	if p.err != nil || !p.ep.next() {
		return
	}
	if err := p.start(); err != nil {
		p.ep.back()
		p.err = fmt.Errorf("anytime: epoch %d (horizon %d) cannot start: %w", p.ep.e+1, p.ep.horizon(p.ep.e+1), err)
	}
}

// Choose plays the current epoch's LinUCB.
func (p *SS18) Choose(r *bandit.Round) int {
	p.advance()
	return p.cur.Choose(r)
}

// Update feeds the observation to the current epoch's LinUCB (see
// [LinUCB.Update] for rejected observations and [SS18.Err]).
func (p *SS18) Update(r *bandit.Round, arm int, y float64) {
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

// ChooseErr is Choose for decision sets a service cannot vouch for (see
// [ss18.LinUCB.ChooseErr]): a NaN or infinite feature, or a set of the wrong
// shape, is an error and nothing is played.
func (p *SS18) ChooseErr(r *bandit.Round) (int, error) {
	if err := bandit.CheckRound(r, p.cfg.Setting.D); err != nil {
		return -1, err
	}
	p.advance()
	return p.cur.ChooseErr(r)
}

// UpdateErr is Update for a service (see [ss18.LinUCB.UpdateErr]): an
// observation Update would refuse is skipped (it enters the current epoch's
// tree as the zero observation, so the privacy is unchanged), counted in
// Skipped and returned, and the policy keeps learning. After a sticky Err
// it returns Err.
func (p *SS18) UpdateErr(r *bandit.Round, arm int, y float64) error {
	if p.err != nil {
		return p.err
	}
	p.advance()
	if p.err != nil {
		return p.err
	}
	err := p.cur.UpdateErr(r, arm, y)
	p.ep.done++
	if err != nil {
		p.skip++
	}
	return err
}

// Skipped returns the number of rounds UpdateErr skipped since the policy
// was built or restored (a snapshot does not hold it).
func (p *SS18) Skipped() int { return p.skip }

// Err returns the first observation rejected (see [LinUCB.Update]) or the
// error of a next epoch that could not start, or nil. After it the policy
// stops learning: it keeps its epoch and statistics.
func (p *SS18) Err() error { return p.err }

// Rounds returns the number of rounds learned from in all epochs.
func (p *SS18) Rounds() int { return p.ep.done }

// Epoch returns the current epoch e and its horizon n₀·2^e.
func (p *SS18) Epoch() (e, horizon int) { return p.ep.e, p.ep.horizon(p.ep.e) }

// Current returns the current epoch's LinUCB (for inspection: radius, θ̃).
func (p *SS18) Current() *ss18.LinUCB { return p.cur }

// Privacy reports the (ε, δ) of the whole run: that of each epoch's tree,
// by parallel composition over the epochs' disjoint rounds.
func (p *SS18) Privacy() bandit.Privacy {
	return anytimePrivacy(p.cur.Privacy(), p.ep)
}

func anytimePrivacy(inner bandit.Privacy, ep epochs) bandit.Privacy {
	inner.Accounting = fmt.Sprintf("doubling trick from n₀ = %d, now epoch %d (n_e = %d); each epoch a fresh mechanism on its own rounds, so the epochs compose in parallel to the one epoch's guarantee, for any horizon; current epoch: %s",
		ep.n0, ep.e, ep.horizon(ep.e), inner.Accounting)
	return inner
}

const anytimeSS18Tag = "dpb.AnytimeSS18"

// MarshalBinary saves the policy mid-stream: the configuration (to refuse a
// restore into a different one), the epoch, the random source's state and
// the current epoch's LinUCB and tree (sums, node noises, padding, the
// symmetrised Gaussian's generator). A policy restored from it with
// [SS18.UnmarshalBinary] continues bit-identically. Call it between
// rounds (after Update, before the next Choose).
//
// A secure-mode policy saves its sums and drawn node noises; on seeded bits
// (noise.SecureSeeded) also the sampler's buffered bits, so that it continues
// bit-identically; on crypto/rand (noise.Secure) the restored sampler draws
// fresh bits. Restore a snapshot once: two copies restored from it and fed
// different data would measure the rounds of their open tree nodes twice
// (twice the privacy cost for those rounds).
func (p *SS18) MarshalBinary() ([]byte, error) {
	// The sticky error is the current LinUCB's, saved with it.
	return marshal(anytimeSS18Tag, p.cfg, &p.ep, p.src, p.cur)
}

// UnmarshalBinary restores a state saved by MarshalBinary into a policy
// built by NewSS18 or NewSS18FromSource with the same configuration (any source: its state
// is overwritten). On error the policy must not be used.
func (p *SS18) UnmarshalBinary(data []byte) error {
	d, src, err := unmarshal(data, anytimeSS18Tag, p.cfg, &p.ep)
	if err != nil {
		return err
	}
	if err := p.start(); err != nil { // epoch e's policy; its draws are overwritten below
		return err
	}
	if err := p.src.UnmarshalBinary(src); err != nil {
		return err
	}
	d.Blob(p.cur.UnmarshalBinary)
	if err := d.Done(); err != nil {
		return err
	}
	if p.cur.Rounds() != p.ep.done-p.ep.start {
		return fmt.Errorf("anytime: snapshot's LinUCB has %d rounds, its epoch %d", p.cur.Rounds(), p.ep.done-p.ep.start)
	}
	p.err = p.cur.Err()
	return nil
}

// DPUCB is MT14's DP-UCB ([NewDPUCB]) for an unknown horizon, by the
// doubling trick with fresh arm trees per epoch (the derivation, privacy and
// regret, is [SS18]'s):
// cfg.Horizon is the initial guess T₀, epoch e runs DP-UCB for T₀·2^e rounds
// with γ_e = γ·2^{−(e+1)}, and the whole run is ε-DP for any number of
// rounds. It owns its random source, so MarshalBinary saves everything.
//
// A DPUCB is not safe for concurrent use: wrap it in [bandit.NewLocked] to
// share it between goroutines.
type DPUCB struct {
	cfg   mt14.DPUCBConfig
	gamma float64
	src   *rand.ChaCha8
	rng   *rand.Rand
	ep    epochs
	cur   *mt14.DPUCB
	local bandit.Round // the round as the current epoch sees it (T counted from the epoch's start)
	err   error        // a next epoch that could not start (see Err)
	skip  int          // pulls UpdateErr skipped since construction or restore
}

var _ bandit.Checked = (*DPUCB)(nil)

// NewDPUCB returns the policy, drawing from rng like every other
// constructor in dpb; like [NewSS18] it keys a ChaCha8 source of its own
// from four Uint64 of rng, so that MarshalBinary saves its random state.
// Its first epoch is mt14.NewDPUCB with Horizon T₀ and Gamma γ/2.
// [NewDPUCBFromSource] draws from a given source instead.
func NewDPUCB(cfg mt14.DPUCBConfig, rng *rand.Rand) (*DPUCB, error) {
	return NewDPUCBFromSource(cfg, ownSource(rng))
}

// NewDPUCBFromSource is [NewDPUCB] drawing from src itself (rand.New(src)):
// for a caller that holds the exact stream, e.g.
// [bandit.StreamSource](seed, id). src must not be used by anything else.
func NewDPUCBFromSource(cfg mt14.DPUCBConfig, src *rand.ChaCha8) (*DPUCB, error) {
	if src == nil {
		panic(param.NilRand)
	}
	if cfg.Horizon < 2 {
		return nil, fmt.Errorf("anytime: initial horizon is %d, must be >= 2", cfg.Horizon)
	}
	gamma := cfg.Gamma
	if gamma == 0 {
		gamma = 1 / float64(cfg.Horizon)
	}
	if err := param.CheckProb("gamma", gamma); err != nil {
		return nil, err
	}
	requested := cfg.Noise
	cfg.Noise = cfg.Noise.Resolve() // what the epochs, Privacy and snapshots carry
	p := &DPUCB{cfg: cfg, gamma: gamma, src: src, rng: rand.New(src), ep: epochs{n0: cfg.Horizon}}
	if err := p.start(); err != nil {
		return nil, noise.ExplainDefault(requested, err)
	}
	return p, nil
}

// EpochConfig returns the configuration of epoch e's DP-UCB.
func (p *DPUCB) EpochConfig(e int) mt14.DPUCBConfig {
	c := p.cfg
	c.Horizon = p.ep.horizon(e)
	c.Gamma = epochAlpha(p.gamma, e)
	return c
}

func (p *DPUCB) start() error {
	cur, err := mt14.NewDPUCB(p.EpochConfig(p.ep.e), p.rng)
	if err != nil {
		return err
	}
	p.cur = cur
	return nil
}

func (p *DPUCB) advance(r *bandit.Round) *bandit.Round {
	if p.err == nil && p.ep.next() {
		if err := p.start(); err != nil {
			p.ep.back()
			p.err = fmt.Errorf("anytime: epoch %d (horizon %d) cannot start: %w", p.ep.e+1, p.ep.horizon(p.ep.e+1), err)
		}
	}
	p.local = *r
	p.local.T = p.ep.done - p.ep.start + 1
	return &p.local
}

// Choose plays the current epoch's DP-UCB (its round count restarts with the epoch).
func (p *DPUCB) Choose(r *bandit.Round) int { return p.cur.Choose(p.advance(r)) }

// Update feeds the reward to the current epoch's DP-UCB.
func (p *DPUCB) Update(r *bandit.Round, arm int, reward float64) {
	lr := p.advance(r)
	if p.err != nil {
		return
	}
	p.cur.Update(lr, arm, reward)
	p.ep.done++
}

// ChooseErr is Choose returning an error instead of panicking when the
// round's K is not the number of arms.
func (p *DPUCB) ChooseErr(r *bandit.Round) (int, error) {
	if r == nil || r.K != p.cfg.Arms {
		return -1, fmt.Errorf("anytime: round's K is not DP-UCB's %d arms", p.cfg.Arms)
	}
	return p.Choose(r), nil
}

// UpdateErr is the current epoch's [mt14.DPUCB.UpdateErr]: a reward the
// mechanism cannot take is skipped (entered as reward 0, so the privacy is
// unchanged), counted in Skipped and returned, and learning goes on.
func (p *DPUCB) UpdateErr(r *bandit.Round, arm int, reward float64) error {
	if arm < 0 || arm >= p.cfg.Arms {
		return fmt.Errorf("anytime: arm %d outside DP-UCB's %d arms", arm, p.cfg.Arms)
	}
	if !(reward >= 0 && reward <= 1) && (!p.cfg.Clip || math.IsNaN(reward)) {
		p.skip++
		p.Update(r, arm, 0)
		return fmt.Errorf("anytime: round %d skipped: reward %v outside [0, 1] (the bound the mechanism is calibrated for; set Clip to clip)", r.T, reward)
	}
	p.Update(r, arm, reward)
	return nil
}

// Skipped returns the number of pulls UpdateErr skipped since the policy
// was built or restored (a snapshot does not hold it).
func (p *DPUCB) Skipped() int { return p.skip }

// Err returns the error of a next epoch that could not start, or nil: the
// policy then keeps playing the full epoch's DP-UCB and learns nothing more.
func (p *DPUCB) Err() error { return p.err }

// Rounds returns the number of rounds played in all epochs.
func (p *DPUCB) Rounds() int { return p.ep.done }

// Epoch returns the current epoch e and its horizon T₀·2^e.
func (p *DPUCB) Epoch() (e, horizon int) { return p.ep.e, p.ep.horizon(p.ep.e) }

// Current returns the current epoch's DP-UCB.
func (p *DPUCB) Current() *mt14.DPUCB { return p.cur }

// Privacy reports the ε of the whole run (parallel composition over epochs).
func (p *DPUCB) Privacy() bandit.Privacy { return anytimePrivacy(p.cur.Privacy(), p.ep) }

const anytimeDPUCBTag = "dpb.AnytimeDPUCB"

// MarshalBinary saves the policy between rounds, random state included.
// A secure-mode policy saves and restores as [SS18.MarshalBinary] says.
func (p *DPUCB) MarshalBinary() ([]byte, error) {
	return marshal(anytimeDPUCBTag, p.cfg, &p.ep, p.src, p.cur)
}

// UnmarshalBinary restores a state saved by MarshalBinary into a policy
// built by NewDPUCB or NewDPUCBFromSource with the same configuration.
func (p *DPUCB) UnmarshalBinary(data []byte) error {
	d, src, err := unmarshal(data, anytimeDPUCBTag, p.cfg, &p.ep)
	if err != nil {
		return err
	}
	if err := p.start(); err != nil {
		return err
	}
	if err := p.src.UnmarshalBinary(src); err != nil {
		return err
	}
	d.Blob(p.cur.UnmarshalBinary)
	return d.Done()
}

// marshal writes the snapshot of an anytime policy: its tag (with the
// format and stream versions), then as length-prefixed blobs its
// configuration's fingerprint (so that a restore into another one is
// refused), the epoch, the random source's state and the current epoch's
// policy, sealed with the SHA-256 trailer.
func marshal(tag string, cfg, ep, src, cur encoding.BinaryAppender) ([]byte, error) {
	e := &snap.Enc{}
	e.Header(tag)
	for _, part := range []encoding.BinaryAppender{cfg, ep, src, cur} {
		if err := e.Blob(part.AppendBinary); err != nil {
			return nil, err
		}
	}
	return e.Seal(), nil
}

// unmarshal reads what marshal wrote up to the policy's state: it checks
// the trailer and the header, refuses a snapshot of another configuration,
// restores the epoch and returns the decoder (at the policy's state) and
// the random source's saved state.
func unmarshal(data []byte, tag string, cfg encoding.BinaryAppender, ep *epochs) (*snap.Dec, []byte, error) {
	d := snap.Open("anytime", data)
	d.Header(tag)
	want, err := cfg.AppendBinary(nil)
	if err != nil {
		return nil, nil, err
	}
	if got := d.Bytes(); d.Err == nil && !bytes.Equal(got, want) {
		return nil, nil, fmt.Errorf("anytime: snapshot of an %s with another configuration", strings.TrimPrefix(tag, "dpb."))
	}
	d.Blob(ep.UnmarshalBinary)
	src := d.Bytes()
	if d.Err != nil {
		return nil, nil, d.Err
	}
	return d, src, nil
}
