package mt14fig

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/internal/testutil"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/ope"
)

// TestMT14Fig1Smoke runs Fig. 1 small and checks shape, determinism across
// worker counts, and that regret never exceeds Δ·t.
func TestMT14Fig1Smoke(t *testing.T) {
	cfg := Fig1Config{Arms: 5, Horizon: 2000, Reps: 3, Seed: 7, Epsilons: []float64{1, 100}, Points: 10}
	cfg.Workers = 1
	a, err := RunFig1(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers = 3
	b, err := RunFig1(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatal("results depend on the number of workers")
	}
	if len(a.Names) != 3 || a.X[len(a.X)-1] != 2000 {
		t.Fatalf("names %v x %v", a.Names, a.X)
	}
	// With τ = 100 every policy is wrapped in Delayed: the names say so and
	// the regret curves change.
	cfg.Delay = 100
	d, err := RunFig1(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(d.Mean, a.Mean) || !strings.HasSuffix(d.Names[0], "τ=100") {
		t.Errorf("delay had no effect: %v", d.Names)
	}
	for s := range a.Names {
		for i, x := range a.X {
			if m := a.Mean[s][i]; m < 0 || m > 0.5*x+1e-9 {
				t.Fatalf("%s at %v: regret %v outside [0, Δt]", a.Names[s], x, m)
			}
		}
	}
}

func TestMT14Fig2Smoke(t *testing.T) {
	const k = 4
	lg := func(rep int) (ope.Log, error) {
		l := testutil.NewSynthLog(3000, k, 3, 1.0/k, bandit.Stream(21, uint64(rep)))
		return &contextLog{l}, nil
	}
	cfg := Fig2Config{NewLog: lg, Reps: 2, Seed: 3, Epsilons: []float64{1, 10}, Delays: []int{0, 10},
		Mechanisms: []mt14.ContextMechanism{mt14.ContextEntryTrees, mt14.ContextSS18Tree}, Disjoint: true, RunOptions: harness.RunOptions{Workers: 1}}
	a, err := RunFig2(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers = 2
	b, err := RunFig2(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatal("results depend on the number of workers")
	}
	if len(a.Rows) != 2*(1+2*2) {
		t.Fatalf("%d rows", len(a.Rows))
	}
	for _, r := range a.Rows {
		if r.Matched < 500 || r.Matched > 1000 || math.IsNaN(r.NormCTR) || r.First.Matched == 0 {
			t.Errorf("row %+v", r)
		}
	}
}

func TestMT14BoundsSmoke(t *testing.T) {
	c, err := RunBounds(BoundsConfig{Arms: 3, Horizons: []int{100, 1000}, Epsilon: 10, Reps: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Names) != 6 || len(c.X) != 2 {
		t.Fatalf("%v %v", c.Names, c.X)
	}
	// The measured regrets cannot exceed uniform-play-level Δ·T, and the
	// private lower bound is below the Theorem 4 upper bound.
	for i, T := range c.X {
		if c.Mean[0][i] > 0.5*T || c.Mean[3][i] >= c.Mean[2][i] {
			t.Errorf("T=%v: %v", T, c.Mean)
		}
	}
}

// contextLog gives synthLog contexts in [0, 1]^2: [1, id/(m−1)] per arm.
type contextLog struct{ *testutil.SynthLog }

func (c *contextLog) Dim() int { return 2 }
func (c *contextLog) Event(r *bandit.Round, i int) (int, float64, float64) {
	for a := 0; a < c.K; a++ {
		r.Actions[2*a] = 1
		r.Actions[2*a+1] = float64(c.Ctx[i]) / float64(c.M-1)
	}
	return c.Logged[i], c.Rew[i], c.Prob
}

// The Counters series come after the paper's, one per counter × ε, and do
// not change the paper's series.
func TestMT14Fig1Counters(t *testing.T) {
	base := Fig1Config{Arms: 3, Horizon: 1000, Reps: 2, Seed: 7, Epsilons: []float64{1}, NoRelaxation: []float64{1}, Points: 5}
	a, err := RunFig1(base)
	if err != nil {
		t.Fatal(err)
	}
	withC := base
	withC.Counters = []counter.Kind{counter.Honaker, counter.Smooth}
	b, err := RunFig1(withC)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Names) != len(a.Names)+4 || b.Names[len(a.Names)] != "DP-UCB ε=1, honaker" {
		t.Fatalf("names %v", b.Names)
	}
	if !reflect.DeepEqual(b.Mean[:len(a.Names)], a.Mean) {
		t.Error("adding counters changed the paper's series")
	}
}

// TestRunFig1Finals: the finals are those of RunFig1's runs: the curves are
// RunFig1's, and each series' finals have the last point's mean and s.e.
// bit for bit, one per run.
func TestRunFig1Finals(t *testing.T) {
	cfg := Fig1Config{Arms: 3, Horizon: 400, Reps: 3, Seed: 9, Epsilons: []float64{1}, Points: 5}
	res, err := RunFig1Finals(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c, err := RunFig1(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, res.Curves) {
		t.Fatal("RunFig1Finals' curves differ from RunFig1's")
	}
	last := len(c.X) - 1
	for s, name := range c.Names {
		if m, se := harness.MeanStdErr(res.Finals[s]); len(res.Finals[s]) != cfg.Reps || m != c.Mean[s][last] || se != c.StdErr[s][last] {
			t.Errorf("%s: %d finals, %v ± %v; the last point %v ± %v", name, len(res.Finals[s]), m, se, c.Mean[s][last], c.StdErr[s][last])
		}
	}
}
