package ope

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
)

// rowLog is a log given row by row: each event's arm, reward, propensity
// and one context value (feature 0 of every arm; the rest zero).
type rowLog struct {
	k, d int
	arm  []int
	y, p []float64
	x    []float64
}

func (l *rowLog) Arms() int { return l.k }
func (l *rowLog) Dim() int  { return l.d }
func (l *rowLog) Len() int  { return len(l.arm) }
func (l *rowLog) Event(r *bandit.Round, i int) (int, float64, float64) {
	clear(r.Actions)
	if l.d > 0 {
		for a := 0; a < l.k; a++ {
			r.Actions[a*l.d] = l.x[i]
		}
	}
	return l.arm[i], l.y[i], l.p[i]
}

// uniformTarget gives every arm 1/K.
type uniformTarget struct{}

func (uniformTarget) ProbsTo(dst []float64, r *bandit.Round) {
	for a := range dst {
		dst[a] = 1 / float64(len(dst))
	}
}

// firstArm always chooses arm 0 (a policy for Replay).
type firstArm struct{}

func (firstArm) Choose(*bandit.Round) int           { return 0 }
func (firstArm) Update(*bandit.Round, int, float64) {}

// A log whose K·Dim is huge (or overflows) is refused before any round is
// allocated (issue 40, item 5).
func TestLogShapeBounded(t *testing.T) {
	for _, sh := range [][2]int{{100001, 100001}, {math.MaxInt, 2}, {2, math.MaxInt}, {1 << 14, 1 << 13}} {
		l := &rowLog{k: sh[0], d: sh[1], arm: []int{0}, y: []float64{1}, p: []float64{0.5}, x: []float64{1}}
		_, err := EstimateAll(l, uniformTarget{}, nil, []Estimator{IPS}, EstimateConfig{})
		if err == nil || !strings.Contains(err.Error(), "MaxRoundValues") {
			t.Errorf("K %d, Dim %d: EstimateAll err = %v", sh[0], sh[1], err)
		}
		if _, err := Replay(firstArm{}, l, ReplayConfig{}); err == nil || !strings.Contains(err.Error(), "MaxRoundValues") {
			t.Errorf("K %d, Dim %d: Replay err = %v", sh[0], sh[1], err)
		}
		if _, err := PropensityReplay(firstArm{}, l, PropensityReplayConfig{Rand: rand.New(rand.NewPCG(1, 2))}); err == nil || !strings.Contains(err.Error(), "MaxRoundValues") {
			t.Errorf("K %d, Dim %d: PropensityReplay err = %v", sh[0], sh[1], err)
		}
		if _, err := FitArmMeans(l, 0, 1, 0); err == nil {
			t.Errorf("K %d, Dim %d: FitArmMeans: no error", sh[0], sh[1])
		}
		if _, err := FitLinearModel(l, 0, 1, 1); err == nil {
			t.Errorf("K %d, Dim %d: FitLinearModel: no error", sh[0], sh[1])
		}
	}
}

// Extreme but valid propensities and rewards give an error, not a NaN or
// ±Inf estimate (issue 40, Low).
func TestEstimatesFiniteOrError(t *testing.T) {
	for _, l := range []*rowLog{
		{k: 2, arm: []int{0, 1}, y: []float64{1, 0}, p: []float64{5e-324, 0.5}},
		{k: 2, arm: []int{0, 1}, y: []float64{1e308, 1e308}, p: []float64{0.5, 0.5}},
		{k: 2, arm: []int{0, 1}, y: []float64{1e308, -1e308}, p: []float64{0.25, 0.5}},
	} {
		est, err := EstimateAll(l, uniformTarget{}, nil, []Estimator{IPS, SNIPS}, EstimateConfig{})
		if err == nil {
			t.Errorf("%+v: estimates %v, want an error", l, est)
		}
	}
	// SNIPS with no target weight stays NaN (documented), without error.
	l := &rowLog{k: 2, arm: []int{1}, y: []float64{1}, p: []float64{0.5}}
	est, err := EstimateAll(l, TargetFunc(func(*bandit.Round) int { return 0 }), nil, []Estimator{SNIPS}, EstimateConfig{})
	if err != nil || !math.IsNaN(est[0].Value) {
		t.Errorf("SNIPS without weight: %v, %v", est, err)
	}
}

// FuzzOPE: the estimators, the replays and the reward models on an
// arbitrary log (shape and events from the input) give a result or an
// error, never a panic or an oversized allocation; estimates are finite
// (SNIPS may be NaN).
func FuzzOPE(f *testing.F) {
	f.Add(2, 1, []byte{0, 1, 128, 1, 0, 64}, 1e308, 5e-324)
	f.Add(100001, 3, []byte{0, 0, 0}, 1.0, 0.5)
	f.Add(3, 0, []byte{2, 1, 255, 0, 0, 1}, -1.0, 1.0)
	f.Fuzz(func(t *testing.T, k, d int, ev []byte, yScale, pMin float64) {
		l := &rowLog{k: k, d: d}
		for i := 0; i+2 < len(ev) && i < 300; i += 3 {
			a := int(ev[i])
			if k > 0 {
				a %= k + 1 // now and then out of range
			}
			l.arm = append(l.arm, a)
			l.y = append(l.y, float64(ev[i+1])/255*yScale)
			l.p = append(l.p, math.Max(pMin, float64(ev[i+2])/255))
			l.x = append(l.x, float64(ev[i+1]%7))
		}
		est, err := EstimateAll(l, uniformTarget{}, nil, []Estimator{IPS, SNIPS}, EstimateConfig{})
		if err == nil {
			for _, e := range est {
				if math.IsInf(e.Value, 0) || math.IsNaN(e.Value) && e.Estimator != SNIPS {
					t.Fatalf("%v", e)
				}
			}
		}
		n := l.Len()
		if n > 0 {
			if m, err := FitArmMeans(l, 0, n, 0.5); err == nil {
				EstimateAll(l, uniformTarget{}, m, []Estimator{DM, DR}, EstimateConfig{Interval: Bootstrap, Resamples: 10, Rand: rand.New(rand.NewPCG(1, 2))})
			}
			if d > 0 && d <= 64 {
				FitLinearModel(l, 0, n, 1)
			}
		}
		Replay(firstArm{}, l, ReplayConfig{})
		PropensityReplay(firstArm{}, l, PropensityReplayConfig{Rand: rand.New(rand.NewPCG(3, 4))})
	})
}
