package ope

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/linalg"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// LinearModel is the reward model q̂(x, a) = ⟨θ̂, x_a⟩ with x_a arm a's
// feature vector in the event's decision set: one linear model shared by
// the arms (MT14 Algorithm 2's model), fit by ridge regression.
type LinearModel struct {
	Theta []float64
}

// PredictTo writes ⟨θ̂, x_a⟩ for every arm.
func (m *LinearModel) PredictTo(dst []float64, r *bandit.Round) {
	if r.Dim != len(m.Theta) {
		panic(param.BadDim)
	}
	for a := range dst[:r.K] {
		dst[a] = linalg.Dot(m.Theta, r.Action(a))
	}
}

// FitLinearModel fits θ̂ = (Σ x x ᵀ + λI)⁻¹ Σ r x by ridge regression on the
// logged arm's features and reward of the events from..to−1 of the log (use
// events the estimate is not computed on, so that DR stays unbiased).
func FitLinearModel(log Log, from, to int, lambda float64) (*LinearModel, error) {
	if err := param.CheckPositive("ridge lambda", lambda); err != nil {
		return nil, err
	}
	d := log.Dim()
	if d < 1 {
		return nil, fmt.Errorf("dpb: ope: a linear model needs contexts (the log's dimension is %d)", d)
	}
	if from < 0 || to > log.Len() || from >= to {
		return nil, fmt.Errorf("dpb: ope: events [%d, %d) outside the log's [0, %d)", from, to, log.Len())
	}
	r, err := newRound(log)
	if err != nil {
		return nil, err
	}
	g, u := make([]float64, d*d), make([]float64, d)
	for i := 0; i < d; i++ {
		g[i*d+i] = lambda
	}
	for i := from; i < to; i++ {
		arm, y, _, err := event(log, r, i)
		if err != nil {
			return nil, err
		}
		x := r.Action(arm)
		for p, xp := range x {
			for q, xq := range x {
				g[p*d+q] += xp * xq
			}
			u[p] += y * xp
		}
	}
	if !linalg.Cholesky(g, d) {
		return nil, fmt.Errorf("dpb: ope: ridge system not positive definite")
	}
	linalg.ForwardSolve(g, d, u)
	linalg.BackSolve(g, d, u)
	return &LinearModel{Theta: u}, nil
}

// ArmMeanModel is the reward model q̂(x, a) = the mean logged reward of arm a
// (contexts ignored): the model for K-armed logs.
type ArmMeanModel struct {
	Means []float64
}

// PredictTo writes each arm's mean.
func (m *ArmMeanModel) PredictTo(dst []float64, r *bandit.Round) {
	if r.K != len(m.Means) {
		panic(param.BadArm)
	}
	copy(dst, m.Means)
}

// FitArmMeans returns every arm's mean logged reward over events
// from..to−1, with prior mean prior counted as one observation (so that an
// arm never logged gets prior).
func FitArmMeans(log Log, from, to int, prior float64) (*ArmMeanModel, error) {
	if from < 0 || to > log.Len() || from >= to {
		return nil, fmt.Errorf("dpb: ope: events [%d, %d) outside the log's [0, %d)", from, to, log.Len())
	}
	r, err := newRound(log)
	if err != nil {
		return nil, err
	}
	k := r.K
	sum, cnt := make([]float64, k), make([]float64, k)
	for i := from; i < to; i++ {
		arm, y, _, err := event(log, r, i)
		if err != nil {
			return nil, err
		}
		sum[arm] += y
		cnt[arm]++
	}
	m := &ArmMeanModel{Means: make([]float64, k)}
	for a := range m.Means {
		m.Means[a] = (sum[a] + prior) / (cnt[a] + 1)
	}
	return m, nil
}
