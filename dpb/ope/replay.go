package ope

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// Log is a logged bandit data set: events i = 0..Len()−1, each a decision
// set of Arms() actions with Dim() features, the arm the logging policy
// chose, the reward it saw and the probability with which it chose that arm.
type Log interface {
	Arms() int
	Dim() int
	Len() int
	// Event fills r.Actions (len Arms()·Dim()) with event i's decision set and
	// returns the logged arm, its reward and its logging probability.
	Event(r *bandit.Round, i int) (arm int, reward, prob float64)
}

// ReplayConfig configures [Replay].
type ReplayConfig struct {
	// MaxMatched stops the replay after this many matched events. Defaults to
	// 0: the whole log.
	MaxMatched int
	// Z is the normal quantile of the confidence interval. Defaults to
	// 1.959964 (95%).
	Z float64
}

// ReplayResult is the outcome of a replay.
type ReplayResult struct {
	// Events is the number of log rows offered to the policy.
	Events int `json:"events"`
	// Matched is the number of rows where the policy chose the logged arm:
	// the only rows it learns from and is scored on.
	Matched int `json:"matched"`
	// Reward is the total reward of the matched rows.
	Reward float64 `json:"reward"`
	// CTR is Reward/Matched (NaN when nothing matched).
	CTR float64 `json:"ctr"`
	// Lo and Hi bound the Wilson score interval for the CTR (see [Wilson]).
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

func (r ReplayResult) String() string {
	return fmt.Sprintf("CTR %.4f [%.4f, %.4f] on %d matched of %d events", r.CTR, r.Lo, r.Hi, r.Matched, r.Events)
}

// Replay evaluates a policy offline on a log collected by a uniformly random
// logging policy: the replay method of Li, Chu, Langford & Wang (2011,
// Algorithm 1 "Policy_Evaluator"), used by MT14 Section 5.2. For each event in
// order, the policy sees the decision set and chooses; if its choice equals
// the logged arm, the event is kept, the policy is updated with the logged
// reward, and the reward counts towards the CTR; otherwise the event is
// skipped and the policy learns nothing. The policy's round counter r.T is 1
// + the number of matched events so far (its own history length).
//
// With uniform logging (every logged probability 1/K) and i.i.d. events, the
// matched events are distributed exactly as the policy's interaction with the
// real environment (Li et al. 2011, Theorem 1), so the CTR is an unbiased
// estimate of the policy's average reward over Matched rounds; on average
// Len()/K events match. Replay returns an error for any event whose logging
// probability is not 1/K (relative error > 1e-6), since the estimator is then
// biased.
//
// The policy reads the round and must not write to it (see [Refiller]).
//
// The policy is checked after every update: when it has an Err method
// ([bandit.Checked] policies do) and it returns an error — the policy refused
// a logged observation and stopped learning — Replay stops there and returns
// that error with the result so far. A decision set a Checked policy
// refuses (ChooseErr) is an error too.
//
// The interval is Wilson's score interval on the matched rewards, treating
// them as independent draws with values in [0, 1] (Bernoulli variance is the
// largest a [0, 1] variable of that mean can have, so it is conservative for
// non-binary rewards). It ignores the dependence an adaptive policy creates
// between rounds: it describes the sampling noise of one replay; the spread
// over independent repetitions is reported by the experiments.
func Replay(p bandit.Policy, log Log, cfg ReplayConfig) (ReplayResult, error) {
	if p == nil || log == nil {
		return ReplayResult{}, fmt.Errorf("ope: replay needs a policy and a log")
	}
	if cfg.MaxMatched < 0 {
		return ReplayResult{}, fmt.Errorf("ope: max matched is %d, must be >= 0", cfg.MaxMatched)
	}
	if cfg.Z == 0 {
		cfg.Z = 1.959963984540054
	}
	if err := param.CheckPositive("z", cfg.Z); err != nil {
		return ReplayResult{}, err
	}
	r, err := newRound(log)
	if err != nil {
		return ReplayResult{}, err
	}
	k := r.K
	var res ReplayResult
	n := log.Len()
	rd := newReader(log)
	for i := 0; i < n; i++ {
		if cfg.MaxMatched > 0 && res.Matched >= cfg.MaxMatched {
			break
		}
		arm, reward, prob := rd.fill(r, i)
		if arm < 0 || arm >= k {
			return res, fmt.Errorf("ope: replay event %d: logged arm %d outside [0, %d)", i, arm, k)
		}
		if math.Abs(prob*float64(k)-1) > 1e-6 {
			return res, fmt.Errorf("ope: replay event %d: logging probability %v, want 1/%d: replay is unbiased only for uniformly random logging (PropensityReplay and EstimateAll weight by any propensities)", i, prob, k)
		}
		if err := param.CheckFinite("reward", reward); err != nil {
			return res, fmt.Errorf("ope: replay event %d: %w", i, err)
		}
		res.Events++
		r.T = res.Matched + 1
		c, err := choose(p, r)
		if err != nil {
			res.CTR, res.Lo, res.Hi = wilsonOf(res.Reward, res.Matched, cfg.Z)
			return res, fmt.Errorf("ope: replay event %d: %w", i, err)
		}
		if c != arm {
			continue
		}
		res.Matched++
		res.Reward += reward
		p.Update(r, arm, reward)
		if err := policyErr(p); err != nil {
			res.CTR, res.Lo, res.Hi = wilsonOf(res.Reward, res.Matched, cfg.Z)
			return res, fmt.Errorf("ope: replay event %d: the policy stopped learning: %w", i, err)
		}
	}
	res.CTR, res.Lo, res.Hi = wilsonOf(res.Reward, res.Matched, cfg.Z)
	return res, nil
}

// choose plays p on r, through ChooseErr when p is a [bandit.Checked]
// policy, so that a decision set it refuses (a NaN or infinite feature) is
// an error of the replay rather than a panic.
func choose(p bandit.Policy, r *bandit.Round) (int, error) {
	if c, ok := p.(bandit.Checked); ok {
		return c.ChooseErr(r)
	}
	return p.Choose(r), nil
}

// policyErr returns the policy's sticky error (its Err method, when it has
// one): a policy that refused an observation has stopped learning, and a
// replay that went on would score a frozen policy as a learning one.
func policyErr(p bandit.Policy) error {
	if e, ok := p.(interface{ Err() error }); ok {
		return e.Err()
	}
	return nil
}

// UniformValue returns the value of the uniformly random policy on the log:
// the mean logged reward over all events, which for a uniform logger is the
// on-policy estimate of that policy's CTR (every event counts, so it is more
// precise than replaying a random policy, which would keep about 1/K of them).
// MT14's Fig. 2 normalises CTRs by it. The interval is Wilson's at normal
// quantile z (0 means 1.959964, 95%).
func UniformValue(log Log, z float64) ReplayResult {
	if z == 0 {
		z = 1.959963984540054
	}
	k, d := log.Arms(), log.Dim()
	r := &bandit.Round{K: k, Dim: d}
	if d > 0 {
		r.Actions = make([]float64, k*d)
	}
	var res ReplayResult
	rd := newReader(log)
	for i := 0; i < log.Len(); i++ {
		_, reward, _ := rd.fill(r, i)
		res.Events++
		res.Matched++
		res.Reward += reward
	}
	res.CTR, res.Lo, res.Hi = wilsonOf(res.Reward, res.Matched, z)
	return res
}

func wilsonOf(sum float64, n int, z float64) (p, lo, hi float64) {
	if n == 0 {
		return math.NaN(), 0, 1
	}
	p = sum / float64(n)
	lo, hi = Wilson(p, n, z)
	return p, lo, hi
}

// Wilson returns the Wilson score interval for a proportion p̂ observed on n
// trials at normal quantile z:
//
//	(p̂ + z²/2n ± z·sqrt(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n).
//
// Unlike the normal interval it stays inside [0, 1] and is sensible when p̂
// is 0 or 1, which matters for OBD's one or two clicks.
func Wilson(p float64, n int, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	fn := float64(n)
	z2 := z * z
	c := (p + z2/(2*fn)) / (1 + z2/fn)
	h := float64(z / (1 + z2/fn) * math.Sqrt(math.Max(0, p*(1-p)/fn+z2/(4*fn*fn))))
	return math.Max(0, c-h), math.Min(1, c+h)
}
