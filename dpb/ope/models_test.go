package ope

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
)

// centredLog is a uniform log of K = 4 arms, Dim 3: every arm's features
// i.i.d. N(0, 1), rewards Bernoulli(0.5) whatever the arm and features.
func centredLog(n int, seed uint64) *featLog {
	rng := bandit.Stream(seed, 1)
	l := &featLog{k: 4, d: 3}
	for range n {
		for range l.k * l.d {
			l.x = append(l.x, rng.NormFloat64())
		}
		y := 0.0
		if rng.Float64() < 0.5 {
			y = 1
		}
		l.arm, l.y, l.p = append(l.arm, rng.IntN(l.k)), append(l.y, y), append(l.p, 0.25)
	}
	return l
}

// featLog is a log with a full decision set per event.
type featLog struct {
	k, d int
	arm  []int
	y, p []float64
	x    []float64 // events × K × d
}

func (l *featLog) Arms() int { return l.k }
func (l *featLog) Dim() int  { return l.d }
func (l *featLog) Len() int  { return len(l.arm) }
func (l *featLog) Event(r *bandit.Round, i int) (int, float64, float64) {
	copy(r.Actions, l.x[i*l.k*l.d:(i+1)*l.k*l.d])
	return l.arm[i], l.y[i], l.p[i]
}

// On 0/1 rewards of mean 0.5 with centred features, DM with the default
// (intercept) linear model agrees with IPS at 0.5; the model through the
// origin (the negative control, and the model before the intercept) puts
// DM near 0. n = 20000: DM's and IPS's standard errors are at most
// 0.5/√n·(1 + K) ≈ 0.018, so the tolerance 0.09 is 5 of them (false-failure
// probability < 1e-6 each, normal approximation); the origin model's DM is
// at most 0.1 (its intercept-free fit shrinks every prediction to
// ⟨θ̂, x⟩ with ‖θ̂‖ ≈ 0.5·E[x]/E[x²] = 0).
func TestDMInterceptByDefault(t *testing.T) {
	l := centredLog(20000, 1)
	target := TargetFunc(func(*bandit.Round) int { return 0 })
	for _, c := range []struct {
		fit    LinearFit
		dmNear float64
	}{{LinearFit{}, 0.5}, {LinearFit{NoIntercept: true}, 0}} {
		m, err := FitLinearModelWith(l, 0, l.Len(), c.fit)
		if err != nil {
			t.Fatal(err)
		}
		est, err := EstimateAll(l, target, m, []Estimator{IPS, DM, DR}, EstimateConfig{})
		if err != nil {
			t.Fatal(err)
		}
		ips, dm, dr := est[0].Value, est[1].Value, est[2].Value
		t.Logf("%+v: IPS %.4f, DM %.4f, DR %.4f", c.fit, ips, dm, dr)
		if math.Abs(ips-0.5) > 0.09 || math.Abs(dr-0.5) > 0.09 {
			t.Errorf("%+v: IPS %v, DR %v, want 0.5 ± 0.09", c.fit, ips, dr)
		}
		if math.Abs(dm-c.dmNear) > 0.09 {
			t.Errorf("%+v: DM %v, want %v ± 0.09 (intercept %v)", c.fit, dm, c.dmNear, m.Intercept)
		}
	}
	// FitLinearModel is the intercept fit.
	a, _ := FitLinearModel(l, 0, l.Len(), 1)
	b, _ := FitLinearModelWith(l, 0, l.Len(), LinearFit{Lambda: 1})
	if a.Intercept != b.Intercept || a.Intercept == 0 {
		t.Errorf("FitLinearModel intercept %v, FitLinearModelWith's %v", a.Intercept, b.Intercept)
	}
}

// A cross-fitted model predicts event i with the model fit on the other
// folds: fold 0's model is FitLinearModelWith on the other events, bit for
// bit, and differs from the model fit on every event (the negative
// control: a model that had seen event i would not pass).
func TestCrossFitLinear(t *testing.T) {
	l := centredLog(999, 2)
	cf, err := CrossFitLinear(l, 3, LinearFit{})
	if err != nil {
		t.Fatal(err)
	}
	if cf.Fold(0) != 0 || cf.Fold(332) != 0 || cf.Fold(333) != 1 || cf.Fold(998) != 2 {
		t.Fatalf("folds of events 0, 332, 333, 998: %d %d %d %d", cf.Fold(0), cf.Fold(332), cf.Fold(333), cf.Fold(998))
	}
	rest, err := FitLinearModelWith(l, 333, 999, LinearFit{})
	if err != nil {
		t.Fatal(err)
	}
	all, _ := FitLinearModelWith(l, 0, 999, LinearFit{})
	r, _ := newRound(l)
	got, want, full := make([]float64, 4), make([]float64, 4), make([]float64, 4)
	l.Event(r, 5)
	cf.PredictEventTo(got, r, 5)
	rest.PredictTo(want, r)
	all.PredictTo(full, r)
	for a := range got {
		if math.Float64bits(got[a]) != math.Float64bits(want[a]) {
			t.Errorf("event 5, arm %d: cross-fitted %v, fit on events 333..998 %v", a, got[a], want[a])
		}
	}
	if got[0] == full[0] {
		t.Errorf("event 5: the cross-fitted prediction equals the full fit's (%v)", full[0])
	}
	// EstimateAll uses the event's fold.
	target := TargetFunc(func(*bandit.Round) int { return 1 })
	est, err := EstimateAll(l, target, cf, []Estimator{DM}, EstimateConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var dm float64
	q := make([]float64, 4)
	for i := range l.Len() {
		l.Event(r, i)
		cf.PredictEventTo(q, r, i)
		dm += q[1]
	}
	if dm /= float64(l.Len()); math.Abs(est[0].Value-dm) > 1e-12 {
		t.Errorf("DM with the cross-fitted model %v, per-fold sum %v", est[0].Value, dm)
	}
	for _, f := range []int{0, 1, 1000} {
		if _, err := CrossFitLinear(l, f, LinearFit{}); err == nil {
			t.Errorf("%d folds: no error", f)
		}
	}
}
