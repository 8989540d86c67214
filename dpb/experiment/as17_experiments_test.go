package experiment

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/internal/testutil"
)

func TestFitLogLog(t *testing.T) {
	x := []float64{1, 2, 4, 8, 16}
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = 3 * math.Pow(v, 0.5)
	}
	f := FitLogLog(x, y)
	if math.Abs(f.Slope-0.5) > 1e-12 || math.Abs(f.Intercept-math.Log(3)) > 1e-12 || f.SlopeSE > 1e-12 || f.Points != 5 {
		t.Errorf("fit %+v, want slope 0.5, intercept log 3, SE 0", f)
	}
	y[2] = -1 // dropped
	if f := FitLogLog(x, y); f.Points != 4 || math.Abs(f.Slope-0.5) > 1e-12 {
		t.Errorf("fit with a negative point %+v", f)
	}
	if f := FitLogLog([]float64{1}, []float64{1}); !math.IsNaN(f.Slope) {
		t.Errorf("one-point fit %+v, want NaN", f)
	}
}

// TestAS17SweepSmoke runs every Table 1 and 2 row on tiny horizons and checks
// that the result does not depend on the number of workers, that the
// non-private regret is below the row's bound, and that the excess series
// is the paired difference.
func TestAS17SweepSmoke(t *testing.T) {
	rows := append(AS17Table1Rows(3, as17.Stochastic), AS17Table2Rows(3, as17.Stochastic)...)
	for _, row := range rows {
		s := AS17Sweep{Row: row, Horizons: []int{64, 256}, Epsilons: []float64{math.Inf(1), 1}, Reps: 3, Seed: 7, Workers: 1}
		a, err := s.Run()
		if err != nil {
			t.Fatalf("%s: %v", row.Name, err)
		}
		s.Workers = 3
		b, err := s.Run()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a.Regret, b.Regret) || !reflect.DeepEqual(a.Excess, b.Excess) {
			t.Errorf("%s: results depend on the worker count", row.Name)
		}
		for h := range s.Horizons {
			if d := a.Regret.Mean[1][h] - a.Regret.Mean[0][h] - a.Excess.Mean[0][h]; math.Abs(d) > 1e-9 {
				t.Errorf("%s: excess is not the paired difference (%v)", row.Name, d)
			}
			if row.Explicit && a.Regret.Mean[0][h] > a.Bound[0][h] {
				t.Errorf("%s T=%d: non-private regret %.1f above bound %.1f", row.Name, s.Horizons[h], a.Regret.Mean[0][h], a.Bound[0][h])
			}
		}
		if md := a.Markdown(); !strings.Contains(md, "non-private") {
			t.Errorf("%s: markdown %q", row.Name, md)
		}
	}
	if _, err := (&AS17Sweep{Row: rows[0], Horizons: []int{64, 32}, Epsilons: []float64{1}, Reps: 1}).Run(); err == nil {
		t.Error("decreasing horizons accepted")
	}
	if _, err := (&AS17Sweep{Row: rows[0], Horizons: []int{64}, Epsilons: []float64{-1}, Reps: 1}).Run(); err == nil {
		t.Error("negative epsilon accepted")
	}
}

// TestLemma43 checks AS17 Lemma 4.3 by simulation for Hedge and EXP2: the
// mean of the paired difference (regret on true − regret on noisy losses)
// is zero within z5 standard errors (false-failure probability ≈ 1e-5 each,
// normal approximation over independent repetitions).
func TestLemma43(t *testing.T) {
	reps := 400
	if testing.Short() {
		reps = 150
	}
	for _, bandit := range []bool{false, true} {
		r, err := Lemma43(Lemma43Config{Bandit: bandit, Arms: 3, Horizon: 500, Lambda: 2, Reps: reps, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.Z) > testutil.Z5 || r.DiffSE == 0 {
			t.Errorf("bandit=%v: regret true %.2f, noisy %.2f, difference %.2f ± %.2f (z = %.2f)", bandit, r.TrueRegret, r.NoisyRegret, r.Diff, r.DiffSE, r.Z)
		}
	}
}
