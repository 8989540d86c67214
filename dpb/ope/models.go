package ope

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/linalg"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// LinearModel is the reward model q̂(x, a) = b̂ + ⟨θ̂, x_a⟩ with x_a arm a's
// feature vector in the event's decision set: one linear model shared by
// the arms (MT14 Algorithm 2's model), fit by ridge regression with an
// unpenalised intercept b̂ (zero when fit without one).
type LinearModel struct {
	Theta     []float64
	Intercept float64
}

// PredictTo writes b̂ + ⟨θ̂, x_a⟩ for every arm.
func (m *LinearModel) PredictTo(dst []float64, r *bandit.Round) {
	if r.Dim != len(m.Theta) {
		panic(param.BadDim)
	}
	for a := range dst[:r.K] {
		dst[a] = m.Intercept + linalg.Dot(m.Theta, r.Action(a))
	}
}

// LinearFit configures [FitLinearModelWith] and [CrossFitLinear].
type LinearFit struct {
	// Lambda is the ridge λ on θ̂ (the intercept is not penalised).
	// Defaults to 1.
	Lambda float64
	// NoIntercept fits q̂ = ⟨θ̂, x_a⟩ through the origin. The default fits
	// an intercept: without one, a model of 0/1 rewards on centred features
	// predicts ≈ 0 whatever the mean reward, and DM inherits that bias.
	NoIntercept bool
}

// FitLinearModel fits q̂ = b̂ + ⟨θ̂, x_a⟩ by ridge regression (penalty λ on θ̂,
// none on the intercept b̂) on the logged arm's features and reward of the
// events from..to−1 of the log (use events the estimate is not computed on,
// so that DR stays unbiased, or [CrossFitLinear]). It is
// [FitLinearModelWith] with LinearFit{Lambda: lambda}.
func FitLinearModel(log Log, from, to int, lambda float64) (*LinearModel, error) {
	if err := param.CheckPositive("ridge lambda", lambda); err != nil {
		return nil, err
	}
	return FitLinearModelWith(log, from, to, LinearFit{Lambda: lambda})
}

// FitLinearModelWith fits the linear reward model configured by fit on the
// events from..to−1 of the log: θ̂ (and b̂) minimise
// Σ_i (r_i − b − ⟨θ, x_{a_i}⟩)² + λ‖θ‖², the normal equations solved by
// Cholesky. The system is sized by what the log needs: its (Dim+1)² normal
// equations, or, on a wide log with fewer events m than unknowns and more
// than 2²⁰ values in those, the same ridge solved in its m×m dual form
// (fitDual); either is refused before anything is allocated when it would
// exceed [MaxModelValues].
func FitLinearModelWith(log Log, from, to int, fit LinearFit) (*LinearModel, error) {
	if from < 0 || to > log.Len() || from >= to {
		return nil, fmt.Errorf("ope: events [%d, %d) outside the log's [0, %d)", from, to, log.Len())
	}
	return fitLinear(log, fit, func(i int) bool { return i >= from && i < to }, from, to)
}

// fitLinear fits on the events i in [lo, hi) with in(i).
func fitLinear(log Log, fit LinearFit, in func(int) bool, lo, hi int) (*LinearModel, error) {
	if fit.Lambda == 0 {
		fit.Lambda = 1
	}
	if err := param.CheckPositive("ridge lambda", fit.Lambda); err != nil {
		return nil, err
	}
	d := log.Dim()
	if d < 1 {
		return nil, fmt.Errorf("ope: a linear model needs contexts (the log's dimension is %d)", d)
	}
	r, err := newRound(log)
	if err != nil {
		return nil, err
	}
	// The system's unknowns are θ and, with an intercept, b as entry d.
	n := d
	if !fit.NoIntercept {
		n = d + 1
	}
	events := 0 // (r is new: fitDual's reader starts on its zeros)
	for i := lo; i < hi; i++ {
		if in(i) {
			events++
		}
	}
	if events == 0 {
		return nil, fmt.Errorf("ope: no events to fit the reward model on")
	}
	if n*n > primalModelValues && events < n {
		// Fewer events than unknowns: the events' m×m system (fitDual)
		// is the smaller one; the n×n one of a wide log (30 arms × 1000
		// context columns: n = 30,001, 7.2 GB) is not allocated.
		return fitDual(log, r, fit, in, lo, hi, events)
	}
	if n > MaxModelValues/n {
		return nil, fmt.Errorf("ope: a linear model of the log's %d features on %d events needs a %d×%d system, more than %d values (ope.MaxModelValues); use fewer features", d, events, n, n, MaxModelValues)
	}
	g, u := make([]float64, n*n), make([]float64, n)
	for i := 0; i < d; i++ {
		g[i*n+i] = fit.Lambda
	}
	rows := 0
	rd := newReader(log)
	for i := lo; i < hi; i++ {
		if !in(i) {
			continue
		}
		arm, y, _, err := rd.event(r, i)
		if err != nil {
			return nil, err
		}
		rows++
		x := r.Action(arm)
		for p, xp := range x {
			for q, xq := range x {
				g[p*n+q] += xp * xq
			}
			u[p] += y * xp
		}
		if n > d {
			for p, xp := range x {
				g[p*n+d] += xp
				g[d*n+p] += xp
			}
			g[d*n+d]++
			u[d] += y
		}
	}
	if rows == 0 {
		return nil, fmt.Errorf("ope: no events to fit the reward model on")
	}
	if !linalg.Cholesky(g, n) {
		return nil, fmt.Errorf("ope: ridge system not positive definite")
	}
	linalg.ForwardSolve(g, n, u)
	linalg.BackSolve(g, n, u)
	m := &LinearModel{Theta: u[:d:d]}
	if n > d {
		m.Intercept = u[d]
	}
	return m, nil
}

// CrossFitModel is a reward model cross-fitted over one log: the events are
// split into Folds contiguous blocks, event i in block ⌊i·Folds/n⌋, and
// event i is predicted by the model fit on the other blocks only, so that
// no event's q̂ was fit on that event. DR is then unbiased given each fold's
// model, with the whole log used both to fit and to estimate (Chernozhukov et
// al. 2018's cross-fitting; Dudík, Langford & Li 2011 ask for a q̂ fit on
// other data). [EstimateAll] and [PropensityReplay] ask it for event i's
// prediction through PredictEventTo; PredictTo, which knows no event, uses
// fold 0's model.
type CrossFitModel struct {
	Models []*LinearModel
	n      int
}

// EventModel is a [RewardModel] whose prediction depends on which event of
// the log it is made for (a cross-fitted model): the estimators call
// PredictEventTo(dst, r, i) for event i instead of PredictTo.
type EventModel interface {
	RewardModel
	PredictEventTo(dst []float64, r *bandit.Round, i int)
}

var _ EventModel = (*CrossFitModel)(nil)

// Fold returns the block of event i.
func (m *CrossFitModel) Fold(i int) int { return int(int64(i) * int64(len(m.Models)) / int64(m.n)) }

// PredictEventTo writes event i's prediction: the model of the folds other
// than i's.
func (m *CrossFitModel) PredictEventTo(dst []float64, r *bandit.Round, i int) {
	if i < 0 || i >= m.n {
		panic(fmt.Sprintf("ope: event %d outside the cross-fitted log's [0, %d)", i, m.n))
	}
	m.Models[m.Fold(i)].PredictTo(dst, r)
}

// PredictTo uses fold 0's model (for callers that know no event index).
func (m *CrossFitModel) PredictTo(dst []float64, r *bandit.Round) { m.Models[0].PredictTo(dst, r) }

// CrossFitLinear fits the linear reward model of fit in folds ≥ 2 blocks
// of the log (see [CrossFitModel]); each block's model is fit on the other
// blocks' events.
func CrossFitLinear(log Log, folds int, fit LinearFit) (*CrossFitModel, error) {
	n := log.Len()
	if folds < 2 || folds > n {
		return nil, fmt.Errorf("ope: %d cross-fitting folds, want 2..%d (the log's events)", folds, n)
	}
	m := &CrossFitModel{Models: make([]*LinearModel, folds), n: n}
	for f := range folds {
		mf, err := fitLinear(log, fit, func(i int) bool { return m.Fold(i) != f }, 0, n)
		if err != nil {
			return nil, fmt.Errorf("ope: fold %d: %w", f, err)
		}
		m.Models[f] = mf
	}
	return m, nil
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
		return nil, fmt.Errorf("ope: events [%d, %d) outside the log's [0, %d)", from, to, log.Len())
	}
	r, err := newRound(log)
	if err != nil {
		return nil, err
	}
	k := r.K
	sum, cnt := make([]float64, k), make([]float64, k)
	rd := newReader(log)
	for i := from; i < to; i++ {
		arm, y, _, err := rd.event(r, i)
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
