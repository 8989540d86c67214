package dpb

import (
	"math"
	"testing"
)

// TestPrepareLockstepSameBits runs two copies of the same policies on one
// environment in lockstep, one copy prepared by PrepareLockstep every round
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
	s := SS18Setting{D: d, N: n, Epsilon: 1, Delta: 0.1, Lt2: 2}
	mk := func() []Policy {
		var ps []Policy
		for i, a := range []SS18Alg{SS18NonPrivate, SS18Gaussian, SS18Wishart, SS18WishartUnshifted, SS18Wishart} {
			p, err := NewSS18Policy(SS18PolicyConfig{Alg: a, Setting: s, Mode: Plain}, Stream(9, uint64(i)))
			if err != nil {
				t.Fatal(err)
			}
			ps = append(ps, p)
		}
		other, err := NewSS18Policy(SS18PolicyConfig{Alg: SS18NonPrivate, Setting: SS18Setting{D: 3, N: n, Lt2: 2}}, Stream(9, 99))
		if err != nil {
			t.Fatal(err)
		}
		return append(ps, other)
	}
	a, b := mk(), mk()
	env, err := NewLinearEnv(LinearEnvConfig{Dim: d, K: 25, Gap: 0.1}, Stream(9, 100+uint64(d)))
	if err != nil {
		t.Fatal(err)
	}
	env3, err := NewLinearEnv(LinearEnvConfig{Dim: 3, K: 9}, Stream(9, 101))
	if err != nil {
		t.Fatal(err)
	}
	r, r3 := NewRound(env), NewRound(env3)
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
		PrepareLockstep(a)
		for p := range a {
			rr := r
			if p == len(a)-1 {
				rr = r3
			}
			pa, pb := a[p].(*LinUCB), b[p].(*LinUCB)
			if p < len(a)-1 && !pa.fresh {
				t.Fatalf("d %d, round %d: policy %d not prepared by PrepareLockstep", d, tt, p)
			}
			ca, cb := pa.Choose(rr), pb.Choose(rr)
			if ca != cb {
				t.Fatalf("d %d, round %d, policy %d: action %d (lockstep), %d (alone)", d, tt, p, ca, cb)
			}
			same([]float64{pa.beta, pa.logDet}, []float64{pb.beta, pb.logDet}, "β, ln det", tt, p)
			same(pa.mt, pb.mt, "M", tt, p)
			same(pa.zp, pb.zp, "z", tt, p)
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
