package as17fig

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/harness"
)

func TestFitLogLog(t *testing.T) {
	x := []float64{1, 2, 4, 8, 16}
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = 3 * math.Pow(v, 0.5)
	}
	f := harness.FitLogLog(x, y)
	if math.Abs(f.Slope-0.5) > 1e-12 || math.Abs(f.Intercept-math.Log(3)) > 1e-12 || f.SlopeSE > 1e-12 || f.Points != 5 {
		t.Errorf("fit %+v, want slope 0.5, intercept log 3, SE 0", f)
	}
	y[2] = -1 // dropped
	if f := harness.FitLogLog(x, y); f.Points != 4 || math.Abs(f.Slope-0.5) > 1e-12 {
		t.Errorf("fit with a negative point %+v", f)
	}
	if f := harness.FitLogLog([]float64{1}, []float64{1}); !math.IsNaN(f.Slope) {
		t.Errorf("one-point fit %+v, want NaN", f)
	}
}

// TestAS17SweepSmoke runs every Table 1 and 2 row on tiny horizons and checks
// that the result does not depend on the number of workers, that the
// non-private regret is below the row's bound, and that the excess series
// is the paired difference.
func TestAS17SweepSmoke(t *testing.T) {
	rows := append(as17.Table1Rows(3, as17.Stochastic), as17.Table2Rows(3, as17.Stochastic)...)
	for _, row := range rows {
		s := Sweep{Row: row, Horizons: []int{64, 256}, Epsilons: []float64{math.Inf(1), 1}, Reps: 3, Seed: 7, RunOptions: harness.RunOptions{Workers: 1}}
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
	if _, err := (&Sweep{Row: rows[0], Horizons: []int{64, 32}, Epsilons: []float64{1}, Reps: 1}).Run(); err == nil {
		t.Error("decreasing horizons accepted")
	}
	if _, err := (&Sweep{Row: rows[0], Horizons: []int{64}, Epsilons: []float64{-1}, Reps: 1}).Run(); err == nil {
		t.Error("negative epsilon accepted")
	}
}
