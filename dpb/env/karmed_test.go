package env

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
)

// TestKArmedEnvRewards checks each arm's reward mean with a z-test: the sum
// of n i.i.d. rewards minus nμ, divided by √(n·Var), is ≈ N(0, 1) and must be
// within zFail (false failure 10⁻⁵ per arm). Rewards take only the law's
// values, and every policy facing environments from one seed sees the same
// reward table.
func TestKArmedEnvRewards(t *testing.T) {
	cases := []struct {
		noise RewardNoise
		means []float64
		sigma float64
		vari  func(mu float64) float64
	}{
		{Bernoulli, []float64{0, 0.1, 0.5, 0.9, 1}, 0, func(mu float64) float64 { return mu * (1 - mu) }},
		{Rademacher, []float64{-1, -0.3, 0.2, 0.75}, 0, func(mu float64) float64 { return 1 - mu*mu }},
		{GaussianReward, []float64{-2, 0, 3.5}, 0.7, func(float64) float64 { return 0.49 }},
	}
	for _, tc := range cases {
		t.Run(tc.noise.String(), func(t *testing.T) {
			cfg := KArmedConfig{Means: tc.means, Noise: tc.noise, Sigma: tc.sigma}
			e, err := NewKArmedEnv(cfg, bandit.Stream(1, 700))
			if err != nil {
				t.Fatal(err)
			}
			twin, _ := NewKArmedEnv(cfg, bandit.Stream(1, 700))
			if e.Dim() != 0 || e.Arms() != len(tc.means) {
				t.Fatalf("Dim %d Arms %d", e.Dim(), e.Arms())
			}
			r, r2 := bandit.NewRound(e), bandit.NewRound(twin)
			if r.Actions != nil {
				t.Fatal("K-armed round has actions")
			}
			n := 20000
			sums := make([]float64, e.Arms())
			for s := 1; s <= n; s++ {
				e.Next(r, s)
				twin.Next(r2, s)
				for a := range sums {
					y := e.Reward(r, a)
					if y != twin.Reward(r2, a) {
						t.Fatalf("round %d arm %d: same seed, different rewards", s, a)
					}
					switch tc.noise {
					case Bernoulli:
						if y != 0 && y != 1 {
							t.Fatalf("bernoulli reward %v", y)
						}
					case Rademacher:
						if y != 1 && y != -1 {
							t.Fatalf("rademacher reward %v", y)
						}
					}
					sums[a] += y
				}
			}
			for a, mu := range tc.means {
				if e.Mean(r, a) != mu {
					t.Errorf("Mean(%d) = %v, want %v", a, e.Mean(r, a), mu)
				}
				v := tc.vari(mu)
				dev := sums[a] - float64(n)*mu
				if v == 0 {
					if dev != 0 {
						t.Errorf("arm %d (deterministic, mean %v): sum off by %v", a, mu, dev)
					}
					continue
				}
				if z := dev / math.Sqrt(float64(n)*v); math.Abs(z) > zFail {
					t.Errorf("arm %d mean %v: z = %.2f", a, mu, z)
				}
			}
			best := tc.means[len(tc.means)-1]
			if e.BestMean(r) != best {
				t.Errorf("BestMean = %v, want %v", e.BestMean(r), best)
			}
		})
	}
}

// TestKArmedEnvArmsIndependent checks that two Bernoulli(½) arms are drawn
// independently: the number of rounds where they agree is Binomial(n, ½);
// |z| ≤ zFail (false failure 10⁻⁵).
func TestKArmedEnvArmsIndependent(t *testing.T) {
	e, err := NewKArmedEnv(KArmedConfig{Means: []float64{0.5, 0.5}, Noise: Bernoulli}, bandit.Stream(1, 701))
	if err != nil {
		t.Fatal(err)
	}
	r := bandit.NewRound(e)
	n, agree := 20000, 0.0
	for s := 1; s <= n; s++ {
		e.Next(r, s)
		if e.Reward(r, 0) == e.Reward(r, 1) {
			agree++
		}
	}
	if z := (agree - float64(n)/2) / math.Sqrt(float64(n)/4); math.Abs(z) > zFail {
		t.Errorf("arms agree in %v of %d rounds (z = %.2f)", agree, n, z)
	}
}

func TestKArmedEnvConfigErrors(t *testing.T) {
	for _, cfg := range []KArmedConfig{
		{},
		{Means: []float64{0.5, 1.2}, Noise: Bernoulli},
		{Means: []float64{-0.1}, Noise: Bernoulli},
		{Means: []float64{0.5, -1.5}, Noise: Rademacher},
		{Means: []float64{math.NaN()}, Noise: GaussianReward},
		{Means: []float64{math.Inf(1)}, Noise: GaussianReward},
		{Means: []float64{0}, Noise: GaussianReward, Sigma: -1},
		{Means: []float64{0}, Noise: 7},
	} {
		if _, err := NewKArmedEnv(cfg, bandit.Stream(1, 1)); err == nil {
			t.Errorf("config %+v accepted", cfg)
		}
	}
}

func TestKArmedEnvNoAllocs(t *testing.T) {
	e, err := NewKArmedEnv(KArmedConfig{Means: []float64{0.1, 0.2, 0.3}, Noise: Bernoulli}, bandit.Stream(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	r := bandit.NewRound(e)
	s := 0
	if n := testing.AllocsPerRun(50, func() { s++; e.Next(r, s) }); n != 0 {
		t.Errorf("Next allocates %v times per round", n)
	}
}

func TestFixedActionsEnv(t *testing.T) {
	actions := [][]float64{{1, 0}, {0, 1}, {0.6, 0.8}}
	theta := []float64{0.5, -0.25}
	e, err := NewFixedActionsEnv(FixedActionsConfig{Actions: actions, Theta: theta}, bandit.Stream(1, 702))
	if err != nil {
		t.Fatal(err)
	}
	actions[0][0] = 99 // must not leak into the environment
	theta[0] = 99
	r := bandit.NewRound(e)
	want := []float64{0.5, -0.25, 0.1}
	n := 20000
	sums := make([]float64, 3)
	for s := 1; s <= n; s++ {
		e.Next(r, s)
		if got := r.Action(0); got[0] != 1 || got[1] != 0 {
			t.Fatalf("action 0 = %v", got)
		}
		r.Actions[1] = 42 // a misbehaving policy: the next round must undo it
		for a := range want {
			sums[a] += e.Reward(r, a)
		}
	}
	for a, mu := range want {
		if math.Abs(e.Mean(r, a)-mu) > 1e-15 {
			t.Errorf("Mean(%d) = %v, want %v", a, e.Mean(r, a), mu)
		}
		// Rademacher: Var = 1 − μ²; false failure 10⁻⁵ per arm.
		if z := (sums[a] - float64(n)*mu) / math.Sqrt(float64(n)*(1-mu*mu)); math.Abs(z) > zFail {
			t.Errorf("arm %d: z = %.2f", a, z)
		}
	}
	if e.BestMean(r) != 0.5 || e.Dim() != 2 || e.Arms() != 3 || e.Theta()[0] != 0.5 {
		t.Errorf("BestMean %v Dim %d Arms %d Theta %v", e.BestMean(r), e.Dim(), e.Arms(), e.Theta())
	}
}

func TestFixedActionsEnvConfigErrors(t *testing.T) {
	for _, cfg := range []FixedActionsConfig{
		{Theta: []float64{1}},
		{Actions: [][]float64{{1}}},
		{Actions: [][]float64{{1, 0}}, Theta: []float64{1}},
		{Actions: [][]float64{{math.NaN()}}, Theta: []float64{1}},
		{Actions: [][]float64{{1}}, Theta: []float64{math.Inf(-1)}},
		{Actions: [][]float64{{2}}, Theta: []float64{1}},                      // mean 2 ∉ [−1, 1]
		{Actions: [][]float64{{-0.5}}, Theta: []float64{1}, Noise: Bernoulli}, // mean < 0
		{Actions: [][]float64{{1}}, Theta: []float64{1}, Noise: GaussianReward, Sigma: math.NaN()},
	} {
		if _, err := NewFixedActionsEnv(cfg, bandit.Stream(1, 1)); err == nil {
			t.Errorf("config %+v accepted", cfg)
		}
	}
}

// TestBernoulliArmsBest: the pseudo-regret is measured against the largest
// mean wherever it is (means (0.4, 0.9): playing arm 0 costs 0.5 a round,
// arm 1 nothing); with arm 0 best, as in MT14's Fig. 1, nothing changes.
func TestBernoulliArmsBest(t *testing.T) {
	e := NewBernoulliArms([]float64{0.4, 0.9}, bandit.Stream(1, 1))
	r := bandit.NewRound(e)
	e.Next(r, 1)
	if got := e.BestMean(r) - e.Mean(r, 0); got != 0.5 {
		t.Errorf("regret of arm 0 = %v, want 0.5", got)
	}
	if got := e.BestMean(r) - e.Mean(r, 1); got != 0 {
		t.Errorf("regret of arm 1 = %v, want 0", got)
	}
	if f := NewBernoulliArms([]float64{0.9, 0.4}, bandit.Stream(1, 1)); f.BestMean(r) != 0.9 {
		t.Errorf("best mean %v, want 0.9", f.BestMean(r))
	}
}
