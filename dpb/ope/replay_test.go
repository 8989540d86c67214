package ope

import (
	"math"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/internal/testutil"
	"github.com/dpbandits/dpbandits/dpb/mt14"
)

// tablePolicy plays pi[context id] and ignores feedback.
type tablePolicy struct{ pi []int }

func (p *tablePolicy) Choose(r *bandit.Round) int         { return p.pi[int(r.Actions[0])] }
func (p *tablePolicy) Update(*bandit.Round, int, float64) {}
func (p *tablePolicy) value(mu [][]float64) (v float64) {
	for c, a := range p.pi {
		v += mu[c][a] / float64(len(p.pi))
	}
	return v
}

// TestReplayUnbiasedFixedPolicy: for a fixed policy π on a uniform log, the
// matched events are an i.i.d. sample of (x, π(x), r), so given Matched = N
// the replay CTR has mean V(π) = E_x μ(x, π(x)) and variance V(1−V)/N; and
// Matched ~ Binomial(n, 1/K). Each assertion's false-failure probability is
// ≈ 1e-5 (normal approximation, N in the thousands).
func TestReplayUnbiasedFixedPolicy(t *testing.T) {
	const k, m = 5, 4
	n := 100000
	if testing.Short() {
		n = 40000
	}
	l := testutil.NewSynthLog(n, k, m, 1.0/k, bandit.Stream(11, 0))
	for _, pi := range [][]int{{0, 1, 2, 3}, {4, 4, 0, 2}, {1, 3, 3, 0}} {
		p := &tablePolicy{pi: pi}
		res, err := Replay(p, l, ReplayConfig{})
		if err != nil {
			t.Fatal(err)
		}
		v := p.value(l.Mu)
		if tol := testutil.Z5 * math.Sqrt(v*(1-v)/float64(res.Matched)); math.Abs(res.CTR-v) > tol {
			t.Errorf("π=%v: replay CTR %v, true value %v ± %v", pi, res.CTR, v, tol)
		}
		q := 1.0 / k
		if tol := testutil.Z5 * math.Sqrt(float64(n)*q*(1-q)); math.Abs(float64(res.Matched)-float64(n)*q) > tol {
			t.Errorf("π=%v: matched %d, want %v ± %v", pi, res.Matched, float64(n)*q, tol)
		}
		if !(res.Lo <= res.CTR && res.CTR <= res.Hi) || res.Events != n {
			t.Errorf("π=%v: result %v inconsistent", pi, res)
		}
	}
	// The uniform policy's value is the mean of μ over contexts and arms.
	var v float64
	for c := range l.Mu {
		for a := range l.Mu[c] {
			v += l.Mu[c][a] / (k * m)
		}
	}
	u := UniformValue(l, 0)
	if !(u.Lo < u.CTR && u.CTR < u.Hi) {
		t.Errorf("uniform value interval [%v, %v] does not contain %v", u.Lo, u.Hi, u.CTR)
	}
	if tol := testutil.Z5 * math.Sqrt(v*(1-v)/float64(n)); math.Abs(u.CTR-v) > tol {
		t.Errorf("uniform value %v, want %v ± %v", u.CTR, v, tol)
	}
}

// TestReplayUnbiasedAdaptive checks Li et al. (2011) Theorem 1 for an
// adaptive policy: UCB1's total reward over its first N rounds has the same
// distribution whether it runs on-line against K Bernoulli arms or is
// replayed on a uniform log of the same arms. The two Monte-Carlo means over
// R runs each differ by less than z5·sqrt(s₁²/R + s₂²/R), false-failure
// probability ≈ 1e-5.
func TestReplayUnbiasedAdaptive(t *testing.T) {
	const k, N = 3, 60
	R := 3000
	if testing.Short() {
		R = 1000
	}
	means := []float64{0.2, 0.5, 0.6}
	mu := [][]float64{means}
	var on, off [2]float64
	for rep := 0; rep < R; rep++ {
		// On-line.
		env := dpenv.NewBernoulliArms(means, bandit.Stream(12, bandit.StreamID(rep, 0)))
		p, _ := mt14.NewUCB1(mt14.UCB1Config{Arms: k})
		r := &bandit.Round{K: k}
		var s float64
		for t1 := 1; t1 <= N; t1++ {
			env.Next(r, t1)
			a := p.Choose(r)
			s += env.Reward(r, a)
			p.Update(r, a, env.Reward(r, a))
		}
		on[0] += s
		on[1] += s * s
		// Replay on a fresh uniform log long enough to match N events.
		l := testutil.NewSynthLog(40*N, k, 1, 1.0/k, bandit.Stream(13, uint64(rep)))
		l.Mu = mu
		rr := bandit.Stream(14, uint64(rep))
		for i := range l.Rew { // redraw rewards from the arms' means
			l.Rew[i] = 0
			if rr.Float64() < means[l.Logged[i]] {
				l.Rew[i] = 1
			}
		}
		q, _ := mt14.NewUCB1(mt14.UCB1Config{Arms: k})
		res, err := Replay(q, l, ReplayConfig{MaxMatched: N})
		if err != nil {
			t.Fatal(err)
		}
		if res.Matched != N {
			t.Fatalf("rep %d: only %d matched", rep, res.Matched)
		}
		off[0] += res.Reward
		off[1] += res.Reward * res.Reward
	}
	fr := float64(R)
	m1, m2 := on[0]/fr, off[0]/fr
	v1, v2 := on[1]/fr-m1*m1, off[1]/fr-m2*m2
	if tol := testutil.Z5 * math.Sqrt((v1+v2)/fr); math.Abs(m1-m2) > tol {
		t.Errorf("UCB1 reward over %d rounds: on-line %v, replay %v, differ by more than %v", N, m1, m2, tol)
	}
}

func TestReplayRejectsNonUniform(t *testing.T) {
	l := testutil.NewSynthLog(100, 4, 2, 0.3, bandit.Stream(15, 0))
	_, err := Replay(&tablePolicy{pi: []int{0, 1}}, l, ReplayConfig{})
	if err == nil || !strings.Contains(err.Error(), "uniformly random logging") {
		t.Errorf("error %v, want a uniform-logging error", err)
	}
}

func TestWilson(t *testing.T) {
	// p̂ = 0 on 10 trials at z = 1.96: hi = 2·(z²/2n)/(1 + z²/n) = 0.38416/1.38416.
	lo, hi := Wilson(0, 10, 1.96)
	if want := 0.38416 / 1.38416; lo != 0 || math.Abs(hi-want) > 1e-12 {
		t.Errorf("Wilson(0, 10) = [%v, %v], want [0, %v]", lo, hi, want)
	}
	// Symmetry: Wilson(p) and Wilson(1−p) mirror each other.
	lo1, hi1 := Wilson(0.3, 50, 1.96)
	lo2, hi2 := Wilson(0.7, 50, 1.96)
	if math.Abs(lo1-(1-hi2)) > 1e-12 || math.Abs(hi1-(1-lo2)) > 1e-12 {
		t.Errorf("Wilson not symmetric: [%v %v] vs [%v %v]", lo1, hi1, lo2, hi2)
	}
}

func BenchmarkReplay(b *testing.B) {
	l := testutil.NewSynthLog(10000, 5, 4, 0.2, bandit.Stream(16, 0))
	b.ReportAllocs()
	for b.Loop() {
		p, _ := mt14.NewUCB1(mt14.UCB1Config{Arms: 5})
		if _, err := Replay(p, l, ReplayConfig{}); err != nil {
			b.Fatal(err)
		}
	}
}
