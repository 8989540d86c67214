package mabfig

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/harness"
)

func TestRunPrivateMAB(t *testing.T) {
	cfg := Config{Arms: 3, Horizon: 3000, Reps: 3, Seed: 4, Epsilons: []float64{0.5, 5}, Points: 10, RunOptions: harness.RunOptions{Workers: 1}}
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 + len(Algorithms)*2; len(r.Curves.Names) != want {
		t.Fatalf("%d series, want %d", len(r.Curves.Names), want)
	}
	// One seed, one result, whatever the number of workers.
	cfg.Workers = 2
	r2, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Curves, r2.Curves) {
		t.Error("results differ between 1 and 2 workers")
	}
	p, err := r.Panel(5)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 + len(Algorithms) + len(Bounds); len(p.Names) != want || p.Names[1] != "DP-UCB" {
		t.Errorf("panel series %v", p.Names)
	}
	last := len(p.X) - 1
	if b := p.Mean[len(p.Names)-1][last]; !(b > 0) || math.Abs(b-r.Config.bounds(3000, 5)[2]) > 1e-9*b {
		t.Errorf("Azize et al. bound at T in the panel is %v", b)
	}
	if _, err := r.Panel(1); err == nil {
		t.Error("panel at an ε not run gave no error")
	}
	h := r.AtHorizon()
	if len(h.X) != 2 || h.X[1] != 5 || h.Mean[1][0] != r.Curves.Mean[r.series("DP-UCB", 0.5)][last] {
		t.Errorf("AtHorizon: x %v, DP-UCB %v", h.X, h.Mean[1])
	}
	rows := r.Table()
	if len(rows) != len(Algorithms)*2 || rows[0].VsDPUCB != 1 || len(rows[0].VsBounds) != 3 {
		t.Errorf("table %+v", rows[0])
	}
	var sb strings.Builder
	// DP-UCB's rows and ratio column name its γ, and the table states it.
	if err := r.WriteTable(&sb); err != nil || !strings.Contains(sb.String(), "| DP-IMED | 5 |") || !strings.Contains(sb.String(), "| DP-UCB (γ = 1/T) | 5 |") ||
		!strings.Contains(sb.String(), "/ DP-UCB (γ = 1/T) |") || !strings.Contains(sb.String(), "γ = 1/T = 0.000333") {
		t.Errorf("WriteTable: %v\n%s", err, sb.String())
	}
	for _, bad := range []Config{
		{Arms: 3, Horizon: 100, Reps: 1, Algorithms: []string{"EXP3"}},
		{Arms: 3, Horizon: 100, Reps: 1, Epsilons: []float64{0}},
		{Arms: 1, Horizon: 100, Reps: 1},
	} {
		if _, err := Run(bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// TestVerdicts: a short run's verdicts, one lower-bound row per algorithm and
// one comparison with DP-UCB per other algorithm, all passing.
func TestVerdicts(t *testing.T) {
	res, err := Run(Config{Arms: 5, Horizon: 20000, Reps: 4, Seed: 2, Epsilons: []float64{1, 10}, Points: 5})
	if err != nil {
		t.Fatal(err)
	}
	vs := res.Verdicts()
	if want := 2*len(Algorithms) - 1; len(vs) != want || !vs.OK() {
		t.Fatalf("%d verdicts (want %d); failed %+v", len(vs), want, vs.Failed())
	}
}

// TestOrderTest: both orders run, one row per algorithm and ε, and a z
// that is finite and small on a short run (each |z| ≤ 4.42 fails with
// probability 1e-5 for an order-blind algorithm). At T = 5000, k = 3 DP-SE
// has finished its first epoch and eliminated both bad arms in every run (its
// blocks go in arm order, so a run stopped inside an epoch favours the arms
// listed first).
func TestOrderTest(t *testing.T) {
	cfg := Config{Arms: 3, Horizon: 5000, Reps: 20, Seed: 5, Epsilons: []float64{0.3, 3}, Points: 4}
	rows, ran, err := OrderTest(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if ran.Best != 0.9 || ran.Gap != 0.5 || ran.BestLast {
		t.Errorf("configuration as run: %+v", ran)
	}
	if len(rows) != 2*len(Algorithms) {
		t.Fatalf("%d rows, want %d", len(rows), 2*len(Algorithms))
	}
	for _, r := range rows {
		if r.Algorithm == "DP-UCB" {
			continue // MT14's policy, unchanged: its ties still go to the lowest index
		}
		if math.IsNaN(r.Z) || math.Abs(r.Z) > 4.42 {
			t.Errorf("%s ε=%g: first %.1f ± %.1f, last %.1f ± %.1f, z = %.2f", r.Algorithm, r.Epsilon, r.First, r.FirstSE, r.Last, r.LastSE, r.Z)
		}
	}
	var sb strings.Builder
	if err := WriteOrderTable(&sb, ran, rows); err != nil || !strings.Contains(sb.String(), "| DP-SE (R_e+1) | 0.3 |") || !strings.Contains(sb.String(), "means 0.9 / 0.4") {
		t.Errorf("order table: %v\n%s", err, sb.String())
	}
}

// TestFinalsAt: at each ε, FinalsAt returns UCB1 and every algorithm in the
// order of Panel, each with its runs' final regrets, whose mean and s.e.
// are the panel's last point bit for bit (the ε's must differ: a finals
// taken at the other ε, or from a neighbouring series, changes them); the
// finals do not depend on the number of workers; an ε not run is an error.
func TestFinalsAt(t *testing.T) {
	cfg := Config{Arms: 3, Horizon: 2000, Reps: 3, Seed: 5, Epsilons: []float64{0.5, 5}, Points: 5, RunOptions: harness.RunOptions{Workers: 1}}
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, eps := range cfg.Epsilons {
		names, fin, err := r.FinalsAt(eps)
		if err != nil {
			t.Fatal(err)
		}
		p, err := r.Panel(eps)
		if err != nil {
			t.Fatal(err)
		}
		last := len(p.X) - 1
		if !reflect.DeepEqual(names, p.Names[:len(names)]) || len(names) != 1+len(Algorithms) {
			t.Fatalf("ε=%g: names %v, the panel's %v", eps, names, p.Names)
		}
		for i := range names {
			if m, se := harness.MeanStdErr(fin[i]); len(fin[i]) != cfg.Reps || m != p.Mean[i][last] || se != p.StdErr[i][last] {
				t.Errorf("ε=%g, %s: %d finals, %v ± %v; the panel's last point %v ± %v", eps, names[i], len(fin[i]), m, se, p.Mean[i][last], p.StdErr[i][last])
			}
		}
	}
	cfg.Workers = 2
	r2, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Finals, r2.Finals) {
		t.Error("finals differ between 1 and 2 workers")
	}
	if _, _, err := r.FinalsAt(1); err == nil {
		t.Error("FinalsAt(1), not run, gave no error")
	}
}
