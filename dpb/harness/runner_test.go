package harness

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
)

// coinEnv is a two-armed Bernoulli environment for runner tests.
type coinEnv struct {
	rng *rand.Rand
	u   float64
}

func (e *coinEnv) Arms() int                           { return 2 }
func (e *coinEnv) Dim() int                            { return 0 }
func (e *coinEnv) Next(r *bandit.Round, t int)         { r.T = t; e.u = e.rng.Float64() }
func (e *coinEnv) Mean(_ *bandit.Round, a int) float64 { return []float64{0.4, 0.6}[a] }
func (e *coinEnv) BestMean(*bandit.Round) float64      { return 0.6 }
func (e *coinEnv) Reward(r *bandit.Round, a int) float64 {
	if e.u < e.Mean(r, a) {
		return 1
	}
	return 0
}

// randomPolicy picks uniformly from its own stream.
type randomPolicy struct{ rng *rand.Rand }

func (p *randomPolicy) Choose(r *bandit.Round) int         { return p.rng.IntN(r.K) }
func (p *randomPolicy) Update(*bandit.Round, int, float64) {}

func testExperiment(workers int) *BanditExperiment {
	return &BanditExperiment{
		Horizon: 500, Reps: 7, Seed: 42, RunOptions: RunOptions{Workers: workers},
		NewEnv: func(rng *rand.Rand) (bandit.Environment, error) { return &coinEnv{rng: rng}, nil },
		Policies: []PolicyFactory{
			{Name: "random", New: func(rng *rand.Rand) (bandit.Policy, error) { return &randomPolicy{rng: rng}, nil }},
			{Name: "always1", New: func(*rand.Rand) (bandit.Policy, error) { return &fixedPolicy{1}, nil }},
		},
		Record: []int{1, 10, 100, 500},
	}
}

type fixedPolicy struct{ a int }

func (p *fixedPolicy) Choose(*bandit.Round) int           { return p.a }
func (p *fixedPolicy) Update(*bandit.Round, int, float64) {}

// TestRunnerDeterministic: the same seed gives byte-identical CSV whatever the
// number of workers and GOMAXPROCS.
func TestRunnerDeterministic(t *testing.T) {
	var outs [][]byte
	for _, w := range []int{1, 2, 5} {
		for _, procs := range []int{1, runtime.NumCPU()} {
			old := runtime.GOMAXPROCS(procs)
			c, err := testExperiment(w).Run()
			runtime.GOMAXPROCS(old)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := c.WriteCSV(&buf, "t"); err != nil {
				t.Fatal(err)
			}
			outs = append(outs, buf.Bytes())
		}
	}
	for i := 1; i < len(outs); i++ {
		if !bytes.Equal(outs[0], outs[i]) {
			t.Fatalf("run %d differs:\n%s\nvs\n%s", i, outs[0], outs[i])
		}
	}
}

// TestRunnerRegret: the optimal fixed policy has zero regret; uniform random
// has expected regret 0.1·t/… exactly 0.2 per suboptimal pull.
func TestRunnerRegret(t *testing.T) {
	c, err := testExperiment(2).Run()
	if err != nil {
		t.Fatal(err)
	}
	for k := range c.X {
		if c.Mean[1][k] != 0 || c.StdErr[1][k] != 0 {
			t.Fatalf("optimal policy regret %v ± %v at t=%v", c.Mean[1][k], c.StdErr[1][k], c.X[k])
		}
	}
	// Random play: regret after 500 rounds is 0.2·Bin(500, 1/2), mean 50, sd √(500/4)·0.2 ≈ 2.24;
	// the mean of 7 reps has sd 0.845; 5 sd: false failure < 1e-6.
	if got := c.Mean[0][3]; math.Abs(got-50) > 5*0.2*math.Sqrt(125.0/7) {
		t.Fatalf("random policy regret %v, want ≈ 50", got)
	}
}

func TestRunnerErrors(t *testing.T) {
	e := testExperiment(2)
	e.Record = []int{5, 3}
	if _, err := e.Run(); err == nil {
		t.Error("decreasing record points accepted")
	}
	e = testExperiment(2)
	boom := errors.New("boom")
	e.Policies[0].New = func(*rand.Rand) (bandit.Policy, error) { return nil, boom }
	if _, err := e.Run(); !errors.Is(err, boom) {
		t.Errorf("factory error not returned: %v", err)
	}
	e = testExperiment(2)
	e.Horizon = 0
	if _, err := e.Run(); err == nil {
		t.Error("horizon 0 accepted")
	}
}

func TestGrids(t *testing.T) {
	g := LogGrid(1000, 20)
	if g[0] < 1 || g[len(g)-1] != 1000 {
		t.Fatalf("LogGrid = %v", g)
	}
	for i := 1; i < len(g); i++ {
		if g[i] <= g[i-1] {
			t.Fatalf("LogGrid not increasing: %v", g)
		}
	}
	if l := LinGrid(10, 3); len(l) != 4 || l[3] != 10 {
		t.Fatalf("LinGrid(10,3) = %v", l)
	}
}

// TestRunnerPolicyError: a policy that rejected an observation fails the run.
func TestRunnerPolicyError(t *testing.T) {
	e := testExperiment(1)
	e.Policies = []PolicyFactory{{Name: "strict", New: func(*rand.Rand) (bandit.Policy, error) { return &errPolicy{}, nil }}}
	if _, err := e.Run(); err == nil || !errors.Is(err, errRejected) {
		t.Fatalf("err = %v, want the policy's rejection", err)
	}
}

var errRejected = errors.New("rejected")

type errPolicy struct{ fixedPolicy }

func (*errPolicy) Err() error { return errRejected }

func TestMeanStdErr(t *testing.T) {
	m, se := MeanStdErr([]float64{1, 2, 3, 4})
	// mean 2.5, sample variance 5/3, se = sqrt(5/3/4).
	if m != 2.5 || math.Abs(se-math.Sqrt(5.0/12)) > 1e-15 {
		t.Fatalf("MeanStdErr = %v, %v", m, se)
	}
	if m, se := MeanStdErr([]float64{7}); m != 7 || se != 0 {
		t.Fatalf("one value: %v, %v", m, se)
	}
}

// TestRunFinals: each run's final regret, as RunFinals returns it, is what
// the curves' last point summarises: its mean and standard error are the
// last point's, bit for bit, over Reps runs. A finals slice taken at another
// record point, or one run repeated, changes the mean or the s.e. (the
// random policy's runs differ). An empty record list is an error.
func TestRunFinals(t *testing.T) {
	c, fin, err := testExperiment(2).RunFinals()
	if err != nil {
		t.Fatal(err)
	}
	last := len(c.X) - 1
	for s := range c.Names {
		if len(fin[s]) != c.Reps {
			t.Fatalf("%s: %d finals, want %d runs", c.Names[s], len(fin[s]), c.Reps)
		}
		m, se := MeanStdErr(fin[s])
		if m != c.Mean[s][last] || se != c.StdErr[s][last] {
			t.Errorf("%s: finals give %v ± %v, the curve's last point %v ± %v", c.Names[s], m, se, c.Mean[s][last], c.StdErr[s][last])
		}
	}
	if _, se := MeanStdErr(fin[0]); !(se > 0) {
		t.Fatalf("the random policy's finals do not vary (s.e. %v): the test could not tell runs apart", se)
	}
	e := testExperiment(1)
	e.Record = []int{}
	if _, _, err := e.RunFinals(); err == nil {
		t.Error("an empty record list gave no error")
	}
}
