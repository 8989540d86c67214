package anytime

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// ownStreamPolicy is what the snapshot tests need of both anytime policies.
type ownStreamPolicy interface {
	bandit.Policy
	MarshalBinary() ([]byte, error)
	UnmarshalBinary([]byte) error
	Rounds() int
	Epoch() (int, int)
	Privacy() bandit.Privacy
}

// runActions plays pol against env for rounds from..to (1-based, env already
// advanced to from−1) and returns the actions.
func runActions(env bandit.Environment, r *bandit.Round, pol bandit.Policy, from, to int) []int {
	var acts []int
	for t := from; t <= to; t++ {
		env.Next(r, t)
		a := pol.Choose(r)
		acts = append(acts, a)
		pol.Update(r, a, env.Reward(r, a))
	}
	return acts
}

type snapshotCase struct {
	name   string
	newEnv func() bandit.Environment
	newPol func(src *rand.ChaCha8) (ownStreamPolicy, error)
}

func snapshotCases() []snapshotCase {
	const d, k, n0 = 3, 9, 40
	lin := func() bandit.Environment {
		env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: d, K: k, Gap: 0.1}, bandit.Stream(7, bandit.StreamID(0, 0)))
		if err != nil {
			panic(err)
		}
		return env
	}
	karmed := func() bandit.Environment {
		env, err := dpenv.NewKArmedEnv(dpenv.KArmedConfig{Means: []float64{0.9, 0.6, 0.5, 0.4}, Noise: dpenv.Bernoulli}, bandit.Stream(7, bandit.StreamID(0, 0)))
		if err != nil {
			panic(err)
		}
		return env
	}
	var cases []snapshotCase
	algs := append(append([]ss18.Alg(nil), ss18.Algs...), ss18.GaussianExact, ss18.GaussianHonaker, ss18.GaussianSmooth, ss18.GaussianSqrt, ss18.GaussianBLT, ss18.WishartTight)
	for _, alg := range algs {
		for _, mode := range []counter.ReleaseMode{counter.Plain, counter.Padded} {
			cases = append(cases, snapshotCase{
				name:   fmt.Sprintf("SS18/%v/%v", alg, mode),
				newEnv: lin,
				newPol: func(src *rand.ChaCha8) (ownStreamPolicy, error) {
					return NewSS18FromSource(ss18.PolicyConfig{Alg: alg, Mode: mode,
						Setting: ss18.Setting{D: d, N: n0, Epsilon: 1, Delta: 0.1, Lt2: 2}, Noise: noise.Simulated}, src)

				},
			})
		}
	}
	for _, mode := range []counter.ReleaseMode{counter.Plain, counter.Padded} {
		cases = append(cases, snapshotCase{
			name:   fmt.Sprintf("DPUCB/%v", mode),
			newEnv: karmed,
			newPol: func(src *rand.ChaCha8) (ownStreamPolicy, error) {
				return NewDPUCBFromSource(mt14.DPUCBConfig{Arms: 4, Horizon: n0, Epsilon: 1, Mode: mode, Noise: noise.Simulated}, src)
			},
		})
	}
	for _, kind := range []counter.Kind{counter.Honaker, counter.Smooth, counter.Kary} {
		cases = append(cases, snapshotCase{
			name:   fmt.Sprintf("DPUCB/%v", kind),
			newEnv: karmed,
			newPol: func(src *rand.ChaCha8) (ownStreamPolicy, error) {
				return NewDPUCBFromSource(mt14.DPUCBConfig{Arms: 4, Horizon: n0, Epsilon: 1, Counter: kind, Noise: noise.Simulated}, src)
			},
		})
	}
	// Secure noise on seeded bits: the sampler's buffered bits are saved.
	for _, alg := range []ss18.Alg{ss18.Gaussian, ss18.GaussianExact, ss18.GaussianHonaker, ss18.GaussianSmooth,
		ss18.GaussianSqrt, ss18.GaussianBLT, ss18.GaussianBLTSharp, ss18.GaussianBLTRound} {
		cases = append(cases, snapshotCase{
			name:   fmt.Sprintf("SS18/%v/secure-seeded", alg),
			newEnv: lin,
			newPol: func(src *rand.ChaCha8) (ownStreamPolicy, error) {
				return NewSS18FromSource(ss18.PolicyConfig{Alg: alg, Mode: counter.Padded, Noise: noise.SecureSeeded,
					Setting: ss18.Setting{D: d, N: n0, Epsilon: 1, Delta: 0.1, Lt2: 2}}, src)

			},
		})
	}
	for _, kind := range []counter.Kind{counter.Tree, counter.Honaker, counter.Smooth, counter.Kary} {
		cases = append(cases, snapshotCase{
			name:   fmt.Sprintf("DPUCB/%v/secure-seeded", kind),
			newEnv: karmed,
			newPol: func(src *rand.ChaCha8) (ownStreamPolicy, error) {
				return NewDPUCBFromSource(mt14.DPUCBConfig{Arms: 4, Horizon: n0, Epsilon: 1, Counter: kind, Noise: noise.SecureSeeded}, src)
			},
		})
	}
	return cases
}

// A policy saved at round t0 and restored into a policy built with another
// source continues with the same actions and ends in the same state, bit for
// bit (the final snapshots are compared byte for byte), for t0 in the first
// epoch, on an epoch boundary and in a later epoch.
func TestAnytimeSnapshotContinuesBitIdentically(t *testing.T) {
	const total = 280 // epochs of 40, 80, 160 rounds: ends with epoch 2 full
	for _, c := range snapshotCases() {
		for _, t0 := range []int{0, 17, 40, 41, 200} {
			t.Run(fmt.Sprintf("%s/t0=%d", c.name, t0), func(t *testing.T) {
				envA := c.newEnv()
				rA := bandit.NewRound(envA)
				a, err := c.newPol(bandit.StreamSource(1, 1))
				if err != nil {
					t.Fatal(err)
				}
				runActions(envA, rA, a, 1, t0)
				snap, err := a.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				want := runActions(envA, rA, a, t0+1, total)
				wantState, _ := a.MarshalBinary()

				b, err := c.newPol(rand.NewChaCha8([32]byte{9}))
				if err != nil {
					t.Fatal(err)
				}
				if err := b.UnmarshalBinary(snap); err != nil {
					t.Fatal(err)
				}
				again, _ := b.MarshalBinary()
				if !bytes.Equal(again, snap) {
					t.Fatalf("restored state re-marshals differently")
				}
				// The environment is the caller's: replay its t0 rounds (its
				// draws do not depend on the actions).
				envB := c.newEnv()
				rB := bandit.NewRound(envB)
				for s := 1; s <= t0; s++ {
					envB.Next(rB, s)
				}
				got := runActions(envB, rB, b, t0+1, total)
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("round %d: restored policy plays %d, original %d", t0+1+i, got[i], want[i])
					}
				}
				gotState, _ := b.MarshalBinary()
				if !bytes.Equal(gotState, wantState) {
					t.Fatalf("final states differ after %d rounds", total)
				}
				if e, _ := b.Epoch(); e != 2 || b.Rounds() != total {
					t.Fatalf("epoch %d, rounds %d; want 2, %d", e, b.Rounds(), total)
				}
			})
		}
	}
}

// Restoring refuses snapshots of another policy type, another configuration,
// or truncated data.
func TestAnytimeSnapshotRejects(t *testing.T) {
	set := ss18.Setting{D: 3, N: 40, Epsilon: 1, Delta: 0.1, Lt2: 2}
	a, _ := NewSS18FromSource(ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: set, Noise: noise.Simulated}, bandit.StreamSource(1, 1))
	snap, _ := a.MarshalBinary()
	other := set
	other.Epsilon = 2
	b, _ := NewSS18FromSource(ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: other, Noise: noise.Simulated}, bandit.StreamSource(1, 1))
	if err := b.UnmarshalBinary(snap); err == nil || !strings.Contains(err.Error(), "configuration") {
		t.Errorf("other configuration: err = %v", err)
	}
	c, _ := NewSS18FromSource(ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: set, Noise: noise.Simulated}, bandit.StreamSource(1, 1))
	for _, cut := range []int{0, 10, len(snap) / 2, len(snap) - 1} {
		if err := c.UnmarshalBinary(snap[:cut]); err == nil {
			t.Errorf("truncated to %d bytes: no error", cut)
		}
	}
	u, _ := NewDPUCBFromSource(mt14.DPUCBConfig{Arms: 2, Horizon: 40, Epsilon: 1, Noise: noise.Simulated}, bandit.StreamSource(1, 1))
	if err := u.UnmarshalBinary(snap); err == nil || !strings.Contains(err.Error(), "AnytimeSS18") {
		t.Errorf("wrong type: err = %v", err)
	}
}

// The first epoch is exactly the fixed-horizon policy of its configuration:
// NewPolicy(EpochConfig(0), Stream(seed, id)) plays the same actions, so
// the anytime policy with a right guess is the policy of the figures.
func TestAnytimeFirstEpochIsFixedHorizon(t *testing.T) {
	const n0 = 200
	for _, alg := range ss18.Algs {
		cfg := ss18.PolicyConfig{Alg: alg, Mode: counter.Padded, Setting: ss18.Setting{D: 3, N: n0, Epsilon: 1, Delta: 0.1, Lt2: 2}, Noise: noise.Simulated}
		any, err := NewSS18FromSource(cfg, bandit.StreamSource(3, 4))
		if err != nil {
			t.Fatal(err)
		}
		fixed, err := ss18.NewPolicy(any.EpochConfig(0), bandit.Stream(3, 4))
		if err != nil {
			t.Fatal(err)
		}
		mk := func() (bandit.Environment, *bandit.Round) {
			env, _ := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 3, K: 9, Gap: 0.1}, bandit.Stream(3, 0))
			return env, bandit.NewRound(env)
		}
		e1, r1 := mk()
		e2, r2 := mk()
		a1 := runActions(e1, r1, any, 1, n0)
		a2 := runActions(e2, r2, fixed, 1, n0)
		for i := range a1 {
			if a1[i] != a2[i] {
				t.Fatalf("%v: round %d: anytime plays %d, fixed-horizon %d", alg, i+1, a1[i], a2[i])
			}
		}
	}
}

// Past the initial guess: the fixed-horizon policy refuses round n₀ + 1; the
// anytime one plays on through epochs of 100, 200, 400, 800 rounds (starting
// at rounds 1, 101, 301, 701) and states the same (ε, δ) in every round.
func TestAnytimePastHorizon(t *testing.T) {
	const n0, total = 100, 1500
	set := ss18.Setting{D: 3, N: n0, Epsilon: 1, Delta: 0.1, Lt2: 2}
	fixed, _ := ss18.NewPolicy(ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: set, Noise: noise.Simulated}, bandit.Stream(1, 1))
	env, _ := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 3, K: 9, Gap: 0.1}, bandit.Stream(1, 0))
	r := bandit.NewRound(env)
	runActions(env, r, fixed, 1, n0)
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("fixed-horizon policy accepted round %d", n0+1)
			}
		}()
		runActions(env, r, fixed, n0+1, n0+1)
	}()

	for _, alg := range []ss18.Alg{ss18.Gaussian, ss18.Wishart} {
		p, err := NewSS18FromSource(ss18.PolicyConfig{Alg: alg, Mode: counter.Padded, Setting: set, Noise: noise.Simulated}, bandit.StreamSource(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		env, _ := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 3, K: 9, Gap: 0.1}, bandit.Stream(1, 0))
		r := bandit.NewRound(env)
		for t0 := 1; t0 <= total; t0++ {
			env.Next(r, t0)
			p.Update(r, p.Choose(r), env.Reward(r, 0))
			if start := map[int]int{1: 0, 101: 1, 301: 2, 701: 3}; start[t0] != 0 || t0 == 1 {
				if e, h := p.Epoch(); e != start[t0] || h != n0<<e {
					t.Fatalf("%v round %d: epoch %d (horizon %d), want %d", alg, t0, e, h, start[t0])
				}
			}
			pr := p.Privacy()
			if !pr.Private || pr.Epsilon != 1 || pr.Delta != 0.1 {
				t.Fatalf("%v round %d: privacy %v", alg, t0, pr)
			}
		}
		pr := p.Privacy()
		if e, _ := p.Epoch(); e != 3 || p.Rounds() != total || !strings.Contains(pr.Accounting, "epoch 3") {
			t.Fatalf("%v: epoch %d, rounds %d, privacy %v", alg, e, p.Rounds(), pr)
		}
		if got := p.Current().Bounds(); !(got.RhoMin > 0) {
			t.Fatalf("%v: epoch 3 bounds %+v", alg, got)
		}
		if cur := p.EpochConfig(3); cur.Setting.N != 800 || cur.Setting.Alpha != 1.0/n0/16 {
			t.Fatalf("%v: epoch 3 setting %+v", alg, cur.Setting)
		}
	}
	u, _ := NewDPUCBFromSource(mt14.DPUCBConfig{Arms: 3, Horizon: n0, Epsilon: 0.5, Noise: noise.Simulated}, bandit.StreamSource(1, 1))
	kenv, _ := dpenv.NewKArmedEnv(dpenv.KArmedConfig{Means: []float64{0.9, 0.5, 0.4}, Noise: dpenv.Bernoulli}, bandit.Stream(1, 0))
	kr := bandit.NewRound(kenv)
	runActions(kenv, kr, u, 1, total)
	if e, _ := u.Epoch(); e != 3 || u.Privacy().Epsilon != 0.5 || u.Privacy().Delta != 0 || math.IsInf(u.Current().NodeScale(), 0) {
		t.Fatalf("DP-UCB: epoch %d, privacy %v", e, u.Privacy())
	}
}

// A round of the anytime policies allocates nothing within an epoch (a new
// epoch builds a new policy, once per doubling).
func TestAnytimeRoundAllocs(t *testing.T) {
	p, _ := NewSS18FromSource(ss18.PolicyConfig{Alg: ss18.Gaussian, Mode: counter.Padded, Setting: ss18.Setting{D: 3, N: 1 << 12, Epsilon: 1, Delta: 0.1, Lt2: 2}, Noise: noise.Simulated}, bandit.StreamSource(1, 1))
	env, _ := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 3, K: 9, Gap: 0.1}, bandit.Stream(1, 0))
	r := bandit.NewRound(env)
	tt := 0
	step := func() {
		tt++
		env.Next(r, tt)
		a := p.Choose(r)
		p.Update(r, a, env.Reward(r, a))
	}
	step()
	if n := testing.AllocsPerRun(200, step); n != 0 {
		t.Errorf("AnytimeSS18 round: %v allocations", n)
	}
	u, _ := NewDPUCBFromSource(mt14.DPUCBConfig{Arms: 3, Horizon: 1 << 12, Epsilon: 1, Noise: noise.Simulated}, bandit.StreamSource(1, 1))
	kr := &bandit.Round{K: 3}
	ustep := func() {
		kr.T++
		u.Update(kr, u.Choose(kr), 0.5)
	}
	ustep()
	if n := testing.AllocsPerRun(200, ustep); n != 0 {
		t.Errorf("AnytimeDPUCB round: %v allocations", n)
	}
}

// BenchmarkAnytimeSS18Snapshot: saving and restoring the Gaussian variant at
// d = 5, padded tree of 2^20 rounds (m = 21 levels of 21-entry packed node
// noise), the cost a service pays per checkpoint.
func BenchmarkAnytimeSS18Snapshot(b *testing.B) {
	cfg := ss18.PolicyConfig{Alg: ss18.Gaussian, Mode: counter.Padded, Setting: ss18.Setting{D: 5, N: 1 << 20, Epsilon: 1, Delta: 0.1, Lt2: 2}, Noise: noise.Simulated}
	p, _ := NewSS18FromSource(cfg, bandit.StreamSource(1, 1))
	env, _ := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 5, K: 25, Gap: 0.1}, bandit.Stream(1, 0))
	r := bandit.NewRound(env)
	for t := 1; t <= 1000; t++ {
		env.Next(r, t)
		a := p.Choose(r)
		p.Update(r, a, env.Reward(r, a))
	}
	q, _ := NewSS18FromSource(cfg, bandit.StreamSource(2, 2))
	b.ReportAllocs()
	var size int
	for b.Loop() {
		snap, err := p.MarshalBinary()
		if err != nil {
			b.Fatal(err)
		}
		if err := q.UnmarshalBinary(snap); err != nil {
			b.Fatal(err)
		}
		size = len(snap)
	}
	b.ReportMetric(float64(size), "bytes/snapshot")
}

// Secure-mode policies on crypto/rand save and restore: the restored one
// has the original's sums and node noises (its snapshot, taken again before
// any draw, is byte-identical) and goes on with fresh bits; the
// configuration fingerprint includes the noise mode, so a simulated
// policy's snapshot is refused by a secure one.
func TestAnytimeSnapshotNoiseMode(t *testing.T) {
	set := ss18.Setting{D: 3, N: 40, Epsilon: 1, Delta: 0.1, Lt2: 2}
	for _, alg := range []ss18.Alg{ss18.Gaussian, ss18.GaussianHonaker} {
		cfg := ss18.PolicyConfig{Alg: alg, Setting: set, Noise: noise.Secure}
		sec, err := NewSS18FromSource(cfg, bandit.StreamSource(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		env, _ := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 3, K: 9, Gap: 0.1}, bandit.Stream(1, 0))
		r := bandit.NewRound(env)
		runActions(env, r, sec, 1, 57)
		snap, err := sec.MarshalBinary()
		if err != nil {
			t.Fatalf("%v: a secure-mode policy was not saved: %v", alg, err)
		}
		res, _ := NewSS18FromSource(cfg, bandit.StreamSource(2, 2))
		if err := res.UnmarshalBinary(snap); err != nil {
			t.Fatalf("%v: a secure-mode policy was not restored: %v", alg, err)
		}
		again, _ := res.MarshalBinary()
		if !bytes.Equal(again, snap) {
			t.Errorf("%v: the restored secure policy's state differs from the saved one", alg)
		}
		runActions(env, r, res, 58, 120)
		if p := res.Privacy(); p.Noise != "secure" {
			t.Errorf("%v: restored privacy noise %q", alg, p.Noise)
		}
	}
	sec, _ := NewSS18FromSource(ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: set, Noise: noise.Secure}, bandit.StreamSource(1, 1))
	sim, _ := NewSS18FromSource(ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: set, Noise: noise.Simulated}, bandit.StreamSource(1, 1))
	snap, err := sim.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := sec.UnmarshalBinary(snap); err == nil {
		t.Error("a simulated policy's snapshot was restored into a secure-mode one")
	}
	e1, _ := ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: set, Noise: noise.Simulated}.AppendBinary(nil)
	e2, _ := ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: set, Noise: noise.Secure}.AppendBinary(nil)
	if bytes.Equal(e1, e2) {
		t.Error("the configuration fingerprint ignores the noise mode")
	}
}

// DP-UCB on Honaker's and the smooth counter also saves and restores
// bit-identically, and a snapshot of one counter is refused by another.
func TestAnytimeDPUCBCounters(t *testing.T) {
	newEnv := func() bandit.Environment {
		env, _ := dpenv.NewKArmedEnv(dpenv.KArmedConfig{Means: []float64{0.9, 0.6, 0.5}, Noise: dpenv.Bernoulli}, bandit.Stream(7, 0))
		return env
	}
	for _, k := range []counter.Kind{counter.Honaker, counter.Smooth, counter.Kary} {
		cfg := mt14.DPUCBConfig{Arms: 3, Horizon: 40, Epsilon: 1, Counter: k, NoRelaxation: true, Noise: noise.Simulated}
		a, err := NewDPUCBFromSource(cfg, bandit.StreamSource(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		envA := newEnv()
		rA := bandit.NewRound(envA)
		runActions(envA, rA, a, 1, 70)
		snap, _ := a.MarshalBinary()
		want := runActions(envA, rA, a, 71, 200)
		b, _ := NewDPUCBFromSource(cfg, bandit.StreamSource(5, 5))
		if err := b.UnmarshalBinary(snap); err != nil {
			t.Fatal(err)
		}
		envB := newEnv()
		rB := bandit.NewRound(envB)
		for s := 1; s <= 70; s++ {
			envB.Next(rB, s)
		}
		got := runActions(envB, rB, b, 71, 200)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%v: round %d: restored %d, original %d", k, 71+i, got[i], want[i])
			}
		}
		other := cfg
		other.Counter = counter.Tree
		c, _ := NewDPUCBFromSource(other, bandit.StreamSource(1, 1))
		if err := c.UnmarshalBinary(snap); err == nil {
			t.Errorf("%v snapshot restored into a tree-counter policy", k)
		}
	}
}

// A next epoch that cannot be built is an error, not a panic: the policy
// keeps playing its full epoch and stops learning (forced here by making the
// configuration invalid after construction).
func TestAnytimeEpochFailure(t *testing.T) {
	p, err := NewSS18FromSource(ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: ss18.Setting{D: 3, N: 20, Epsilon: 1, Delta: 0.1, Lt2: 2}, Noise: noise.Simulated}, bandit.StreamSource(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	p.cfg.Setting.Epsilon = -1
	env, _ := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 3, K: 9, Gap: 0.1}, bandit.Stream(1, 0))
	runActions(env, bandit.NewRound(env), p, 1, 30)
	if e, _ := p.Epoch(); p.Err() == nil || e != 0 || p.Rounds() != 20 {
		t.Errorf("epoch %d, rounds %d, err %v", e, p.Rounds(), p.Err())
	}
	u, _ := NewDPUCBFromSource(mt14.DPUCBConfig{Arms: 2, Horizon: 20, Epsilon: 1, Noise: noise.Simulated}, bandit.StreamSource(1, 1))
	u.cfg.Epsilon = -1
	kenv, _ := dpenv.NewKArmedEnv(dpenv.KArmedConfig{Means: []float64{0.9, 0.5}, Noise: dpenv.Bernoulli}, bandit.Stream(1, 0))
	runActions(kenv, bandit.NewRound(kenv), u, 1, 30)
	if e, _ := u.Epoch(); u.Err() == nil || e != 0 || u.Rounds() != 20 {
		t.Errorf("DP-UCB: epoch %d, rounds %d, err %v", e, u.Rounds(), u.Err())
	}
}

// BenchmarkOwnStreamRound: one round (Choose + Update on pre-drawn decision
// sets) of the Gaussian variant at d = 5, K = 25, the fixed-horizon policy
// beside the anytime one within its first epoch: the wrapper's cost.
func BenchmarkOwnStreamRound(b *testing.B) {
	const d, k, n = 5, 25, 1 << 22
	env, _ := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: d, K: k, Gap: 0.1}, bandit.Stream(1, 0))
	const sets = 256
	rounds := make([]*bandit.Round, sets)
	rewards := make([][]float64, sets)
	for i := range rounds {
		r := bandit.NewRound(env)
		env.Next(r, i+1)
		rounds[i] = r
		rewards[i] = make([]float64, k)
		for a := range rewards[i] {
			rewards[i][a] = env.Reward(r, a)
		}
	}
	cfg := ss18.PolicyConfig{Alg: ss18.Gaussian, Mode: counter.Padded, Setting: ss18.Setting{D: d, N: n, Epsilon: 1, Delta: 0.1, Lt2: 2}, Noise: noise.Simulated}
	for _, name := range []string{"fixed", "anytime"} {
		b.Run("policy="+name, func(b *testing.B) {
			var p bandit.Policy
			if name == "fixed" {
				p, _ = ss18.NewPolicy(cfg, bandit.Stream(1, 1))
			} else {
				p, _ = NewSS18FromSource(cfg, bandit.StreamSource(1, 1))
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				r := rounds[i%sets]
				a := p.Choose(r)
				p.Update(r, a, rewards[i%sets][a])
				i++
			}
		})
	}
}
