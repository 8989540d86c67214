package ope

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/testutil"
)

// For a fixed policy on the non-uniform log, the accepted events are i.i.d.
// draws of the policy's reward: given Accepted = N the value has mean V and
// variance V(1−V)/N, and Accepted ~ Binomial(n, PMin) with PMin = 1/15 (the
// smallest logging probability). Its doubly robust value with a fixed
// policy is the DR estimator of EstimateAll (the same terms, summed in the
// same order). False failure ≈ 1e-5 per assertion.
func TestPropensityReplayFixedPolicy(t *testing.T) {
	n := 60000
	l := testutil.NewSynthLogLogged(n, synthMu, synthLogging, bandit.Stream(31, 0))
	model := &ArmMeanModel{Means: []float64{0.4, 0.2, 0.3, 0.5}}
	for _, arms := range [][]int{{2, 0, 1}, {3, 3, 3}} {
		pi := deterministic(arms)
		res, err := PropensityReplay(&tablePolicy{pi: arms}, l, PropensityReplayConfig{Model: model, Rand: bandit.Stream(31, 1)})
		if err != nil {
			t.Fatal(err)
		}
		v, _, _, _, _ := moments(pi, model.Means)
		if sd := math.Sqrt(v * (1 - v) / float64(res.Accepted)); math.Abs(res.Value-v) > testutil.Z5*sd {
			t.Errorf("%v: value %v, true %v ± %v", arms, res.Value, v, testutil.Z5*sd)
		}
		q := 1.0 / 15
		if sd := math.Sqrt(float64(n) * q * (1 - q)); res.PMin != q || math.Abs(float64(res.Accepted)-float64(n)*q) > testutil.Z5*sd {
			t.Errorf("%v: accepted %d with PMin %v, want %v ± %v", arms, res.Accepted, res.PMin, float64(n)*q, testutil.Z5*sd)
		}
		est, _ := EstimateAll(l, stochTarget{pi}, model, []Estimator{DR}, EstimateConfig{})
		if math.Abs(res.DR-est[0].Value) > 1e-12 || math.Abs(res.DRESS-est[0].ESS) > 1e-9*est[0].ESS {
			t.Errorf("%v: DR %v (ESS %v), EstimateAll DR %v (ESS %v)", arms, res.DR, res.DRESS, est[0].Value, est[0].ESS)
		}
		if res.Clipped != 0 || res.Events != n {
			t.Errorf("%v: %v", arms, res)
		}
	}
}

// ctxGreedy learns online: per context, the arm with the best empirical mean
// (unplayed arms first, ties to the lowest index).
type ctxGreedy struct{ sum, cnt [3][4]float64 }

func (g *ctxGreedy) Choose(r *bandit.Round) int {
	c := int(r.Actions[0])
	best, bv := 0, math.Inf(-1)
	for a := range 4 {
		v := math.Inf(1)
		if g.cnt[c][a] > 0 {
			v = g.sum[c][a] / g.cnt[c][a]
		}
		if v > bv {
			best, bv = a, v
		}
	}
	return best
}

func (g *ctxGreedy) Update(r *bandit.Round, a int, y float64) {
	c := int(r.Actions[0])
	g.sum[c][a] += y
	g.cnt[c][a]++
}

// For a policy that learns, the accepted events are distributed exactly as
// the policy's own interaction with the environment: the replay value of N
// accepted rounds has the distribution of the policy's average reward over N
// online rounds. Two-sample check: 8 replays on independent logs against 400
// online runs, tolerance Z5·s·√(1/8 + 1/400), s the online runs' standard
// deviation (false failure ≈ 1e-5, normal approximation of the means).
func TestPropensityReplayLearningPolicy(t *testing.T) {
	const N, logs, runs = 400, 8, 400
	var replay, dr, drVar float64
	model := &ArmMeanModel{Means: []float64{0.35, 0.35, 0.35, 0.2}} // deliberately wrong
	for j := range logs {
		l := testutil.NewSynthLogLogged(N*20, synthMu, synthLogging, bandit.Stream(41, uint64(j)))
		res, err := PropensityReplay(&ctxGreedy{}, l, PropensityReplayConfig{MaxAccepted: N, Model: model, Rand: bandit.Stream(42, uint64(j))})
		if err != nil {
			t.Fatal(err)
		}
		if res.Accepted != N {
			t.Fatalf("log %d: %d accepted, want %d", j, res.Accepted, N)
		}
		replay += res.Value / logs
		dr += res.DR / logs
		se := (res.DRHi - res.DRLo) / (2 * 1.959963984540054)
		drVar += se * se / logs / logs
	}
	rng := bandit.Stream(43, 0)
	var m1, m2 float64
	for range runs {
		var g ctxGreedy
		r := &bandit.Round{K: 4, Dim: 1, Actions: make([]float64, 4)}
		var s float64
		for range N {
			c := rng.IntN(3)
			r.Actions[0] = float64(c)
			a := g.Choose(r)
			y := bern(rng, synthMu[c][a])
			s += y
			g.Update(r, a, y)
		}
		m1 += s / N / runs
		m2 += s * s / N / N / runs
	}
	sd := math.Sqrt((m2 - m1*m1) * runs / (runs - 1))
	if tol := testutil.Z5 * sd * math.Sqrt(1.0/logs+1.0/runs); math.Abs(replay-m1) > tol {
		t.Errorf("replay %v, online %v ± %v", replay, m1, tol)
	}
	// The doubly robust value (every event, the policy in its current state,
	// a wrong reward model) estimates the same average reward, weighting the
	// policy's states by their holding times: checked against the online mean
	// with its own reported standard errors plus the online runs' spread over
	// the mean of 8 logs (the holding times are independent of the states,
	// so their weighting is a ratio of sums, biased by O(1/N) only; the
	// spread of the policy's path over logs is covered by the sd term).
	// False failure ≈ 1e-5 up to that O(1/N) term.
	if tol := testutil.Z5 * math.Sqrt(drVar+sd*sd*(1.0/logs+1.0/runs)); math.Abs(dr-m1) > tol {
		t.Errorf("DR %v, online %v ± %v", dr, m1, tol)
	}
	t.Logf("online %.4f, replay %.4f, DR %.4f (DR s.e. %.4f)", m1, replay, dr, math.Sqrt(drVar))
}

func bern(rng *rand.Rand, p float64) float64 {
	if rng.Float64() < p {
		return 1
	}
	return 0
}

// A threshold far below every propensity accepts no event: the replay
// returns an error with its result instead of a NaN value as an estimate
// (mt14-fig2-obd-bts -pmin 5e-324 printed a NaN estimate with exit 0).
func TestPropensityReplayNoneAccepted(t *testing.T) {
	l := testutil.NewSynthLogLogged(2000, synthMu, synthLogging, bandit.Stream(31, 0))
	res, err := PropensityReplay(&tablePolicy{pi: []int{2, 0, 1}}, l, PropensityReplayConfig{PMin: 5e-324, Rand: bandit.Stream(31, 1)})
	if err == nil || !strings.Contains(err.Error(), "no event of 2000 accepted") {
		t.Errorf("err = %v, value %v: want an error naming the empty acceptance", err, res.Value)
	}
	if res.Accepted != 0 || res.Events != 2000 {
		t.Errorf("result %v", res)
	}
}
