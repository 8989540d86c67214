package ss18

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
)

// TestStatsLTSameBits runs two copies of each SS18 policy on one
// environment, one whose tree regularizer writes V_t straight into the
// Cholesky panel kernel's copy (statsLT, where CholLT is ok) and one made to
// go through StatsTo and the row-major V_t, and requires the same action,
// the same bits in β_t, ln det V_t, L, M and z, and the same jittered
// rounds, every round: d = 17, 24, 33 and 64, padded and plain trees (the
// unshifted Wishart's V_t in plain mode fails to be positive definite now
// and then, which the test requires at d = 17 so that the jitter path after
// statsLT is covered), and a regularizer whose shift changes every round
// (NewGaussianCounterRegRound). Deterministic: no false failures.
func TestStatsLTSameBits(t *testing.T) {
	if _, _, ok := simd.CholLT(make([]float64, simd.CholScratchLen(64)), 64); !ok {
		t.Skip("no Cholesky panel kernel on this CPU or build: statsLT is never used")
	}
	for _, d := range []int{17, 24, 33, 64} {
		n := 300
		if d == 64 {
			n = 60
		}
		notPD := statsLTSameBits(t, d, n)
		if d == 17 && notPD == 0 {
			t.Fatal("no V_t failed to be positive definite: the jitter path went untested")
		}
	}
}

func statsLTSameBits(t *testing.T, d, n int) int {
	s := Setting{D: d, N: n, Epsilon: 1, Delta: 0.1, Lt2: 2}
	mk := func() []*LinUCB {
		var ps []*LinUCB
		for i, a := range []Alg{Gaussian, Wishart, WishartUnshifted} {
			for j, m := range []counter.ReleaseMode{counter.Padded, counter.Plain} {
				p, err := NewPolicy(PolicyConfig{Alg: a, Setting: s, Mode: m}, bandit.Stream(7, uint64(2*i+j)))
				if err != nil {
					t.Fatal(err)
				}
				ps = append(ps, p)
			}
		}
		reg, err := NewGaussianCounterRegRound(s, counter.CounterBLT, bandit.Stream(7, 50))
		if err != nil {
			t.Fatal(err)
		}
		p, err := NewLinUCB(LinUCBConfig{Dim: d, Horizon: n, Regularizer: reg})
		if err != nil {
			t.Fatal(err)
		}
		return append(ps, p)
	}
	a, b := mk(), mk()
	for p := range b {
		if a[p].ltStats == nil {
			t.Fatalf("d %d, policy %d: the regularizer does not write V_t for the panel kernel", d, p)
		}
		b[p].ltStats = nil
	}
	env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: d, K: 30, Gap: 0.1}, bandit.Stream(7, 100+uint64(d)))
	if err != nil {
		t.Fatal(err)
	}
	r := bandit.NewRound(env)
	same := func(x, y []float64, what string, round, p int) {
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
				t.Fatalf("d %d, round %d, policy %d: %s[%d] is %v (statsLT), %v (StatsTo)", d, round, p, what, i, x[i], y[i])
			}
		}
	}
	lower := func(v []float64) []float64 {
		var l []float64
		for i := range d {
			l = append(l, v[i*d:i*d+i+1]...)
		}
		return l
	}
	for tt := 1; tt <= n; tt++ {
		env.Next(r, tt)
		for p := range a {
			ca, cb := a[p].Choose(r), b[p].Choose(r)
			if ca != cb {
				t.Fatalf("d %d, round %d, policy %d: action %d (statsLT), %d (StatsTo)", d, tt, p, ca, cb)
			}
			if !a[p].ltReady || b[p].ltReady {
				t.Fatalf("d %d, round %d, policy %d: statsLT used %v and %v, want true and false", d, tt, p, a[p].ltReady, b[p].ltReady)
			}
			same([]float64{a[p].beta, a[p].logDet}, []float64{b[p].beta, b[p].logDet}, "β, ln det", tt, p)
			same(lower(a[p].v), lower(b[p].v), "L", tt, p)
			same(a[p].mt, b[p].mt, "M", tt, p)
			same(a[p].zp, b[p].zp, "z", tt, p)
			y := env.Reward(r, ca)
			a[p].Update(r, ca, y)
			b[p].Update(r, cb, y)
		}
	}
	notPD := 0
	for p := range a {
		if a[p].NotPD() != b[p].NotPD() {
			t.Fatalf("d %d, policy %d: %d jittered rounds (statsLT), %d (StatsTo)", d, p, a[p].NotPD(), b[p].NotPD())
		}
		notPD += a[p].NotPD()
	}
	t.Logf("d %d: %d rounds, %d jittered", d, n, notPD)
	return notPD
}
