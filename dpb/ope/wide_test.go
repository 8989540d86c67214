package ope

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/linalg"
)

// wideLog is a log in data.CSVLog's disjoint layout: arm a's feature vector
// is event i's context (d values) in block a and zeros elsewhere (Dim =
// K·d). Event writes all K·K·d values; Refill, the K blocks. It counts both.
type wideLog struct {
	k, d            int
	ctx             []float64 // n×d
	arm             []int
	y               []float64
	events, refills int
}

func newWideLog(k, d, n int, rng *rand.Rand) *wideLog {
	l := &wideLog{k: k, d: d, ctx: make([]float64, n*d), arm: make([]int, n), y: make([]float64, n)}
	for i := range n {
		for j := range d {
			l.ctx[i*d+j] = rng.NormFloat64()
		}
		l.arm[i] = rng.IntN(k)
		l.y[i] = float64(rng.IntN(2)) + 0.1*l.ctx[i*d]
	}
	return l
}

func (l *wideLog) Arms() int { return l.k }
func (l *wideLog) Dim() int  { return l.k * l.d }
func (l *wideLog) Len() int  { return len(l.arm) }

func (l *wideLog) Event(r *bandit.Round, i int) (int, float64, float64) {
	l.events++
	clear(r.Actions)
	return l.fill(r, i)
}

func (l *wideLog) Refill(r *bandit.Round, i, prev int) (int, float64, float64) {
	l.refills++
	return l.fill(r, i)
}

func (l *wideLog) fill(r *bandit.Round, i int) (int, float64, float64) {
	k, d := l.k, l.d
	for a := range k {
		copy(r.Actions[a*k*d+a*d:a*k*d+(a+1)*d], l.ctx[i*d:(i+1)*d])
	}
	return l.arm[i], l.y[i], 1 / float64(k)
}

// plainLog hides a log's Refill.
type plainLog struct{ Log }

type uniform struct{}

func (uniform) ProbsTo(dst []float64, r *bandit.Round) {
	for a := range dst {
		dst[a] = 1 / float64(len(dst))
	}
}

// On a log that refills its decision sets (data.CSVLog's disjoint layout),
// the estimators refill their new round for every event, never writing it
// whole, with the same estimates: IPS on a wide log (K = 1000, d = 33) used
// to write K·K·d = 33 million values an event and had not finished after
// 20 s.
func TestEstimatorsRefillWideLog(t *testing.T) {
	l := newWideLog(50, 4, 200, bandit.Stream(3, 0))
	got, err := EstimateAll(l, uniform{}, &ArmMeanModel{Means: make([]float64, 50)}, Estimators, EstimateConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if l.events != 0 || l.refills != l.Len() {
		t.Errorf("EstimateAll filled the whole decision set %d times and refilled it %d times; want 0 and %d", l.events, l.refills, l.Len())
	}
	want, err := EstimateAll(plainLog{l}, uniform{}, &ArmMeanModel{Means: make([]float64, 50)}, Estimators, EstimateConfig{})
	if err != nil {
		t.Fatal(err)
	}
	for k := range want {
		if got[k] != want[k] {
			t.Errorf("%v: refilled %v, filled %v", want[k].Estimator, got[k], want[k])
		}
	}
	l.events, l.refills = 0, 0
	if _, err := PropensityReplay(firstArm{}, l, PropensityReplayConfig{Rand: bandit.Stream(3, 1)}); err != nil {
		t.Fatal(err)
	}
	UniformValue(l, 0)
	if l.events != 0 {
		t.Errorf("PropensityReplay and UniformValue filled the whole decision set %d times, want 0 (they refill)", l.events)
	}
}

// primalFit solves the ridge normal equations of fitLinear densely (the
// reference for the dual form).
func primalFit(l *wideLog, lambda float64, intercept bool, in func(int) bool) ([]float64, float64) {
	d := l.Dim()
	n := d
	if intercept {
		n++
	}
	g, u := make([]float64, n*n), make([]float64, n)
	for i := range d {
		g[i*n+i] = lambda
	}
	x := make([]float64, n)
	for i := range l.Len() {
		if !in(i) {
			continue
		}
		clear(x)
		a := l.arm[i]
		copy(x[a*l.d:], l.ctx[i*l.d:(i+1)*l.d])
		if intercept {
			x[d] = 1
		}
		for p := range n {
			for q := range n {
				g[p*n+q] += float64(x[p] * x[q])
			}
			u[p] += float64(l.y[i] * x[p])
		}
	}
	if !linalg.Cholesky(g, n) {
		panic("not positive definite")
	}
	linalg.ForwardSolve(g, n, u)
	linalg.BackSolve(g, n, u)
	if intercept {
		return u[:d], u[d]
	}
	return u, 0
}

// A wide log with fewer events than features (Dim + 1 = 1201 unknowns, 40
// events) is fit in the dual form, with the primal solution's θ and b to
// rounding, with and without an intercept, and cross-fitted.
func TestFitLinearWideMatchesPrimal(t *testing.T) {
	l := newWideLog(11, 94, 40, bandit.Stream(4, 0))
	all := func(int) bool { return true }
	close := func(what string, got *LinearModel, theta []float64, b float64) {
		t.Helper()
		scale := math.Abs(b)
		for _, v := range theta {
			scale = math.Max(scale, math.Abs(v))
		}
		tol := 1e-9 * math.Max(scale, 1)
		if math.Abs(got.Intercept-b) > tol {
			t.Errorf("%s: intercept %v, primal %v", what, got.Intercept, b)
		}
		for k := range theta {
			if math.Abs(got.Theta[k]-theta[k]) > tol {
				t.Errorf("%s: θ[%d] = %v, primal %v", what, k, got.Theta[k], theta[k])
				break
			}
		}
	}
	for _, intercept := range []bool{true, false} {
		m, err := FitLinearModelWith(l, 0, l.Len(), LinearFit{Lambda: 0.5, NoIntercept: !intercept})
		if err != nil {
			t.Fatal(err)
		}
		theta, b := primalFit(l, 0.5, intercept, all)
		close("fit", m, theta, b)
	}
	cf, err := CrossFitLinear(l, 2, LinearFit{})
	if err != nil {
		t.Fatal(err)
	}
	for f := range 2 {
		theta, b := primalFit(l, 1, true, func(i int) bool { return cf.Fold(i) != f })
		close("fold", cf.Models[f], theta, b)
	}
}

// A wide log's model allocates what its events need, not the (Dim+1)²
// normal equations: 30 arms × 100 context columns (Dim + 1 = 3001: 72 MB)
// with 40 events needs well under 16 MB (the round, the rows, a 40×40
// system). A 187 KB log of 30 arms × 1000 columns asked for 7.2 GB.
func TestFitLinearWideAllocates(t *testing.T) {
	l := newWideLog(30, 100, 40, bandit.Stream(5, 0))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := FitLinearModel(l, 0, l.Len(), 1); err != nil {
		t.Fatal(err)
	}
	if _, err := CrossFitLinear(l, 2, LinearFit{}); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
		t.Errorf("a model and a 2-fold cross-fit of 40 events on 3000 features allocated %d MB, want < 16 MB", got>>20)
	}
}

// hugeLog has Dim = 20,000 features and 9,000 events, its features made on
// the fly: both systems exceed MaxModelValues (20,001² and 9,000² values).
type hugeLog struct{}

func (hugeLog) Arms() int { return 1 }
func (hugeLog) Dim() int  { return 20000 }
func (hugeLog) Len() int  { return 9000 }
func (hugeLog) Event(r *bandit.Round, i int) (int, float64, float64) {
	clear(r.Actions)
	r.Actions[i%20000] = 1
	return 0, 1, 1
}

// A model whose system exceeds MaxModelValues in both forms is refused
// before anything is allocated (the primal asked for 3.2 GB here).
func TestFitLinearRefusesHugeSystems(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := FitLinearModel(hugeLog{}, 0, 9000, 1)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "ope.MaxModelValues") {
		t.Errorf("err = %v, want a refusal naming ope.MaxModelValues", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("the refused fit allocated %d KB", got>>10)
	}
}
