package ope

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// Target is a fixed (non-learning) target policy: a distribution over the
// arms of each decision set.
type Target interface {
	// ProbsTo writes π_e(a | x) for a = 0..r.K−1 into dst (len r.K); the
	// entries are >= 0 and sum to 1. It reads r and must not write to it
	// (see [Refiller]).
	ProbsTo(dst []float64, r *bandit.Round)
}

// TargetFunc adapts a deterministic choice rule to a [Target].
type TargetFunc func(r *bandit.Round) int

// ProbsTo puts probability 1 on the arm f chooses.
func (f TargetFunc) ProbsTo(dst []float64, r *bandit.Round) {
	clear(dst)
	dst[f(r)] = 1
}

// RewardModel is an estimate q̂(x, a) of the mean reward, used by DM and DR
// ([FitLinearModel], with an intercept; [CrossFitLinear], cross-fitted;
// [FitArmMeans] for K-armed logs).
type RewardModel interface {
	// PredictTo writes q̂(x, a) for a = 0..r.K−1 into dst (len r.K).
	PredictTo(dst []float64, r *bandit.Round)
}

// Estimator names an estimator.
type Estimator int

const (
	IPS Estimator = iota
	SNIPS
	DM
	DR
)

// Estimators lists every fixed-policy estimator.
var Estimators = []Estimator{IPS, SNIPS, DM, DR}

func (e Estimator) String() string {
	switch e {
	case IPS:
		return "IPS"
	case SNIPS:
		return "SNIPS"
	case DM:
		return "DM"
	case DR:
		return "DR"
	}
	return fmt.Sprintf("Estimator(%d)", int(e))
}

// MarshalText implements encoding.TextMarshaler (for JSON).
func (e Estimator) MarshalText() ([]byte, error) { return []byte(e.String()), nil }

// Interval selects how confidence intervals are computed.
type Interval int

const (
	// Asymptotic is the normal interval V̂ ± z·SE, SE the sample standard
	// deviation of the per-event terms over √n (delta method for SNIPS).
	Asymptotic Interval = iota
	// Bootstrap is the percentile interval of the estimator recomputed on
	// Resamples resamples of the events with replacement.
	Bootstrap
)

// EstimateConfig configures [Estimate].
type EstimateConfig struct {
	// Z is the normal quantile of the interval (Asymptotic) or sets its level
	// 1 − 2(1 − Φ(z)) (Bootstrap). Defaults to 1.959964 (95%).
	Z float64
	// Interval selects the interval. Defaults to Asymptotic.
	Interval Interval
	// Resamples is the number of bootstrap resamples. Defaults to 1000.
	Resamples int
	// Rand draws the bootstrap resamples. Required for Bootstrap.
	Rand *rand.Rand
}

// Estimate is one estimator's value on a log.
type Estimate struct {
	Estimator Estimator `json:"estimator"`
	// Value is V̂; Lo and Hi bound its confidence interval; SE is its
	// asymptotic standard error.
	Value float64 `json:"value"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	SE    float64 `json:"se"`
	// Events is n, the number of log events used.
	Events int `json:"events"`
	// ESS is the effective sample size of the importance weights,
	// (Σ w_i)² / Σ w_i² (Kish 1965): n when every w_i is equal, small when a
	// few events carry the weight. DM uses no weights: ESS = n.
	ESS float64 `json:"ess"`
	// MaxWeight is max_i w_i (0 for DM).
	MaxWeight float64 `json:"max_weight"`
}

func (e Estimate) String() string {
	return fmt.Sprintf("%v %.4f [%.4f, %.4f] (n = %d, ESS = %.1f)", e.Estimator, e.Value, e.Lo, e.Hi, e.Events, e.ESS)
}

// terms holds the per-event quantities every estimator is built from.
type terms struct {
	w, r, qa, dm []float64 // weight, reward, q̂(x_i, a_i), Σ_a π_e(a|x_i) q̂(x_i, a)
}

// collect reads the log once, validating every event.
func collect(log Log, target Target, model RewardModel) (terms, error) {
	if log == nil || target == nil {
		return terms{}, fmt.Errorf("ope: nil log or target")
	}
	k, n := log.Arms(), log.Len()
	if k < 1 || n < 1 {
		return terms{}, fmt.Errorf("ope: log has %d arms and %d events, need >= 1 of each", k, n)
	}
	r, err := newRound(log)
	if err != nil {
		return terms{}, err
	}
	pi, q := make([]float64, k), make([]float64, k)
	tm := terms{w: make([]float64, n), r: make([]float64, n)}
	if model != nil {
		tm.qa, tm.dm = make([]float64, n), make([]float64, n)
	}
	rd := newReader(log)
	for i := 0; i < n; i++ {
		r.T = i + 1
		arm, reward, p, err := rd.event(r, i)
		if err != nil {
			return tm, err
		}
		target.ProbsTo(pi, r)
		var sum float64
		for a, v := range pi {
			if !(v >= 0 && v <= 1) {
				return tm, fmt.Errorf("ope: event %d: target probability of arm %d is %v, want [0, 1]", i, a, v)
			}
			sum += v
		}
		if math.Abs(sum-1) > 1e-9 {
			return tm, fmt.Errorf("ope: event %d: target probabilities sum to %v, want 1", i, sum)
		}
		tm.w[i], tm.r[i] = pi[arm]/p, reward
		if math.IsInf(tm.w[i], 0) {
			return tm, fmt.Errorf("ope: event %d: importance weight π(a|x)/p = %v/%v overflows", i, pi[arm], p)
		}
		if model != nil {
			predict(model, q, r, i)
			var dm float64
			for a, v := range q {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return tm, fmt.Errorf("ope: event %d: reward model predicts %v for arm %d, want a finite number", i, v, a)
				}
				dm += float64(pi[a] * v)
			}
			tm.qa[i], tm.dm[i] = q[arm], dm
		}
	}
	return tm, nil
}

// predict writes the model's prediction for event i of the log: through
// PredictEventTo for an [EventModel] (a cross-fitted one), else PredictTo.
func predict(m RewardModel, dst []float64, r *bandit.Round, i int) {
	if em, ok := m.(EventModel); ok {
		em.PredictEventTo(dst, r, i)
		return
	}
	m.PredictTo(dst, r)
}

// value computes estimator e on the events idx (nil: all) and, for the
// asymptotic interval, its standard error.
func (tm terms) value(e Estimator, idx []int) (v, se float64) {
	n := len(tm.w)
	if idx != nil {
		n = len(idx)
	}
	at := func(j int) int {
		if idx == nil {
			return j
		}
		return idx[j]
	}
	term := func(i int) float64 {
		switch e {
		case IPS, SNIPS:
			return tm.w[i] * tm.r[i]
		case DM:
			return tm.dm[i]
		default:
			return tm.dm[i] + float64(tm.w[i]*(tm.r[i]-tm.qa[i]))
		}
	}
	var s, sw float64
	for j := 0; j < n; j++ {
		i := at(j)
		s += term(i)
		sw += tm.w[i]
	}
	fn := float64(n)
	if e == SNIPS {
		if sw == 0 {
			return math.NaN(), math.NaN()
		}
		v = s / sw
		// Delta method: V̂ − V ≈ (1/n) Σ w_i (r_i − V) / mean(w).
		var ss float64
		for j := 0; j < n; j++ {
			i := at(j)
			u := tm.w[i] * (tm.r[i] - v)
			ss += float64(u * u)
		}
		return v, math.Sqrt(ss/math.Max(1, fn-1)) / (sw / fn) / math.Sqrt(fn)
	}
	v = s / fn
	var ss float64
	for j := 0; j < n; j++ {
		u := term(at(j)) - v
		ss += float64(u * u)
	}
	return v, math.Sqrt(ss/math.Max(1, fn-1)) / math.Sqrt(fn)
}

func (tm terms) ess() (ess, maxW float64) {
	var s, s2 float64
	for _, w := range tm.w {
		s += w
		s2 += float64(w * w)
		maxW = math.Max(maxW, w)
	}
	if s2 == 0 {
		return 0, 0
	}
	return s * s / s2, maxW
}

// EstimateAll returns the estimates of every estimator in es on the log for
// the target policy. model is needed by DM and DR (nil otherwise).
func EstimateAll(log Log, target Target, model RewardModel, es []Estimator, cfg EstimateConfig) ([]Estimate, error) {
	if cfg.Z == 0 {
		cfg.Z = 1.959963984540054
	}
	if err := param.CheckPositive("z", cfg.Z); err != nil {
		return nil, err
	}
	switch cfg.Interval {
	case Asymptotic:
	case Bootstrap:
		if cfg.Resamples == 0 {
			cfg.Resamples = 1000
		}
		if cfg.Resamples < 10 {
			return nil, fmt.Errorf("ope: %d bootstrap resamples, want >= 10", cfg.Resamples)
		}
		if cfg.Rand == nil {
			return nil, fmt.Errorf("ope: the bootstrap interval needs EstimateConfig.Rand")
		}
	default:
		return nil, fmt.Errorf("ope: unknown interval %d", int(cfg.Interval))
	}
	for _, e := range es {
		if e < IPS || e > DR {
			return nil, fmt.Errorf("ope: unknown estimator %d", int(e))
		}
		if (e == DM || e == DR) && model == nil {
			return nil, fmt.Errorf("ope: %v needs a reward model", e)
		}
	}
	tm, err := collect(log, target, model)
	if err != nil {
		return nil, err
	}
	n := len(tm.w)
	ess, maxW := tm.ess()
	out := make([]Estimate, len(es))
	var boot [][]float64
	if cfg.Interval == Bootstrap {
		// One set of resamples serves every estimator (paired intervals).
		boot = make([][]float64, len(es))
		idx := make([]int, n)
		for range cfg.Resamples {
			for j := range idx {
				idx[j] = cfg.Rand.IntN(n)
			}
			for k, e := range es {
				v, _ := tm.value(e, idx)
				boot[k] = append(boot[k], v)
			}
		}
	}
	for k, e := range es {
		v, se := tm.value(e, nil)
		est := Estimate{Estimator: e, Value: v, SE: se, Events: n, ESS: ess, MaxWeight: maxW,
			Lo: v - float64(cfg.Z*se), Hi: v + float64(cfg.Z*se)}
		if e == DM {
			est.ESS, est.MaxWeight = float64(n), 0
		}
		if boot != nil {
			est.Lo, est.Hi = percentileInterval(boot[k], cfg.Z)
		}
		// SNIPS is NaN (documented) when no logged arm has target weight;
		// any other non-finite result is an overflow of the weighted rewards.
		if !(e == SNIPS && math.IsNaN(v)) {
			for _, x := range []float64{est.Value, est.SE, est.Lo, est.Hi, est.ESS} {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					return nil, fmt.Errorf("ope: %v is %v ± %v (interval [%v, %v], ESS %v): the weighted rewards overflow (weights up to %g); rescale the rewards", e, est.Value, est.SE, est.Lo, est.Hi, est.ESS, maxW)
				}
			}
		}
		out[k] = est
	}
	return out, nil
}

// percentileInterval returns the (1−c)/2 and (1+c)/2 quantiles of xs, c the
// coverage of ±z (NaN resamples, e.g. SNIPS with no weight, are dropped).
func percentileInterval(xs []float64, z float64) (lo, hi float64) {
	xs = slices.DeleteFunc(slices.Clone(xs), math.IsNaN)
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	slices.Sort(xs)
	tail := 0.5 * math.Erfc(z/math.Sqrt2)
	q := func(p float64) float64 {
		h := p * float64(len(xs)-1)
		i := int(h)
		if i+1 >= len(xs) {
			return xs[len(xs)-1]
		}
		return xs[i] + float64((h-float64(i))*(xs[i+1]-xs[i]))
	}
	return q(tail), q(1 - tail)
}

// jsonFloat is a Float64 that encodes NaN and ±Inf as null (encoding/json
// refuses them): an estimate with nothing to rest on is NaN.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(f))
}

// MarshalJSON writes NaN and infinite fields as null.
func (e Estimate) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Estimator Estimator `json:"estimator"`
		Value     jsonFloat `json:"value"`
		Lo        jsonFloat `json:"lo"`
		Hi        jsonFloat `json:"hi"`
		SE        jsonFloat `json:"se"`
		Events    int       `json:"events"`
		ESS       jsonFloat `json:"ess"`
		MaxWeight jsonFloat `json:"max_weight"`
	}{e.Estimator, jsonFloat(e.Value), jsonFloat(e.Lo), jsonFloat(e.Hi), jsonFloat(e.SE), e.Events, jsonFloat(e.ESS), jsonFloat(e.MaxWeight)})
}

// MarshalJSON writes NaN and infinite fields as null.
func (r PropensityReplayResult) MarshalJSON() ([]byte, error) {
	type plain PropensityReplayResult
	return json.Marshal(struct {
		plain
		Value jsonFloat `json:"value"`
		Lo    jsonFloat `json:"lo"`
		Hi    jsonFloat `json:"hi"`
		DR    jsonFloat `json:"dr"`
		DRLo  jsonFloat `json:"dr_lo"`
		DRHi  jsonFloat `json:"dr_hi"`
	}{plain(r), jsonFloat(r.Value), jsonFloat(r.Lo), jsonFloat(r.Hi), jsonFloat(r.DR), jsonFloat(r.DRLo), jsonFloat(r.DRHi)})
}
