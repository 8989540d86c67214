package ope

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// PropensityReplayConfig configures [PropensityReplay].
type PropensityReplayConfig struct {
	// PMin is the rejection sampler's threshold: an event whose logged arm
	// the policy chooses is accepted with probability min(1, PMin/p_i).
	// Defaults to the smallest logged propensity, which makes the accepted
	// events exactly the policy's own interaction (unbiased). A larger PMin
	// accepts more events; those with p_i < PMin are then accepted with
	// probability 1 < PMin/p_i, under-weighting them (biased), and are
	// counted in Clipped.
	PMin float64
	// Model is the reward model q̂ of the doubly robust value (nil: no DR value).
	Model RewardModel
	// MaxWeight clips the doubly robust correction's weights 1/p_i at this
	// value (0: no clipping, unbiased). Clipping trades bias for variance on
	// logs with tiny propensities; clipped events are counted in WeightClipped.
	MaxWeight float64
	// MaxAccepted stops after this many accepted events (0: the whole log).
	MaxAccepted int
	// Z is the normal quantile of the intervals. Defaults to 1.959964 (95%).
	Z float64
	// Rand draws the rejection decisions. Required.
	Rand *rand.Rand
}

// PropensityReplayResult is the outcome of [PropensityReplay].
type PropensityReplayResult struct {
	// Events offered, Matched (the policy chose the logged arm), Accepted
	// (kept by the rejection sampler: the policy learned from these),
	// Clipped (accepted with probability capped at 1 because p_i < PMin).
	Events   int `json:"events"`
	Matched  int `json:"matched"`
	Accepted int `json:"accepted"`
	Clipped  int `json:"clipped"`
	// PMin is the threshold used.
	PMin float64 `json:"pmin"`
	// Value is the mean reward over the accepted events, the rejection
	// sampling estimate of the policy's average reward over Accepted rounds;
	// Lo and Hi its interval (Wilson's for rewards in [0, 1], normal otherwise).
	Value float64 `json:"value"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	// DR is the doubly robust value over every event (NaN without a Model),
	// DRLo and DRHi its normal interval, DRESS the effective sample size of
	// its correction weights (Σ w)²/Σ w², w_i = 1{policy chose a_i}/p_i, and
	// WeightClipped the number of weights clipped at MaxWeight.
	DR            float64 `json:"dr"`
	DRLo          float64 `json:"dr_lo"`
	DRHi          float64 `json:"dr_hi"`
	DRESS         float64 `json:"dr_ess"`
	WeightClipped int     `json:"weight_clipped"`
}

func (r PropensityReplayResult) String() string {
	return fmt.Sprintf("value %.4f [%.4f, %.4f] on %d accepted of %d events; DR %.4f [%.4f, %.4f], ESS %.1f",
		r.Value, r.Lo, r.Hi, r.Accepted, r.Events, r.DR, r.DRLo, r.DRHi, r.DRESS)
}

// PropensityReplay evaluates a policy that learns online on a log with any
// logging propensities: the rejection-sampling replay of Dudík, Erhan,
// Langford & Li (2012, "Sample-efficient nonstationary policy evaluation for
// contextual bandits", UAI; Algorithm "Replay" with logged propensities) and
// its doubly robust variant (ibid., DR-ns, simplified as below).
//
// For each event in order, the policy sees the decision set and chooses c_i
// (Choose must be deterministic given the policy's state, as every dpb
// policy is: their randomness is drawn in Update). If c_i = a_i, the event is
// accepted with probability min(1, PMin/p_i); an accepted event updates the
// policy with the logged reward and counts towards Value. With PMin <= every
// p_i, an event is accepted with probability π_b(c_i | x)·PMin/π_b(c_i | x) =
// PMin whatever its context, so the accepted contexts are an i.i.d. sample
// of the context distribution and their rewards are those of the policy's
// choices: the accepted events are distributed exactly as the policy's own
// interaction with the environment (ibid., Theorem 1; with uniform logging
// and PMin = 1/K it is [Replay], Li et al. 2011). About PMin·Len() events are
// accepted.
//
// The doubly robust value uses every event, not only the accepted ones: with
// the policy in its current state,
//
//	V_i = q̂(x_i, c_i) + 1{c_i = a_i}/p_i · (r_i − q̂(x_i, a_i)),
//
// an unbiased estimate of the current policy's expected reward in context
// x_i whatever q̂ (if q̂ was fit on other data). DR = (1/n) Σ_i V_i. Every
// state of the policy is held for a Geometric(PMin) number of events
// independent of the contexts, so DR estimates the same average reward as
// Value, weighting the policy's states by their (random) holding times
// instead of one each; Dudík et al.'s DR-ns additionally reweights those
// holding times, which this version does not. The interval treats the V_i as
// independent (it ignores the policy's adaptation, as Replay's does).
//
// A replay that accepts no event (PMin far below the propensities), or
// whose value is not finite, returns the result with an error: it never
// returns a NaN value as an estimate.
//
// The policy reads the round and must not write to it (see [Refiller]).
//
// As in [Replay], the policy's Err is checked after every update: a policy
// that refused a logged observation and stopped learning ends the replay
// with that error (and the result so far), as does a decision set a
// [bandit.Checked] policy refuses.
func PropensityReplay(p bandit.Policy, log Log, cfg PropensityReplayConfig) (PropensityReplayResult, error) {
	var res PropensityReplayResult
	if p == nil || log == nil {
		return res, fmt.Errorf("ope: propensity replay needs a policy and a log")
	}
	if cfg.Rand == nil {
		panic(param.NilRand)
	}
	if cfg.MaxAccepted < 0 {
		return res, fmt.Errorf("ope: max accepted is %d, must be >= 0", cfg.MaxAccepted)
	}
	if err := param.CheckNonNegative("max weight", cfg.MaxWeight); err != nil {
		return res, err
	}
	if cfg.Z == 0 {
		cfg.Z = 1.959963984540054
	}
	if err := param.CheckPositive("z", cfg.Z); err != nil {
		return res, err
	}
	k, n := log.Arms(), log.Len()
	if k < 1 || n < 1 {
		return res, fmt.Errorf("ope: propensity replay: log has %d arms and %d events", k, n)
	}
	r, err := newRound(log)
	if err != nil {
		return res, err
	}
	rd := newReader(log)
	pmin := cfg.PMin
	if pmin == 0 {
		pmin = 1
		for i := 0; i < n; i++ {
			_, _, pr, err := rd.event(r, i)
			if err != nil {
				return res, err
			}
			pmin = math.Min(pmin, pr)
		}
	}
	if !(pmin > 0 && pmin <= 1) {
		return res, fmt.Errorf("ope: propensity replay: PMin is %v, want (0, 1]", pmin)
	}
	res.PMin = pmin
	var q []float64
	if cfg.Model != nil {
		q = make([]float64, k)
	}
	var sum, sum2, drSum, drSum2, wSum, wSum2 float64
	unit := true
	for i := 0; i < n; i++ {
		if cfg.MaxAccepted > 0 && res.Accepted >= cfg.MaxAccepted {
			break
		}
		arm, reward, pr, err := rd.event(r, i)
		if err != nil {
			return res, err
		}
		res.Events++
		r.T = res.Accepted + 1
		c, err := choose(p, r)
		if err != nil {
			res.Events--
			res.finish(cfg, sum, sum2, drSum, drSum2, wSum, wSum2, unit)
			return res, fmt.Errorf("ope: propensity replay event %d: %w", i, err)
		}
		if cfg.Model != nil {
			predict(cfg.Model, q, r, i)
			v := q[c]
			if c == arm {
				w := 1 / pr
				if cfg.MaxWeight > 0 && w > cfg.MaxWeight {
					w = cfg.MaxWeight
					res.WeightClipped++
				}
				v += float64(w * (reward - q[arm]))
				wSum += w
				wSum2 += float64(w * w)
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return res, fmt.Errorf("ope: propensity replay event %d: doubly robust term %v (reward model non-finite?)", i, v)
			}
			drSum += v
			drSum2 += float64(v * v)
		}
		if c != arm {
			continue
		}
		res.Matched++
		if pr < pmin {
			res.Clipped++
		} else if acc := pmin / pr; acc < 1 && !(cfg.Rand.Float64() < acc) {
			continue
		}
		res.Accepted++
		sum += reward
		sum2 += float64(reward * reward)
		unit = unit && reward >= 0 && reward <= 1
		p.Update(r, arm, reward)
		if err := policyErr(p); err != nil {
			res.finish(cfg, sum, sum2, drSum, drSum2, wSum, wSum2, unit)
			return res, fmt.Errorf("ope: propensity replay event %d: the policy stopped learning: %w", i, err)
		}
	}
	res.finish(cfg, sum, sum2, drSum, drSum2, wSum, wSum2, unit)
	if res.Accepted == 0 {
		// About PMin·Len() events are accepted: none leaves Value NaN.
		return res, fmt.Errorf("ope: propensity replay: no event of %d accepted (%d matched the policy's choice, PMin = %g): the value is undefined; raise PMin (about PMin × %d events are accepted)", res.Events, res.Matched, pmin, n)
	}
	for _, v := range []float64{res.Value, res.Lo, res.Hi} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return res, fmt.Errorf("ope: propensity replay: the value is %v [%v, %v] on %d accepted events: the rewards overflow; rescale them", res.Value, res.Lo, res.Hi, res.Accepted)
		}
	}
	return res, nil
}

// finish computes the values and intervals from the running sums.
func (res *PropensityReplayResult) finish(cfg PropensityReplayConfig, sum, sum2, drSum, drSum2, wSum, wSum2 float64, unit bool) {
	if unit {
		res.Value, res.Lo, res.Hi = wilsonOf(sum, res.Accepted, cfg.Z)
	} else {
		res.Value, res.Lo, res.Hi = normalOf(sum, sum2, res.Accepted, cfg.Z)
	}
	res.DR, res.DRLo, res.DRHi = math.NaN(), math.NaN(), math.NaN()
	if cfg.Model != nil {
		res.DR, res.DRLo, res.DRHi = normalOf(drSum, drSum2, res.Events, cfg.Z)
		if wSum2 > 0 {
			res.DRESS = wSum * wSum / wSum2
		}
	}
}

// normalOf returns the mean of n values with sum s and sum of squares s2 and
// its normal interval (sample variance; NaN for n = 0).
func normalOf(s, s2 float64, n int, z float64) (m, lo, hi float64) {
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	fn := float64(n)
	m = s / fn
	v := math.Max(0, s2-fn*m*m) / math.Max(1, fn-1)
	h := float64(z * math.Sqrt(v/fn))
	return m, m - h, m + h
}
