package mt14

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

func TestMT14Constants(t *testing.T) {
	// Γ at k = 5, T = 1000, ε = 1, γ = 0.01, by hand:
	// ln 1000 = 6.907755; ln²T = 47.71708; ln(5·1000·6.907755/0.01) = ln(3453877.6) = 15.05499.
	got := Gamma(5, 1000, 1, 0.01)
	want := 5 * 47.71708 * 15.05499
	if math.Abs(got-want) > 1e-4*want {
		t.Errorf("MT14Gamma = %v, want %v", got, want)
	}
	if g2 := Gamma(5, 1000, 2, 0.01); math.Abs(g2-got/2) > 1e-9*got {
		t.Errorf("Γ must scale as 1/ε: %v vs %v", g2, got/2)
	}
	if e0 := Epsilon0(2.7, 6); math.Abs(e0-0.1) > 1e-12 {
		t.Errorf("ε₀(2.7, d=6) = %v, want 0.1 (MT14 §5.2)", e0)
	}
	if e := EpsilonFromEpsilon0(0.1, 6); math.Abs(e-2.7) > 1e-12 {
		t.Errorf("ε(ε₀=0.1, d=6) = %v, want 2.7", e)
	}
	gaps := []float64{0, 0.5, 0.5}
	b := Theorem4Bound(gaps, 1000, 1, 0.01)
	c := 3 * 47.71708 * math.Log(3*1000/0.01)
	if want := 2 * (c/0.5 + 0.5); math.Abs(b-want) > 1e-4*want {
		t.Errorf("Theorem 4 bound = %v, want %v", b, want)
	}
	if lb, want := ss18.PrivateMABLowerBound(gaps, 1000, 0.5), 2*math.Log(1000)/100; math.Abs(lb-want) > 1e-12 {
		t.Errorf("Corollary 15 bound = %v, want %v", lb, want)
	}
	if s := TreeCounterScale(1000, 1, 0.5); s != 22 {
		t.Errorf("TreeCounterScale(1000, 1, 0.5) = %v, want (1+10)/0.5 = 22", s)
	}
}

func TestDPUCBConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  DPUCBConfig
		want string
	}{
		{"arms", DPUCBConfig{Arms: 0, Horizon: 10, Epsilon: 1, Noise: noise.Simulated}, "arms is 0"},
		{"horizon", DPUCBConfig{Arms: 2, Horizon: 1, Epsilon: 1, Noise: noise.Simulated}, "horizon is 1"},
		{"eps", DPUCBConfig{Arms: 2, Horizon: 10, Epsilon: -1, Noise: noise.Simulated}, "epsilon is -1"},
		{"epsNaN", DPUCBConfig{Arms: 2, Horizon: 10, Epsilon: math.NaN(), Noise: noise.Simulated}, "epsilon is NaN"},
		{"gamma", DPUCBConfig{Arms: 2, Horizon: 10, Epsilon: 1, Gamma: 2, Noise: noise.Simulated}, "gamma is 2"},
		{"scale", DPUCBConfig{Arms: 2, Horizon: 10, Epsilon: 1, RelaxationScale: -1, Noise: noise.Simulated}, "relaxation scale is -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewDPUCB(tc.cfg, bandit.Stream(1, 1))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
	if _, err := NewUCB1(UCB1Config{}); err == nil {
		t.Error("UCB1 with 0 arms: no error")
	}
}

// TestDPUCBZeroNoiseExact: without noise the released totals are the exact
// per-arm sums, and the choices follow the printed index exactly.
func TestDPUCBZeroNoiseExact(t *testing.T) {
	const k, T = 4, 500
	p, err := NewDPUCB(DPUCBConfig{Arms: k, Horizon: T, Epsilon: 1, NoNoise: true, RelaxationScale: 1e-3, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	if p.NodeScale() != 0 {
		t.Fatalf("NoNoise node scale %v", p.NodeScale())
	}
	rng := bandit.Stream(2, 0)
	sum := make([]float64, k)
	n := make([]int, k)
	r := &bandit.Round{K: k}
	for t1 := 1; t1 <= T; t1++ {
		r.T = t1
		a := p.Choose(r)
		// Reference choice from the printed formula.
		want := t1 - 1
		if t1 > k {
			bv := math.Inf(-1)
			for b := 0; b < k; b++ {
				v := sum[b]/float64(n[b]) + math.Sqrt(2*math.Log(float64(t1))/float64(n[b])) + p.Relaxation()/float64(n[b])
				if v > bv {
					want, bv = b, v
				}
			}
		}
		if a != want {
			t.Fatalf("round %d: chose %d, want %d", t1, a, want)
		}
		y := float64(rng.IntN(5)) / 4 // exact in binary
		p.Update(r, a, y)
		sum[a] += y
		n[a]++
		for b := 0; b < k; b++ {
			if p.PrivateTotals()[b] != sum[b] || p.Pulls()[b] != n[b] {
				t.Fatalf("round %d arm %d: total %v pulls %d, want %v %d", t1, b, p.PrivateTotals()[b], p.Pulls()[b], sum[b], n[b])
			}
		}
	}
}

// TestDPUCBLaplaceScale checks the calibration b = m·k/ε (m = 1 + ⌈log₂T⌉)
// and that after one insertion the released total carries exactly one
// Lap(b) draw: over N independent policies, mean |r̃ − r| estimates
// E|Lap(b)| = b with standard deviation b/√N (Var|Lap(b)| = b²).
func TestDPUCBLaplaceScale(t *testing.T) {
	const k, T, eps = 3, 1000, 0.7
	wantB := float64(counter.TreeLevels(T)) * k / eps
	N := 20000
	if testing.Short() {
		N = 5000
	}
	var s float64
	r := &bandit.Round{K: k, T: 1}
	for i := 0; i < N; i++ {
		p, err := NewDPUCB(DPUCBConfig{Arms: k, Horizon: T, Epsilon: eps, Noise: noise.Simulated}, bandit.Stream(3, uint64(i)))
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 && math.Abs(p.NodeScale()-wantB) > 1e-12*wantB {
			t.Fatalf("node scale %v, want m·k/ε = %v", p.NodeScale(), wantB)
		}
		p.Update(r, 1, 0.5)
		s += math.Abs(p.PrivateTotals()[1] - 0.5)
	}
	mean := s / float64(N)
	// False-failure probability ≈ 1e-5 (CLT on N draws).
	if tol := testkit.Z5 * wantB / math.Sqrt(float64(N)); math.Abs(mean-wantB) > tol {
		t.Errorf("mean |noise| = %v, want b = %v ± %v", mean, wantB, tol)
	}
}

func TestRewardBounds(t *testing.T) {
	p, _ := NewDPUCB(DPUCBConfig{Arms: 2, Horizon: 10, Epsilon: 1, NoNoise: true, Noise: noise.Simulated}, bandit.Stream(1, 1))
	r := &bandit.Round{K: 2, T: 1}
	for _, y := range []float64{-0.1, 1.5, math.NaN(), math.Inf(1)} {
		func() {
			defer func() {
				if e := recover(); e == nil || !strings.Contains(e.(string), "outside [0, 1]") {
					t.Errorf("reward %v: panic %v, want one naming [0, 1]", y, e)
				}
			}()
			p.Update(r, 0, y)
		}()
	}
	c, _ := NewDPUCB(DPUCBConfig{Arms: 2, Horizon: 10, Epsilon: 1, NoNoise: true, Clip: true, Noise: noise.Simulated}, bandit.Stream(1, 1))
	c.Update(r, 0, 1.5)
	c.Update(r, 1, -2)
	if c.PrivateTotals()[0] != 1 || c.PrivateTotals()[1] != 0 {
		t.Errorf("clipped totals %v, want [1 0]", c.PrivateTotals())
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("NaN reward with Clip did not panic")
			}
		}()
		c.Update(r, 0, math.NaN())
	}()
}

// TestUCB1Learns: on two Bernoulli arms 0.9/0.4, UCB1 pulls the bad arm
// O(log T) times; the Auer et al. bound 8 ln T/Δ² + 1 + π²/3 on the expected
// pulls is checked on the mean over runs (the bound is loose by a factor > 2,
// so a spurious failure is far rarer than 1e-5).
func TestUCB1Learns(t *testing.T) {
	const T, runs = 2000, 20
	var bad float64
	for run := 0; run < runs; run++ {
		env := dpenv.NewBernoulliArms([]float64{0.9, 0.4}, bandit.Stream(4, bandit.StreamID(run, 0)))
		p, _ := NewUCB1(UCB1Config{Arms: 2})
		bandit.RegretCurve(env, p, T, []int{T}, make([]float64, 1))
		bad += float64(p.Pulls()[1])
	}
	bad /= runs
	if lim := 8*math.Log(T)/0.25 + 1 + math.Pi*math.Pi/3; bad > lim {
		t.Errorf("bad arm pulled %v times on average, bound %v", bad, lim)
	}
}

func TestMT14Allocs(t *testing.T) {
	p, _ := NewDPUCB(DPUCBConfig{Arms: 5, Horizon: 1 << 12, Epsilon: 1, Noise: noise.Simulated}, bandit.Stream(1, 1))
	r := &bandit.Round{K: 5}
	i := 0
	if a := testing.AllocsPerRun(1000, func() {
		i++
		r.T = i
		p.Update(r, p.Choose(r), 1)
	}); a != 0 {
		t.Errorf("DPUCB round allocates %v times", a)
	}
	c, _ := NewContextualUCB(ContextualUCBConfig{Dim: 6, Arms: 5, Horizon: 1 << 12, Mechanism: ContextEntryTrees, Epsilon: 2.7, Noise: noise.Simulated}, bandit.Stream(1, 1))
	rc := &bandit.Round{K: 5, Dim: 6, Actions: make([]float64, 30)}
	for j := range rc.Actions {
		rc.Actions[j] = float64(j%7) / 7
	}
	if a := testing.AllocsPerRun(1000, func() {
		rc.T++
		c.Update(rc, c.Choose(rc), 1)
	}); a != 0 {
		t.Errorf("ContextualUCB round allocates %v times", a)
	}
}

func BenchmarkDPUCBRound(b *testing.B) {
	for _, k := range []int{5, 10} {
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			p, _ := NewDPUCB(DPUCBConfig{Arms: k, Horizon: 1 << 30, Epsilon: 1, Noise: noise.Simulated}, bandit.Stream(1, 1))
			r := &bandit.Round{K: k}
			b.ReportAllocs()
			for b.Loop() {
				r.T++
				p.Update(r, p.Choose(r), 1)
			}
		})
	}
}

// TestDPUCBCounters: the pure-DP alternative counters in DP-UCB. Honaker
// keeps the tree's node scale m·k/ε; the smooth binary mechanism's is its
// per-record node count (h − k + 1)·k/ε, smaller; both leave MT14's Γ valid
// (the constructor's check), the square root and BLT do not (error unless
// NoRelaxation); without noise every counter releases the exact totals.
func TestDPUCBCounters(t *testing.T) {
	const arms, T, eps = 3, 1000, 1.0
	tree, err := NewDPUCB(DPUCBConfig{Arms: arms, Horizon: T, Epsilon: eps, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewDPUCB(DPUCBConfig{Arms: arms, Horizon: T, Epsilon: eps, Counter: counter.Honaker, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	if h.NodeScale() != tree.NodeScale() || h.Tree(0) != nil || h.Counter(0) == nil {
		t.Errorf("honaker: scale %v (tree %v)", h.NodeScale(), tree.NodeScale())
	}
	sm, err := NewDPUCB(DPUCBConfig{Arms: arms, Horizon: T, Epsilon: eps, Counter: counter.Smooth, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	hh, kk := counter.SmoothBinaryParams(T)
	if want := float64(hh-kk+1) * arms / eps; math.Abs(sm.NodeScale()-want) > 1e-12 || !(want < tree.NodeScale()) {
		t.Errorf("smooth: scale %v, want %v below the tree's %v", sm.NodeScale(), want, tree.NodeScale())
	}
	// The k-ary tree: h = KaryLevels(T, KaryArity(T)) nodes per record, scale
	// h·k/ε; MT14's Γ still covers it here and at MT14 Fig. 1's T = 10⁶.
	for _, horizon := range []int{T, 1_000_000} {
		ky, err := NewDPUCB(DPUCBConfig{Arms: arms, Horizon: horizon, Epsilon: eps, Counter: counter.Kary, Noise: noise.Simulated}, bandit.Stream(1, 1))
		if err != nil {
			t.Fatalf("k-ary at T=%d: %v", horizon, err)
		}
		ref, _ := NewDPUCB(DPUCBConfig{Arms: arms, Horizon: horizon, Epsilon: eps, Noise: noise.Simulated}, bandit.Stream(1, 1))
		want := float64(counter.KaryLevels(horizon, counter.KaryArity(horizon))) * arms / eps
		if math.Abs(ky.NodeScale()-want) > 1e-12 || !(want < ref.NodeScale()) || ky.Counter(0).(*counter.KaryTree).Arity() != counter.KaryArity(horizon) {
			t.Errorf("k-ary at T=%d: scale %v, want %v below the tree's %v", horizon, ky.NodeScale(), want, ref.NodeScale())
		}
	}
	if _, err := NewDPUCB(DPUCBConfig{Arms: arms, Horizon: T, Epsilon: eps, Counter: counter.BLT, Noise: noise.Simulated}, bandit.Stream(1, 1)); err == nil {
		t.Error("BLT accepted with MT14's Γ")
	}
	if _, err := NewDPUCB(DPUCBConfig{Arms: arms, Horizon: T, Epsilon: eps, Counter: counter.BLT, NoRelaxation: true, Noise: noise.Simulated}, bandit.Stream(1, 1)); err != nil {
		t.Errorf("BLT without Γ: %v", err)
	}
	if _, err := NewDPUCB(DPUCBConfig{Arms: arms, Horizon: T, Epsilon: eps, Counter: counter.Honaker, Mode: counter.Padded, Noise: noise.Simulated}, bandit.Stream(1, 1)); err == nil {
		t.Error("a release mode accepted for the Honaker counter")
	}
	for _, kind := range []counter.Kind{counter.Honaker, counter.Smooth, counter.Sqrt, counter.BLT, counter.Kary} {
		p, err := NewDPUCB(DPUCBConfig{Arms: arms, Horizon: T, Epsilon: eps, Counter: kind, NoNoise: true, Noise: noise.Simulated}, bandit.Stream(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		env, _ := dpenv.NewKArmedEnv(dpenv.KArmedConfig{Means: []float64{0.9, 0.5, 0.2}, Noise: dpenv.Bernoulli}, bandit.Stream(2, 2))
		r := bandit.NewRound(env)
		sums := make([]float64, arms)
		for s := 1; s <= 200; s++ {
			env.Next(r, s)
			a := p.Choose(r)
			y := env.Reward(r, a)
			p.Update(r, a, y)
			sums[a] += y
		}
		for a := range sums {
			if math.Abs(p.PrivateTotals()[a]-sums[a]) > 1e-9 {
				t.Errorf("%v arm %d: total %v, exact %v", kind, a, p.PrivateTotals()[a], sums[a])
			}
		}
	}
}
