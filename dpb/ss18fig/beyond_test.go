package ss18fig

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

func TestCounterNoise(t *testing.T) {
	r, err := CounterNoise(1, 0.1, []int{1 << 10, 1 << 12})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.MaxStd.Names) != len(counter.Kinds) || len(r.MaxStd.X) != 2 {
		t.Fatalf("curves %+v", r.MaxStd)
	}
	for i, k := range r.Kinds {
		for j, p := range r.Profiles[i] {
			// σ√V with σ = √cost/μ, recomputed from the profile.
			if want := math.Sqrt(p.MaxVar*p.Cost.L2Sq) / r.Mu; !(math.Abs(r.MaxStd.Mean[i][j]-want) <= 1e-12*want) {
				t.Errorf("%v: max s.d. %v, want %v", k, r.MaxStd.Mean[i][j], want)
			}
			if !(r.MeanStd.Mean[i][j] <= r.MaxStd.Mean[i][j]) {
				t.Errorf("%v: mean s.d. above max", k)
			}
		}
	}
	if got := r.Ratio["tree"][0]; got != [2]float64{1, 1} {
		t.Errorf("tree's ratio to itself %v", got)
	}
	if _, err := CounterNoise(-1, 0.1, []int{16}); err == nil {
		t.Error("negative ε accepted")
	}
}

// TestSimulateCounter: the empirical variance of 4000 replicates stays
// within 6 standard errors of the reported one at every round (per round
// false-failure probability ≈ 2·10⁻⁹, 6 counters × 128 rounds: < 2·10⁻⁶).
func TestSimulateCounter(t *testing.T) {
	for _, k := range counter.Kinds {
		s, err := SimulateCounter(k, 128, 4000, 3)
		if err != nil {
			t.Fatal(err)
		}
		if !(s.MaxZ <= 6) {
			t.Errorf("%v: empirical variance %.2f standard errors from the reported one", k, s.MaxZ)
		}
	}
}

func TestRegretRatios(t *testing.T) {
	res := &Exp2Result{Config: Exp2Config{Algs: []ss18.Alg{ss18.NonPrivate, ss18.GaussianBLT}, Gaps: []float64{0}},
		Curves: []*harness.Curves{{Names: []string{"NonPrivate", "GaussianBLT"}, X: []float64{1, 2},
			Mean: [][]float64{{1, 10}, {3, 30}}, StdErr: [][]float64{{0, 1}, {0, 3}}}}}
	r, err := RegretRatios(res)
	if err != nil {
		t.Fatal(err)
	}
	if r[1].Ratio != 3 || !(math.Abs(r[1].RatioSE-3*math.Sqrt(0.02)) < 1e-12) {
		t.Errorf("ratio %+v", r[1])
	}
	res.Config.Algs = res.Config.Algs[1:]
	if _, err := RegretRatios(res); err == nil {
		t.Error("no NonPrivate first accepted")
	}
}
