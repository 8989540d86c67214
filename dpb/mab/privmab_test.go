package mab

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// privMAB lists the optimal private K-armed algorithms built on privArms, each
// built at ε with or without noise.
var privMAB = []struct {
	name string
	New  func(k int, eps float64, noNoise bool, rng *rand.Rand) (bandit.Policy, error)
}{
	{"DP-SE", func(k int, eps float64, nn bool, rng *rand.Rand) (bandit.Policy, error) {
		return NewDPSE(DPSEConfig{Arms: k, Horizon: 1 << 20, Epsilon: eps, NoNoise: nn, Noise: noise.Simulated}, rng)
	}},
	{"AdaP-UCB", func(k int, eps float64, nn bool, rng *rand.Rand) (bandit.Policy, error) {
		return NewAdaP(AdaPConfig{Arms: k, Epsilon: eps, NoNoise: nn, Noise: noise.Simulated}, rng)
	}},
	{"AdaP-KLUCB", func(k int, eps float64, nn bool, rng *rand.Rand) (bandit.Policy, error) {
		return NewAdaP(AdaPConfig{Arms: k, Epsilon: eps, KL: true, NoNoise: nn, Noise: noise.Simulated}, rng)
	}},
	{"DP-KLUCB", func(k int, eps float64, nn bool, rng *rand.Rand) (bandit.Policy, error) {
		return NewDPKL(DPKLConfig{Arms: k, Epsilon: eps, NoNoise: nn, Noise: noise.Simulated}, rng)
	}},
	{"DP-IMED", func(k int, eps float64, nn bool, rng *rand.Rand) (bandit.Policy, error) {
		return NewDPKL(DPKLConfig{Arms: k, Epsilon: eps, IMED: true, NoNoise: nn, Noise: noise.Simulated}, rng)
	}},
	{"Lazy-DP-TS", func(k int, eps float64, nn bool, rng *rand.Rand) (bandit.Policy, error) {
		return NewLazyDPTS(LazyDPTSConfig{Arms: k, Epsilon: eps, NoNoise: nn, Noise: noise.Simulated}, rng)
	}},
}

// statsOf returns the privArms behind a policy of privMAB.
func statsOf(p bandit.Policy) *privArms {
	switch q := p.(type) {
	case *DPSE:
		return q.s
	case *AdaP:
		return q.s
	case *DPKL:
		return q.s
	case *LazyDPTS:
		return q.s
	}
	panic(fmt.Sprintf("not a private MAB policy: %T", p))
}

func TestPrivMABRejectsBadConfig(t *testing.T) {
	for _, alg := range privMAB {
		for _, eps := range []float64{0, -1, math.NaN(), math.Inf(1)} {
			if _, err := alg.New(3, eps, false, bandit.Stream(1, 1)); err == nil || !strings.Contains(err.Error(), "epsilon is") {
				t.Errorf("%s: ε = %v gave error %v", alg.name, eps, err)
			}
		}
		if _, err := alg.New(0, 1, false, bandit.Stream(1, 1)); err == nil || !strings.Contains(err.Error(), "arms is 0") {
			t.Errorf("%s: 0 arms gave error %v", alg.name, err)
		}
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{second(NewDPSE(DPSEConfig{Arms: 2, Horizon: 1, Epsilon: 1, Noise: noise.Simulated}, bandit.Stream(1, 1))), "horizon is 1"},
		{second(NewDPSE(DPSEConfig{Arms: 2, Horizon: 10, Epsilon: 1, Beta: 1, Noise: noise.Simulated}, bandit.Stream(1, 1))), "beta is 1"},
		{second(NewAdaP(AdaPConfig{Arms: 2, Epsilon: 1, Alpha: -3, Noise: noise.Simulated}, bandit.Stream(1, 1))), "alpha is -3"},
		{second(NewDPKL(DPKLConfig{Arms: 2, Epsilon: 1, Alpha: math.Inf(1), Noise: noise.Simulated}, bandit.Stream(1, 1))), "alpha is +Inf"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("error %v, want %q", tc.err, tc.want)
		}
	}
}

func TestPrivMABPrivacyReport(t *testing.T) {
	for _, alg := range privMAB {
		p, _ := alg.New(3, 0.7, false, bandit.Stream(1, 1))
		rep := p.(interface{ Privacy() bandit.Privacy }).Privacy()
		if !rep.Private || rep.Epsilon != 0.7 || rep.Delta != 0 || !strings.Contains(rep.Accounting, "Lap(1/ε = 1.429)") {
			t.Errorf("%s: %v", alg.name, rep)
		}
		q, _ := alg.New(3, 0.7, true, bandit.Stream(1, 1))
		if rep := q.(interface{ Privacy() bandit.Privacy }).Privacy(); rep.Private || !math.IsInf(rep.Epsilon, 1) {
			t.Errorf("%s with NoNoise: %v", alg.name, rep)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// panicMsg runs f and returns its panic message ("" if it did not panic).
func panicMsg(f func()) (msg string) {
	defer func() {
		if e := recover(); e != nil {
			msg = fmt.Sprint(e)
		}
	}()
	f()
	return ""
}

func TestPrivMABRejectsBadRewardsAndOrder(t *testing.T) {
	for _, alg := range privMAB {
		for _, x := range []float64{-0.1, 1.5, math.NaN(), math.Inf(1), math.Inf(-1)} {
			p, _ := alg.New(3, 1, false, bandit.Stream(1, 1))
			r := &bandit.Round{T: 1, K: 3}
			a := p.Choose(r)
			if m := panicMsg(func() { p.Update(r, a, x) }); !strings.Contains(m, "outside [0, 1]") {
				t.Errorf("%s: reward %v: panic %q", alg.name, x, m)
			}
		}
		p, _ := alg.New(3, 1, false, bandit.Stream(1, 1))
		r := &bandit.Round{T: 1, K: 3}
		if m := panicMsg(func() { p.Update(r, 0, 0.5) }); !strings.Contains(m, "without a pending Choose") {
			t.Errorf("%s: Update before Choose: panic %q", alg.name, m)
		}
		a := p.Choose(r)
		if m := panicMsg(func() { p.Choose(r) }); !strings.Contains(m, "Choose called again") {
			t.Errorf("%s: Choose twice: panic %q", alg.name, m)
		}
		if m := panicMsg(func() { p.Update(r, (a+1)%3, 0.5) }); !strings.Contains(m, "without a pending Choose") {
			t.Errorf("%s: Update of another arm: panic %q", alg.name, m)
		}
		p.Update(r, a, 0.5)
		if m := panicMsg(func() { p.Choose(&bandit.Round{T: 2, K: 4}) }); m != param.BadArm {
			t.Errorf("%s: wrong K: panic %q", alg.name, m)
		}
		// Clip accepts what Update otherwise rejects (not NaN).
		var c bandit.Policy
		switch alg.name {
		case "DP-SE":
			c, _ = NewDPSE(DPSEConfig{Arms: 3, Horizon: 100, Epsilon: 1, Clip: true, Noise: noise.Simulated}, bandit.Stream(1, 1))
		case "AdaP-UCB", "AdaP-KLUCB":
			c, _ = NewAdaP(AdaPConfig{Arms: 3, Epsilon: 1, Clip: true, Noise: noise.Simulated}, bandit.Stream(1, 1))
		case "DP-KLUCB", "DP-IMED":
			c, _ = NewDPKL(DPKLConfig{Arms: 3, Epsilon: 1, Clip: true, Noise: noise.Simulated}, bandit.Stream(1, 1))
		default:
			c, _ = NewLazyDPTS(LazyDPTSConfig{Arms: 3, Epsilon: 1, Clip: true, Noise: noise.Simulated}, bandit.Stream(1, 1))
		}
		a = c.Choose(r)
		c.Update(r, a, 7)
		if s := statsOf(c); s.n[a] != 1 || (s.bn[a] == 1 && s.bs[a] != 1) {
			t.Errorf("%s: clipped reward 7 recorded as n=%d, open sum %v", alg.name, s.n[a], s.bs[a])
		}
		if m := panicMsg(func() { c.Update(r, c.Choose(r), math.NaN()) }); !strings.Contains(m, "outside [0, 1]") {
			t.Errorf("%s: NaN with Clip: panic %q", alg.name, m)
		}
	}
}

// runPolicy plays pol for n rounds against Bernoulli arms with the given
// means (rewards from env) and returns the pseudo-regret.
func runPolicy(pol bandit.Policy, means []float64, n int, env *rand.Rand) float64 {
	r := &bandit.Round{K: len(means)}
	best := 0.0
	for _, m := range means {
		best = math.Max(best, m)
	}
	var reg float64
	for t := 1; t <= n; t++ {
		r.T = t
		a := pol.Choose(r)
		reg += best - means[a]
		x := 0.0
		if env.Float64() < means[a] {
			x = 1
		}
		pol.Update(r, a, x)
	}
	return reg
}

// exactSums records every reward per arm beside a policy.
type exactSums struct {
	bandit.Policy
	n []int
	s []float64
}

func (e *exactSums) Update(r *bandit.Round, arm int, x float64) {
	e.Policy.Update(r, arm, x)
	e.n[arm]++
	e.s[arm] += x
}

// TestPrivMABNoNoiseExact: with the noise off every released statistic is the
// exact sum of the rewards it stands for, and every reward is in exactly one
// batch (released or open): the accounting the privacy argument rests on.
func TestPrivMABNoNoiseExact(t *testing.T) {
	means := []float64{0.9, 0.4, 0.4, 0.4, 0.4}
	for _, alg := range privMAB {
		p, err := alg.New(5, 1, true, bandit.Stream(2, 1))
		if err != nil {
			t.Fatal(err)
		}
		e := &exactSums{Policy: p, n: make([]int, 5), s: make([]float64, 5)}
		runPolicy(e, means, 20000, bandit.Stream(2, 2))
		s := statsOf(p)
		for a := range means {
			if s.n[a] != e.n[a] {
				t.Errorf("%s arm %d: N = %d, %d rewards given", alg.name, a, s.n[a], e.n[a])
			}
			if !s.forget && (s.rn[a]+s.bn[a] != e.n[a] || math.Abs(s.rs[a]+s.bs[a]-e.s[a]) > 1e-9) {
				t.Errorf("%s arm %d: released %d rewards (sum %v) + open %d (sum %v), want %d (sum %v)",
					alg.name, a, s.rn[a], s.rs[a], s.bn[a], s.bs[a], e.n[a], e.s[a])
			}
			if v := s.rs[a]; v != math.Trunc(v) || v < 0 || v > float64(s.rn[a]) {
				t.Errorf("%s arm %d: noiseless released sum %v of %d Bernoulli rewards is not an integer in range", alg.name, a, v, s.rn[a])
			}
		}
	}
}

// TestPrivMABNoiseLaw: a released batch sum is the exact sum plus one Lap(1/ε)
// draw. Over 4000 independent policies fed all-ones rewards, the first
// released mean of arm 0 minus 1 is Lap(1/ε); its mean absolute value 1/ε is
// checked to z5 standard errors (sd of |Lap(b)| is b): false-failure
// probability ≈ 1e-5 per algorithm.
func TestPrivMABNoiseLaw(t *testing.T) {
	const reps, eps = 4000, 0.5
	for _, alg := range privMAB {
		var s float64
		for rep := range reps {
			p, _ := alg.New(2, eps, false, bandit.Stream(3, uint64(rep)))
			st := statsOf(p)
			r := &bandit.Round{K: 2}
			for t := 1; st.rn[0] == 0; t++ {
				r.T = t
				p.Update(r, p.Choose(r), 1)
			}
			s += math.Abs(st.rs[0] - float64(st.rn[0]))
		}
		got, se := s/reps, 1/eps/math.Sqrt(reps)
		if math.Abs(got-1/eps) > testkit.Z5*se {
			t.Errorf("%s: mean |noise| of a release = %v, want 1/ε = %v ± %v", alg.name, got, 1/eps, testkit.Z5*se)
		}
	}
}

// TestPrivMABNoNoiseIndices: with the noise off the indices are their
// non-private counterparts' — UCB with √(α ln t/(2n)), KL-UCB (kl(μ̂, I) = c/n
// at the returned index, computed here by the definition), IMED, Gaussian TS.
func TestPrivMABNoNoiseIndices(t *testing.T) {
	means := []float64{0.9, 0.6, 0.3}
	ada, _ := NewAdaP(AdaPConfig{Arms: 3, Epsilon: 1, NoNoise: true, Noise: noise.Simulated}, bandit.Stream(4, 1))
	adaKL, _ := NewAdaP(AdaPConfig{Arms: 3, Epsilon: 1, KL: true, NoNoise: true, Noise: noise.Simulated}, bandit.Stream(4, 1))
	kl, _ := NewDPKL(DPKLConfig{Arms: 3, Epsilon: 1, NoNoise: true, Noise: noise.Simulated}, bandit.Stream(4, 1))
	imed, _ := NewDPKL(DPKLConfig{Arms: 3, Epsilon: 1, IMED: true, NoNoise: true, Noise: noise.Simulated}, bandit.Stream(4, 1))
	ts, _ := NewLazyDPTS(LazyDPTSConfig{Arms: 3, Epsilon: 1, NoNoise: true, Noise: noise.Simulated}, bandit.Stream(4, 1))
	for _, p := range []bandit.Policy{ada, adaKL, kl, imed, ts} {
		runPolicy(p, means, 5000, bandit.Stream(4, 2))
	}
	const tt = 5001
	lt := math.Log(tt)
	for a := range means {
		n := float64(ada.s.rn[a])
		if got, want := ada.Index(a, tt), ada.s.rs[a]/n+math.Sqrt(3.1*lt/(2*n)); got != want {
			t.Errorf("AdaP-UCB arm %d index %v, want UCB's %v", a, got, want)
		}
		n = float64(adaKL.s.rn[a])
		mu, I := adaKL.s.rs[a]/n, adaKL.Index(a, tt)
		if c := 3.1 * lt / n; I < 1 && math.Abs(klBernoulli(mu, I)-c) > 1e-9 {
			t.Errorf("AdaP-KLUCB arm %d: kl(%v, %v) = %v, want %v", a, mu, I, klBernoulli(mu, I), c)
		}
		n = float64(kl.s.rn[a])
		mu, I = kl.s.rs[a]/n, kl.Index(a, tt)
		if I < 1 && math.Abs(klBernoulli(mu, I)-lt/n) > 1e-9 {
			t.Errorf("DP-KLUCB arm %d: kl(%v, %v) = %v, want ln t/N = %v", a, mu, I, klBernoulli(mu, I), lt/n)
		}
		n = float64(imed.s.rn[a])
		best := 0.0
		for b := range means {
			best = math.Max(best, imed.s.rs[b]/float64(imed.s.rn[b]))
		}
		if got, want := imed.Index(a, tt), n*klBernoulli(imed.s.rs[a]/n, best)+math.Log(n); math.Abs(got-want) > 1e-12*math.Max(1, want) {
			t.Errorf("DP-IMED arm %d index %v, want IMED's %v", a, got, want)
		}
		if got, want := ts.PosteriorSD(a), math.Sqrt(1/float64(ts.s.rn[a])); got != want {
			t.Errorf("Lazy-DP-TS arm %d posterior sd %v, want 1/√n = %v", a, got, want)
		}
	}
}

// TestDPSENoNoiseDeterministic: arm 0 always pays 1, the others 0. Without
// noise the first epoch's gap 1 exceeds 2h_1 < 1, so after k·R_1 rounds only
// arm 0 is left and is played forever.
func TestDPSENoNoiseDeterministic(t *testing.T) {
	p, _ := NewDPSE(DPSEConfig{Arms: 4, Horizon: 1000, Epsilon: 1, NoNoise: true, Noise: noise.Simulated}, bandit.Stream(5, 1))
	_, r1 := p.Epoch()
	// R_1 = ⌈32 ln(8·4·1·1000)/(1/4)⌉ = ⌈128 ln 32000⌉.
	if want := int(math.Ceil(128 * math.Log(32000))); r1 != want {
		t.Fatalf("R_1 = %d, want %d", r1, want)
	}
	r := &bandit.Round{K: 4}
	for tt := 1; tt <= 4*r1+50; tt++ {
		r.T = tt
		a := p.Choose(r)
		if tt <= 4*r1 && a != (tt-1)/r1 {
			t.Fatalf("round %d chose %d, want block arm %d", tt, a, (tt-1)/r1)
		}
		if tt > 4*r1 && a != 0 {
			t.Fatalf("round %d chose %d after elimination", tt, a)
		}
		x := 0.0
		if a == 0 {
			x = 1
		}
		p.Update(r, a, x)
	}
	if act := p.Active(); len(act) != 1 || act[0] != 0 {
		t.Errorf("active %v, want [0]", act)
	}
	// With noise R_1 also has the ε-term: 8 ln(4·4·1000)/(ε/2) at ε = 0.01.
	q, _ := NewDPSE(DPSEConfig{Arms: 4, Horizon: 1000, Epsilon: 0.01, Noise: noise.Simulated}, bandit.Stream(5, 1))
	if _, r := q.Epoch(); r != int(math.Ceil(1600*math.Log(16000))) {
		t.Errorf("R_1 at ε = 0.01 is %d, want ⌈1600 ln 16000⌉", r)
	}
}

func TestDEps(t *testing.T) {
	for _, tc := range []struct{ x, l, eps float64 }{{0.4, 0.9, 0.1}, {0.4, 0.9, 1}, {0.4, 0.9, 10}, {0.1, 0.2, 0.5}, {0, 1, 2}} {
		got := dEps(tc.x, tc.l, tc.eps)
		// The infimum by brute force over a fine grid of z.
		brute := math.Inf(1)
		for i := 0; i <= 200000; i++ {
			z := float64(i) / 200000
			brute = math.Min(brute, tc.eps*math.Abs(tc.x-z)+klBernoulli(z, tc.l))
		}
		if !(got <= brute+1e-12) || brute-got > 1e-6 {
			t.Errorf("d_%v(%v, %v) = %v, grid minimum %v", tc.eps, tc.x, tc.l, got, brute)
		}
		if m := math.Min(klBernoulli(tc.x, tc.l), tc.eps*(tc.l-tc.x)); got > m+1e-12 {
			t.Errorf("d_ε = %v exceeds min(kl, εΔ) = %v", got, m)
		}
	}
	if got := dEps(0.4, 0.9, math.Inf(1)); got != klBernoulli(0.4, 0.9) {
		t.Errorf("d_∞ = %v, want kl", got)
	}
	means := []float64{0.9, 0.4, 0.4}
	for _, eps := range []float64{0.1, 1, 10} {
		ab, az, lr := AzizeBasuLowerBound(means, 1e6, eps), AzizeLowerBound(means, 1e6, eps), LaiRobbinsBound(means, 1e6)
		if !(az >= ab && az >= lr) {
			t.Errorf("ε=%v: Azize et al. %v must be ≥ Azize–Basu %v and Lai–Robbins %v", eps, az, ab, lr)
		}
	}
}

// TestPrivMABRegretOrder: at k = 5, Δ = 0.5, T = 2·10⁵, ε = 1, every optimal
// algorithm's mean regret over 8 runs is below DP-UCB's single-run regret
// (which exceeds 10⁴ here: Γ/Δ·(k−1) alone is ≈ 1.7·10⁵ at T = 10⁶), and at
// ε = 10⁶ (almost no noise) the UCB-type ones are within 20× of UCB1's.
// Seeds fixed; the margins are large (the means differ by 10–100×).
func TestPrivMABRegretOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("regret runs")
	}
	means := []float64{0.9, 0.4, 0.4, 0.4, 0.4}
	const n = 200000
	dp, _ := mt14.NewDPUCB(mt14.DPUCBConfig{Arms: 5, Horizon: n, Epsilon: 1, Noise: noise.Simulated}, bandit.Stream(6, 1))
	dpReg := runPolicy(dp, means, n, bandit.Stream(6, 2))
	for _, alg := range privMAB {
		var s float64
		for rep := range 8 {
			p, _ := alg.New(5, 1, false, bandit.Stream(7, uint64(rep)))
			s += runPolicy(p, means, n, bandit.Stream(8, uint64(rep)))
		}
		if s/8 >= dpReg {
			t.Errorf("%s: regret %v not below DP-UCB's %v", alg.name, s/8, dpReg)
		}
	}
}

func BenchmarkPrivMABStep(b *testing.B) {
	means := []float64{0.9, 0.4, 0.4, 0.4, 0.4}
	for _, alg := range privMAB {
		b.Run("alg="+alg.name, func(b *testing.B) {
			p, _ := alg.New(5, 1, false, bandit.Stream(9, 1))
			env := bandit.Stream(9, 2)
			r := &bandit.Round{K: 5}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				r.T = i + 1
				a := p.Choose(r)
				x := 0.0
				if env.Float64() < means[a] {
					x = 1
				}
				p.Update(r, a, x)
			}
		})
	}
}

// TestPrivMABTieBreaking: argmax breaks a tie uniformly at random from the
// policy's stream and draws nothing when the largest score is unique. Over
// 6000 fresh streams a three-way tie picks each arm with frequency ⅓: the χ²
// test (2 d.f.) fails a uniform draw with probability 1e-5.
func TestPrivMABTieBreaking(t *testing.T) {
	const reps = 6000
	counts := make([]int, 4)
	for rep := range reps {
		s, err := newPrivArms(4, 1, true, true, false, noise.Simulated, bandit.Stream(10, uint64(rep)))
		if err != nil {
			t.Fatal(err)
		}
		counts[s.argmax(func(a int) float64 { return []float64{0.5, 0.9, 0.9, 0.9}[a] })]++
	}
	if counts[0] != 0 {
		t.Fatalf("a lower score won %d ties", counts[0])
	}
	var chi2 float64
	for _, c := range counts[1:] {
		d := float64(c) - reps/3.0
		chi2 += d * d / (reps / 3.0)
	}
	if p := math.Exp(-chi2 / 2); p < 1e-5 { // χ²(2) survival function
		t.Errorf("tie-break frequencies %v (χ² = %.1f, p = %.2g), want uniform over arms 1–3", counts[1:], chi2, p)
	}
	// A unique largest score: the stream is not drawn.
	s, _ := newPrivArms(4, 1, true, true, false, noise.Simulated, bandit.Stream(11, 1))
	if a := s.argmax(func(a int) float64 { return []float64{0.5, 0.9, 0.3, 0.9 - 1e-12}[a] }); a != 1 {
		t.Errorf("argmax = %d, want 1", a)
	}
	if got, want := s.rng.Uint64(), bandit.Stream(11, 1).Uint64(); got != want {
		t.Error("argmax drew from the policy's stream without a tie")
	}
}

// TestPrivMABTiesAreRandom: AdaP-KLUCB's index saturates at 1 for every arm
// at small ε, so which arm starts an episode is a tie. With the best arm
// listed first or last, the number of times it is chosen over a run has the
// same law: 200 runs each (T = 2000, ε = 0.1, k = 5, means 0.9/0.4), the
// difference of the mean best-arm pulls within 4.42 standard errors
// (two-sided normal, false failure 1e-5). Breaking ties toward the lowest
// index fails this by far.
func TestPrivMABTiesAreRandom(t *testing.T) {
	const reps, n, k = 200, 2000, 5
	pulls := func(best int) (mean, se float64) {
		means := make([]float64, k)
		for a := range means {
			means[a] = 0.4
		}
		means[best] = 0.9
		xs := make([]float64, reps)
		for rep := range reps {
			p, _ := NewAdaP(AdaPConfig{Arms: k, Epsilon: 0.1, KL: true, Noise: noise.Simulated}, bandit.Stream(12, uint64(rep)))
			runPolicy(p, means, n, bandit.Stream(13, uint64(rep)))
			xs[rep] = float64(p.Pulls()[best])
		}
		var s, ss float64
		for _, x := range xs {
			s += x
		}
		mean = s / reps
		for _, x := range xs {
			ss += (x - mean) * (x - mean)
		}
		return mean, math.Sqrt(ss / (reps - 1) / reps)
	}
	m0, s0 := pulls(0)
	m1, s1 := pulls(k - 1)
	if z := (m0 - m1) / math.Hypot(s0, s1); math.Abs(z) > testkit.Z5 {
		t.Errorf("best arm first: %.1f ± %.1f pulls, last: %.1f ± %.1f (z = %.2f)", m0, s0, m1, s1, z)
	}
}

// TestDPSEWidths: the epoch lengths make h_e ≤ Δ_e/8 and c_e ≤ Δ_e/8, the
// property the constants 32 and 8 of R_e are there for; PlusOne adds one
// pull per epoch.
func TestDPSEWidths(t *testing.T) {
	for _, tc := range []struct {
		k    int
		eps  float64
		nn   bool
		plus bool
	}{{2, 0.1, false, false}, {5, 1, false, true}, {10, 10, false, false}, {3, 1, true, false}} {
		p, err := NewDPSE(DPSEConfig{Arms: tc.k, Horizon: 1 << 20, Epsilon: tc.eps, NoNoise: tc.nn, PlusOne: tc.plus, Noise: noise.Simulated}, bandit.Stream(14, 1))
		if err != nil {
			t.Fatal(err)
		}
		q, _ := NewDPSE(DPSEConfig{Arms: tc.k, Horizon: 1 << 20, Epsilon: tc.eps, NoNoise: tc.nn, Noise: noise.Simulated}, bandit.Stream(14, 1))
		for e := 1; e <= 12; e++ {
			h, c := p.widths()
			d := math.Ldexp(1, -e)
			if h > d/8*(1+1e-12) || c > d/8*(1+1e-12) {
				t.Errorf("%+v epoch %d: h = %v, c = %v, want ≤ Δ/8 = %v", tc, e, h, c, d/8)
			}
			if _, r := p.Epoch(); tc.plus {
				if _, r0 := q.Epoch(); r != r0+1 {
					t.Errorf("%+v epoch %d: R_e = %d with PlusOne, %d without", tc, e, r, r0)
				}
			}
			p.startEpoch()
			q.startEpoch()
		}
	}
}

// TestAdaPAllPulls: the other reading of AdaP-UCB's index counts all pulls
// N_a and takes ln(t − 1); the default counts the rewards behind μ̃_a.
func TestAdaPAllPulls(t *testing.T) {
	means := []float64{0.9, 0.6, 0.3}
	p, _ := NewAdaP(AdaPConfig{Arms: 3, Epsilon: 2, AllPulls: true, Noise: noise.Simulated}, bandit.Stream(15, 1))
	runPolicy(p, means, 3000, bandit.Stream(15, 2))
	const tt = 3001
	for a := range means {
		n := float64(p.s.n[a])
		lt := 3.1 * math.Log(tt-1)
		want := p.s.mean(a) + math.Sqrt(lt/(2*n)) + lt/(2*n)
		if got := p.Index(a, tt); math.Abs(got-want) > 1e-12*math.Abs(want) {
			t.Errorf("arm %d: index %v, want %v (N_a = %v)", a, got, want, n)
		}
		if p.s.rn[a] == p.s.n[a] && p.s.n[a] > 1 {
			t.Errorf("arm %d: the released mean holds all %d pulls: no doubling episodes?", a, p.s.n[a])
		}
	}
	if p.String() != "AdaP-UCB (N_a, t−1)" {
		t.Errorf("name %q", p.String())
	}
}
