package ss18

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// TestPrepareLockstepSameBits runs two copies of the same policies on one
// environment in lockstep, one copy prepared by prepareLockstep every round
// and the other by its own Choose, and requires the same action from each
// pair every round and the same bits in β_t, ln det V_t, M and z, for
// d = 2, 5, 9, 16 (four at a time in vector lanes) and 17 (one by one): the
// SS18 variants in Plain mode (the shifted Wishart's V_t then fails to be
// positive definite now and then, which the test requires to happen at
// d = 5, so the jitter path is covered), a fifth policy (a group of one) and
// a ridge LinUCB of another dimension. Deterministic: no false failures.
func TestPrepareLockstepSameBits(t *testing.T) {
	for _, d := range []int{2, 5, 9, 16, 17} {
		n := 4000
		if d > 5 {
			n = 600
		}
		notPD := prepareLockstepSameBits(t, d, n)
		if d == 5 && notPD == 0 {
			t.Fatal("no V_t failed to be positive definite: the jitter path went untested")
		}
	}
}

func prepareLockstepSameBits(t *testing.T, d, n int) int {
	s := Setting{D: d, N: n, Epsilon: 1, Delta: 0.1, Lt2: 2}
	mk := func() []bandit.Policy {
		var ps []bandit.Policy
		for i, a := range []Alg{NonPrivate, Gaussian, Wishart, WishartUnshifted, Wishart} {
			p, err := NewPolicy(PolicyConfig{Alg: a, Setting: s, Mode: counter.Plain, Noise: noise.Simulated}, bandit.Stream(9, uint64(i)))
			if err != nil {
				t.Fatal(err)
			}
			ps = append(ps, p)
		}
		other, err := NewPolicy(PolicyConfig{Alg: NonPrivate, Setting: Setting{D: 3, N: n, Lt2: 2}, Noise: noise.Simulated}, bandit.Stream(9, 99))
		if err != nil {
			t.Fatal(err)
		}
		return append(ps, other)
	}
	a, b := mk(), mk()
	env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: d, K: 25, Gap: 0.1}, bandit.Stream(9, 100+uint64(d)))
	if err != nil {
		t.Fatal(err)
	}
	env3, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 3, K: 9}, bandit.Stream(9, 101))
	if err != nil {
		t.Fatal(err)
	}
	r, r3 := bandit.NewRound(env), bandit.NewRound(env3)
	same := func(x, y []float64, what string, round, p int) {
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
				t.Fatalf("d %d, round %d, policy %d: %s[%d] is %v (lockstep), %v (alone)", d, round, p, what, i, x[i], y[i])
			}
		}
	}
	for tt := 1; tt <= n; tt++ {
		env.Next(r, tt)
		env3.Next(r3, tt)
		prepareLockstep(a)
		for p := range a {
			rr := r
			if p == len(a)-1 {
				rr = r3
			}
			pa, pb := a[p].(*LinUCB), b[p].(*LinUCB)
			if p < len(a)-1 && !pa.f.fresh {
				t.Fatalf("d %d, round %d: policy %d not prepared by PrepareLockstep", d, tt, p)
			}
			ca, cb := pa.Choose(rr), pb.Choose(rr)
			if ca != cb {
				t.Fatalf("d %d, round %d, policy %d: action %d (lockstep), %d (alone)", d, tt, p, ca, cb)
			}
			same([]float64{pa.beta, pa.logDet}, []float64{pb.beta, pb.logDet}, "β, ln det", tt, p)
			same(pa.f.mt, pb.f.mt, "M", tt, p)
			same(pa.f.zp, pb.f.zp, "z", tt, p)
			var y float64
			if p == len(a)-1 {
				y = env3.Reward(r3, ca)
			} else {
				y = env.Reward(r, ca)
			}
			pa.Update(rr, ca, y)
			pb.Update(rr, cb, y)
		}
	}
	notPD := 0
	for p := range a {
		if a[p].(*LinUCB).NotPD() != b[p].(*LinUCB).NotPD() {
			t.Fatalf("policy %d: %d jittered rounds (lockstep), %d (alone)", p, a[p].(*LinUCB).NotPD(), b[p].(*LinUCB).NotPD())
		}
		notPD += a[p].(*LinUCB).NotPD()
	}
	return notPD
}

// TestChooseLockstepSameBits runs two copies of the same policies, one
// choosing through chooseLockstep and the other through Choose, and requires
// the same action and the same bits in every score, every round: d = 2…9
// (9 is above LockMaxDim, chosen one by one), K from 1 to 70 (no block of
// four, an odd number of blocks, a K mod 4 tail of 1–3 actions), six SS18
// policies (a group of four, then a group of two) and a stand-in policy that
// is not a LinUCB. Each round also scores a second decision set with awkward
// actions (coordinates scaled by up to 2^±300, zeros of both signs), and,
// with β set to 0, one that the first policy scores ≤ 0 everywhere (lanes
// past the last action must never win), without learning from them.
// Deterministic: no false failures.
func TestChooseLockstepSameBits(t *testing.T) {
	for d := 2; d <= 9; d++ {
		for _, k := range []int{1, 3, 4, 5, 8, 12, 13, 16, 25, 31, 33, 70} {
			chooseLockstepSameBits(t, d, k)
		}
	}
}

type fixedPolicy struct{ arm int }

func (f fixedPolicy) Choose(*bandit.Round) int         { return f.arm }
func (fixedPolicy) Update(*bandit.Round, int, float64) {}

func chooseLockstepSameBits(t *testing.T, d, k int) {
	const n = 40
	s := Setting{D: d, N: n, Epsilon: 1, Delta: 0.1, Lt2: 2}
	mk := func() []bandit.Policy {
		var ps []bandit.Policy
		for i, a := range []Alg{NonPrivate, Gaussian, Wishart, WishartUnshifted, Gaussian, Wishart} {
			p, err := NewPolicy(PolicyConfig{Alg: a, Setting: s, Mode: counter.Padded, Noise: noise.Simulated}, bandit.Stream(11, uint64(i)))
			if err != nil {
				t.Fatal(err)
			}
			ps = append(ps, p)
			if i == 2 {
				ps = append(ps, fixedPolicy{k - 1})
			}
		}
		return ps
	}
	a, b := mk(), mk()
	env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: d, K: k}, bandit.Stream(11, 100+uint64(d)))
	if err != nil {
		t.Fatal(err)
	}
	r := bandit.NewRound(env)
	odd := &bandit.Round{Dim: d, K: k, Actions: make([]float64, k*d)}
	rng := bandit.Stream(12, uint64(d*100+k))
	armsA, armsB := make([]int, len(a)), make([]int, len(b))
	check := func(rr *bandit.Round, tt int, what string) {
		chooseLockstep(a, rr, armsA)
		for p, pol := range b {
			armsB[p] = pol.Choose(rr)
			if armsA[p] != armsB[p] {
				t.Fatalf("d %d, K %d, round %d (%s), policy %d: action %d (lockstep), %d (alone)", d, k, tt, what, p, armsA[p], armsB[p])
			}
			pa, ok := a[p].(*LinUCB)
			if !ok {
				continue
			}
			pb := pol.(*LinUCB)
			for i := 0; i < k; i++ {
				if x, y := pa.f.scores[i], pb.f.scores[i]; math.Float64bits(x) != math.Float64bits(y) {
					t.Fatalf("d %d, K %d, round %d (%s), policy %d: score %d is %v (lockstep), %v (alone)", d, k, tt, what, p, i, x, y)
				}
			}
		}
	}
	for tt := 1; tt <= n; tt++ {
		env.Next(r, tt)
		copy(odd.Actions, r.Actions)
		for i := range odd.Actions {
			switch u := rng.IntN(8); u {
			case 0:
				odd.Actions[i] = 0
			case 1:
				odd.Actions[i] = math.Copysign(0, -1)
			default:
				odd.Actions[i] = math.Ldexp(odd.Actions[i], rng.IntN(601)-300)
			}
		}
		odd.T = tt
		check(odd, tt, "awkward set")
		check(r, tt, "environment's set")
		// With β = 0 a score is ⟨z, M x⟩, odd in x: turn every action of
		// the environment's set that policy 0 scores above 0 around, so
		// that each of its scores is ≤ 0 (padding lanes, which would score
		// 0, must not win).
		for _, ps := range [][]bandit.Policy{a, b} {
			for _, pol := range ps {
				if p, ok := pol.(*LinUCB); ok {
					p.ensure()
					p.beta = 0
				}
			}
		}
		copy(odd.Actions, r.Actions)
		b[0].Choose(odd)
		for j, v := range b[0].(*LinUCB).f.scores[:k] {
			if v > 0 {
				for i := j * d; i < (j+1)*d; i++ {
					odd.Actions[i] = -odd.Actions[i]
				}
			}
		}
		check(odd, tt, "set scored ≤ 0 by policy 0")
		for p := range a {
			y := env.Reward(r, armsA[p])
			a[p].Update(r, armsA[p], y)
			b[p].Update(r, armsB[p], y)
		}
	}
	for p := range a {
		if pa, ok := a[p].(*LinUCB); ok && (pa.Err() != nil || b[p].(*LinUCB).Err() != nil) {
			t.Fatalf("d %d, K %d, policy %d stopped learning: %v / %v", d, k, p, pa.Err(), b[p].(*LinUCB).Err())
		}
	}
}

// BenchmarkChooseLockstep times choosing for SS18 Fig. 4's four variants
// (d = 5, K = 25, padded tree) on one prepared decision set: each policy's
// Choose in turn (alone), or chooseLockstep (lockstep).
func BenchmarkChooseLockstep(b *testing.B) {
	for _, mode := range []string{"alone", "lockstep"} {
		b.Run("mode="+mode, func(b *testing.B) {
			s := Setting{D: 5, N: 1000000, Epsilon: 1, Delta: 0.1, Lt2: 2}
			var pols []bandit.Policy
			for i, a := range Algs {
				p, err := NewPolicy(PolicyConfig{Alg: a, Setting: s, Mode: counter.Padded, Noise: noise.Simulated}, bandit.Stream(1, uint64(1+i)))
				if err != nil {
					b.Fatal(err)
				}
				pols = append(pols, p)
			}
			env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 5, K: 25, Gap: 0.1}, bandit.Stream(1, 0))
			if err != nil {
				b.Fatal(err)
			}
			r := bandit.NewRound(env)
			for t := 1; t <= 100; t++ {
				env.Next(r, t)
				for _, p := range pols {
					a := p.Choose(r)
					p.Update(r, a, env.Reward(r, a))
				}
			}
			env.Next(r, 101)
			arms := make([]int, len(pols))
			chooseLockstep(pols, r, arms) // prepared
			b.ReportAllocs()
			for b.Loop() {
				if mode == "alone" {
					for i, p := range pols {
						arms[i] = p.Choose(r)
					}
				} else {
					chooseLockstep(pols, r, arms)
				}
			}
		})
	}
}

// TestPrepareInterleavedSameBits compares prepareFactors at d ≤
// cholInvMaxDim (each row of M computed as soon as the factorisation has
// written its row of L) with cholesky followed by InverseFactorTo, bit for
// bit in L, M and z, on 50 random positive definite V per d (B Bᵀ/d + 10⁻³·I,
// some nearly singular) and random ũ. Deterministic: no false failures.
func TestPrepareInterleavedSameBits(t *testing.T) {
	g := noise.NewFastRand(bandit.Stream(5, 5))
	for d := 1; d <= cholInvMaxDim+1; d++ {
		reg, err := NewRegularizer(RegularizerConfig{Kind: RegRidge, Setting: Setting{D: d}, Lambda: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := NewLinUCB(LinUCBConfig{Dim: d, Horizon: 10, Regularizer: reg})
		if err != nil {
			t.Fatal(err)
		}
		bm := make([]float64, d*d)
		for trial := range 50 {
			g.NormalsTo(bm)
			for i := range d {
				for j := range d {
					var s float64
					for k := range d {
						s += float64(bm[i*d+k] * bm[j*d+k])
					}
					p.f.v[i*d+j] = s / float64(d)
				}
				p.f.v[i*d+i] += 1e-3
			}
			g.NormalsTo(p.f.u)
			l := append([]float64(nil), p.f.v...)
			mt, zp := make([]float64, len(p.f.mt)), make([]float64, len(p.f.zp))
			if !simd.Cholesky(l, make([]float64, d), d) {
				t.Fatalf("d %d, trial %d: not positive definite", d, trial)
			}
			simd.InverseFactorTo(mt, zp, l, p.f.u, make([]float64, d*p.f.dp), d, p.f.dp)
			clear(p.f.mt)
			clear(p.f.zp)
			prepareFactors(p)
			for _, c := range []struct {
				what      string
				got, want []float64
			}{{"L", p.f.v, l}, {"M", p.f.mt, mt}, {"z", p.f.zp, zp}} {
				for i := range c.want {
					if math.Float64bits(c.got[i]) != math.Float64bits(c.want[i]) {
						t.Fatalf("d %d, trial %d: %s[%d] is %v interleaved, %v in turn", d, trial, c.what, i, c.got[i], c.want[i])
					}
				}
			}
		}
	}
}
