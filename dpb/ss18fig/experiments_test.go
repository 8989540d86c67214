package ss18fig

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/internal/lockstep"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

func TestSS18DecisionSet(t *testing.T) {
	ds, err := DecisionSet(dpenv.LinearEnvConfig{Dim: 3, K: 1000, Gap: 0.1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Actions) != 1000 || len(ds.Means) != 1000 || ds.Means[ds.Optimal] != 0.75 {
		t.Fatalf("decision set: %d actions, optimal %d with mean %v", len(ds.Actions), ds.Optimal, ds.Means[ds.Optimal])
	}
	for a, m := range ds.Means {
		if a != ds.Optimal && (m < -0.75 || m > 0.65) {
			t.Fatalf("action %d mean %v outside the band", a, m)
		}
	}
}

func TestLogDims(t *testing.T) {
	if got := harness.LogDims(4, 64, 5); !slices.Equal(got, []int{4, 8, 16, 32, 64}) {
		t.Errorf("LogDims(4, 64, 5) = %v", got)
	}
	if got := harness.LogDims(4, 64, 17); len(got) != 17 || got[0] != 4 || got[16] != 64 {
		t.Errorf("LogDims(4, 64, 17) = %v", got)
	}
}

func TestLogLogFit(t *testing.T) {
	x := []float64{4, 8, 16, 32}
	y := make([]float64, len(x))
	for i := range x {
		y[i] = 3 * math.Pow(x[i], 2.2)
	}
	f := harness.FitLogLog(x, y)
	a, b := f.Slope, f.Intercept
	if math.Abs(a-2.2) > 1e-12 || math.Abs(b-math.Log(3)) > 1e-12 {
		t.Errorf("fit slope %v intercept %v, want 2.2, ln 3", a, b)
	}
}

// TestSS18Experiment1Smoke runs a tiny Experiment 1 and checks its shape,
// that regret is non-negative and non-decreasing, and that the result does
// not depend on the number of workers.
func TestSS18Experiment1Smoke(t *testing.T) {
	cfg := Exp1Config{Dims: []int{3, 4}, Horizon: 300, Reps: 2, Points: 10, Seed: 5, RunOptions: harness.RunOptions{Workers: 1}}
	a, err := Experiment1(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers = 2
	b, err := Experiment1(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Curves, b.Curves) || !reflect.DeepEqual(a.Total, b.Total) {
		t.Error("results depend on the number of workers")
	}
	if len(a.Curves) != 2 || len(a.Curves[0].Names) != 2 || len(a.Total[1].X) != 2 || len(a.Slope) != 2 {
		t.Fatalf("unexpected shape: %d curves, %d series", len(a.Curves), len(a.Curves[0].Names))
	}
	for _, c := range a.Curves {
		for _, m := range c.Mean {
			for k := range m {
				if m[k] < 0 || (k > 0 && m[k] < m[k-1]) {
					t.Fatalf("regret curve %v not non-negative and non-decreasing", m)
				}
			}
		}
	}
	if _, err := Experiment1(Exp1Config{Dims: []int{1}}); err == nil {
		t.Error("d = 1 accepted")
	}
}

// TestSS18Experiment2Smoke runs a tiny Experiment 2: shapes, non-negative
// non-decreasing regret, and independence from the number of workers.
func TestSS18Experiment2Smoke(t *testing.T) {
	cfg := Exp2Config{Dim: 3, Horizon: 200, Reps: 2, Points: 5, Seed: 3, RunOptions: harness.RunOptions{Workers: 1}}
	a, err := Experiment2(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers = 2
	b, err := Experiment2(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Curves, b.Curves) {
		t.Error("results depend on the number of workers")
	}
	if len(a.Curves) != 2 || len(a.Curves[0].Names) != len(ss18.Algs) || a.Config.K != 9 {
		t.Fatalf("unexpected shape: %d gaps, %d series, K = %d", len(a.Curves), len(a.Curves[0].Names), a.Config.K)
	}
	for _, c := range a.Curves {
		for _, m := range c.Mean {
			for k := range m {
				if m[k] < 0 || (k > 0 && m[k] < m[k-1]) {
					t.Fatalf("regret curve %v not non-negative and non-decreasing", m)
				}
			}
		}
	}
}

func TestSS18Experiment3Smoke(t *testing.T) {
	res, err := Experiment3(Exp3Config{Dim: 3, Horizon: 100, Reps: 2, RhoMins: 3, Gaps: []float64{0.1, 0}, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Curves) != 2 || len(res.RhoMin) != 3 || len(res.Curves[1].Names) != 2 || len(res.Curves[0].X) != 3 {
		t.Fatalf("unexpected shape: %+v", res)
	}
	for i := 1; i < len(res.RhoMin); i++ {
		if res.RhoMin[i] <= res.RhoMin[i-1] {
			t.Fatalf("ρ_min grid %v not increasing", res.RhoMin)
		}
	}
	if !(res.PaperRhoMin[0] > res.RhoMin[0] && res.PaperRhoMin[0] < res.UnshiftedRhoMin) {
		t.Errorf("Wishart's own ρ′_min %v outside the grid %v", res.PaperRhoMin[0], res.RhoMin)
	}
}

// TestRegretLockstep checks that running policies in lockstep gives each the
// same regret as running it alone on an environment from the same stream.
func TestRegretLockstep(t *testing.T) {
	newEnv := func() bandit.Environment {
		e, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 4, K: 16, Gap: 0.1}, bandit.Stream(9, 0))
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	newPol := func(lambda float64) bandit.Policy {
		reg, err := ss18.NewRegularizer(ss18.RegularizerConfig{Kind: ss18.RegRidge, Setting: ss18.Setting{D: 4}, Lambda: lambda}, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ss18.NewLinUCB(ss18.LinUCBConfig{Dim: 4, Horizon: 500, Regularizer: reg})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	rec := []int{1, 10, 100, 500}
	got := make([]float64, 2*len(rec))
	RegretLockstep(newEnv(), []bandit.Policy{newPol(1), newPol(5)}, 500, rec, got)
	for i, lambda := range []float64{1, 5} {
		want := make([]float64, len(rec))
		bandit.RegretCurve(newEnv(), newPol(lambda), 500, rec, want)
		if !slices.Equal(got[i*len(rec):(i+1)*len(rec)], want) {
			t.Errorf("λ=%v: lockstep %v, alone %v", lambda, got[i*len(rec):(i+1)*len(rec)], want)
		}
	}
}

// BenchmarkSS18Exp2RoundSet times one round of Experiment 2 in lockstep (one
// decision set, the four variants prepared and scored together, then updated, as
// in RegretLockstep) at the paper's setting
// (d = 5, K = 25, n = 5·10⁷ so m = 27, padded tree): the unit for
// extrapolating the paper-scale run. Besides wall time it reports the
// thread's CPU time per round, which a loaded host disturbs much less.
func BenchmarkSS18Exp2RoundSet(b *testing.B) {
	for _, n := range []int{1000000, 50000000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			cfg := Exp2Config{Horizon: n}
			if err := cfg.defaults(); err != nil {
				b.Fatal(err)
			}
			env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 5, K: 25}, bandit.Stream(1, 0))
			if err != nil {
				b.Fatal(err)
			}
			var pols []bandit.Policy
			for i, a := range ss18.Algs {
				p, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: a, Setting: cfg.Setting(), Mode: counter.Padded, Noise: noise.Simulated}, bandit.Stream(1, uint64(1+i)))
				if err != nil {
					b.Fatal(err)
				}
				pols = append(pols, p)
			}
			r := bandit.NewRound(env)
			arms := make([]int, len(pols))
			b.ReportAllocs()
			cpu := testkit.StartCPUClock()
			t := 0
			for b.Loop() {
				t++
				if t > n {
					b.Fatal("benchmark ran past the horizon")
				}
				env.Next(r, t)
				lockstep.Choose(pols, r, arms)
				for i, p := range pols {
					p.Update(r, arms[i], env.Reward(r, arms[i]))
				}
			}
			testkit.ReportRound(b, cpu)
		})
	}
}
