package mt14fig

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ope"
)

// Fig2BTSConfig configures [RunFig2BTS].
type Fig2BTSConfig struct {
	// Logged is the non-uniformly logged data set (OBD's Bernoulli-TS log).
	// Required.
	Logged ope.Log `json:"-"`
	// Uniform is a uniformly logged data set of the same arms and features
	// (OBD's random log of the same campaign): today's replay runs on it, and
	// the doubly robust reward model is fit on it, so that the model never
	// sees the events it corrects (DR stays unbiased). Required.
	Uniform ope.Log `json:"-"`
	// Epsilons are the private ε values. Defaults to {1, ε(ε₀ = 0.1), 10}.
	Epsilons []float64
	// Mechanisms of the private series. Defaults to {ContextEntryTrees}.
	Mechanisms []mt14.ContextMechanism
	// Alpha is contextual UCB's exploration α. Defaults to 1.
	Alpha float64
	// PMin is the rejection sampler's threshold on the logged log (see
	// ope.PropensityReplayConfig). Defaults to 1/K, the uniform logger's
	// propensity: events logged with a smaller propensity are accepted with
	// probability 1 instead of PMin/p (Clipped counts them). The unbiased
	// threshold, the smallest logged propensity (1.65·10⁻⁴ on OBD men's BTS
	// log), would accept about 2 events of 10,000.
	PMin float64
	// Lambda is the ridge λ of the reward model. Defaults to 1.
	Lambda float64
	// Reps is the number of runs (the log is fixed; runs differ in the
	// policies' noise and the rejection draws). Required.
	Reps int
	// Seed: rep r's series s uses Stream(Seed, StreamID(r, 1+s)) for its policy
	// on the logged log, StreamID(r, 1+S+s) for the rejection draws and
	// StreamID(r, 1+2S+s) for its policy on the uniform log (S series).
	Seed uint64
	// RunOptions: workers, progress bar and plan (see harness.RunOptions).
	harness.RunOptions
	// DataKey identifies the two logs (their content hashes and the loader's
	// options) in the store key: the logs are values the store cannot see.
	DataKey string `json:"-"`
}

// OPEValue is one estimate with its 95% interval, as means over repetitions.
type OPEValue struct {
	Value float64 `json:"value"`
	SE    float64 `json:"se"` // standard error over repetitions
	Lo    float64 `json:"lo"` // mean over repetitions of the interval's ends
	Hi    float64 `json:"hi"`
	// Events is the mean number of events the estimate rests on (matched,
	// accepted, or all events for DR).
	Events float64 `json:"events"`
	// ESS is the mean effective sample size of the importance weights (DR).
	ESS float64 `json:"ess,omitempty"`
}

// Fig2BTSRow is one policy of the figure.
type Fig2BTSRow struct {
	Name    string  `json:"name"`
	Mech    string  `json:"mechanism"`
	Epsilon float64 `json:"epsilon"`
	// Replay is Li et al.'s replay on the uniform log (today's Fig. 2 estimate).
	Replay OPEValue `json:"replay_uniform"`
	// Rejection is the propensity-based rejection replay on the logged log
	// (the policy learns from the accepted events).
	Rejection OPEValue `json:"rejection_logged"`
	// Clipped is the mean number of accepted events whose propensity was below PMin.
	Clipped float64 `json:"clipped"`
	// DR is the doubly robust value on every event of the logged log.
	DR OPEValue `json:"dr_logged"`
}

// Fig2BTSResult holds the rows and the fixed baselines.
type Fig2BTSResult struct {
	Rows []Fig2BTSRow `json:"rows"`
	// UniformPolicy holds the uniformly random policy's value on the logged
	// log by IPS, SNIPS, DM and DR (a fixed target), with ESS.
	UniformPolicy []ope.Estimate `json:"uniform_policy"`
	// UniformOnUniform is the uniform policy's value on the uniform log
	// (its mean reward: on-policy).
	UniformOnUniform ope.ReplayResult `json:"uniform_on_uniform"`
	// Logger is the logging policy's own value, the mean logged reward.
	Logger     ope.ReplayResult `json:"logger"`
	PMin       float64          `json:"pmin"`
	Events     int              `json:"events"`
	Dim, Arms  int
	Reps       int       `json:"reps"`
	ModelTheta []float64 `json:"model_theta"`
}

// uniformTarget is the uniformly random policy as an ope.Target.
type uniformTarget struct{}

func (uniformTarget) ProbsTo(dst []float64, r *bandit.Round) {
	for a := range dst {
		dst[a] = 1 / float64(len(dst))
	}
}

// RunFig2BTS is MT14 Fig. 2 (private contextual UCB, MT14 Algorithm 2,
// at several ε) evaluated on a non-uniformly logged data set through the
// propensity-based estimators of package ope, beside today's replay on a
// uniform log of the same arms: for each policy, the replay CTR on the
// uniform log, the rejection-replay CTR on the logged log and the doubly
// robust value on every event of the logged log, with 95% intervals and
// effective sample sizes. Trees span the log length.
func RunFig2BTS(cfg Fig2BTSConfig) (*Fig2BTSResult, error) {
	lg, un := cfg.Logged, cfg.Uniform
	if lg == nil || un == nil {
		return nil, fmt.Errorf("mt14fig: Fig2BTSConfig needs the logged and the uniform log")
	}
	if lg.Arms() != un.Arms() || lg.Dim() != un.Dim() {
		return nil, fmt.Errorf("mt14fig: logged log has K = %d, d = %d; uniform log K = %d, d = %d", lg.Arms(), lg.Dim(), un.Arms(), un.Dim())
	}
	if cfg.Reps < 1 {
		return nil, fmt.Errorf("mt14fig: reps is %d, must be >= 1", cfg.Reps)
	}
	d, k := lg.Dim(), lg.Arms()
	if cfg.Epsilons == nil {
		cfg.Epsilons = []float64{1, mt14.EpsilonFromEpsilon0(0.1, d), 10}
	}
	if cfg.Mechanisms == nil {
		cfg.Mechanisms = []mt14.ContextMechanism{mt14.ContextEntryTrees}
	}
	if cfg.PMin == 0 {
		cfg.PMin = 1 / float64(k)
	}
	if cfg.Lambda == 0 {
		cfg.Lambda = 1
	}
	// The reward model through the origin, the model the committed figure was
	// made with (DR is unbiased whatever the model).
	model, err := ope.FitLinearModelWith(un, 0, un.Len(), ope.LinearFit{Lambda: cfg.Lambda, NoIntercept: true})
	if err != nil {
		return nil, err
	}
	rows := []Fig2BTSRow{{Name: "non-private", Mech: mt14.ContextNonPrivate.String()}}
	mechs := []mt14.ContextMechanism{mt14.ContextNonPrivate}
	for _, m := range cfg.Mechanisms {
		for _, eps := range cfg.Epsilons {
			name := fmt.Sprintf("ε=%.3g", eps)
			if len(cfg.Mechanisms) > 1 {
				name = m.String() + " " + name
			}
			rows = append(rows, Fig2BTSRow{Name: name, Mech: m.String(), Epsilon: eps})
			mechs = append(mechs, m)
		}
	}
	S := len(rows)
	newPol := func(s int, l ope.Log, id uint64) (*mt14.ContextualUCB, error) {
		return mt14.NewContextualUCB(mt14.ContextualUCBConfig{
			Dim: d, Arms: k, Horizon: l.Len(), Mechanism: mechs[s], Epsilon: rows[s].Epsilon, Alpha: cfg.Alpha,
			Noise: noise.Simulated,
		}, bandit.Stream(cfg.Seed, id))
	}
	// A job records: replay (value, lo, hi, matched), rejection (value, lo,
	// hi, accepted, clipped), DR (value, lo, hi, events, ESS).
	const points = 14
	if cfg.Plan != nil && cfg.Plan.Store != nil && cfg.DataKey == "" {
		return nil, fmt.Errorf("mt14fig: Fig2BTSConfig.DataKey is required with a store")
	}
	key := cfg
	key.Workers = 0 // the results do not depend on it
	key.Reps = 0    // nor on the run count: the store keys each repetition on its own
	out, err := harness.RunTrials(harness.TrialConfig{Reps: cfg.Reps, Series: S, Points: points, RunOptions: harness.RunOptions{Workers: cfg.Workers, Progress: cfg.Progress, Plan: cfg.Plan},
		Label: "mt14-fig2-bts", Key: struct {
			Config Fig2BTSConfig
			Data   string
		}{key, cfg.DataKey}, Rounds: lg.Len() + un.Len()},
		func(job harness.Job, out []float64) error {
			s, rep := job.Series, job.Rep
			pu, err := newPol(s, un, bandit.StreamID(rep, 1+2*S+s))
			if err != nil {
				return err
			}
			rr, err := ope.Replay(pu, un, ope.ReplayConfig{})
			if err != nil {
				return err
			}
			pl, err := newPol(s, lg, bandit.StreamID(rep, 1+s))
			if err != nil {
				return err
			}
			pr, err := ope.PropensityReplay(pl, lg, ope.PropensityReplayConfig{
				PMin: cfg.PMin, Model: model, Rand: bandit.Stream(cfg.Seed, bandit.StreamID(rep, 1+S+s)),
			})
			if err != nil {
				return err
			}
			copy(out, []float64{
				rr.CTR, rr.Lo, rr.Hi, float64(rr.Matched),
				pr.Value, pr.Lo, pr.Hi, float64(pr.Accepted), float64(pr.Clipped),
				pr.DR, pr.DRLo, pr.DRHi, float64(pr.Events), pr.DRESS,
			})
			return nil
		})
	if err != nil {
		return nil, err
	}
	for s := range rows {
		c := harness.Summarise(nil, nil, out[s:s+1])
		m, se := c.Mean[0], c.StdErr[0]
		rows[s].Replay = OPEValue{Value: m[0], SE: se[0], Lo: m[1], Hi: m[2], Events: m[3]}
		rows[s].Rejection = OPEValue{Value: m[4], SE: se[4], Lo: m[5], Hi: m[6], Events: m[7]}
		rows[s].Clipped = m[8]
		rows[s].DR = OPEValue{Value: m[9], SE: se[9], Lo: m[10], Hi: m[11], Events: m[12], ESS: m[13]}
	}
	uni, err := ope.EstimateAll(lg, uniformTarget{}, model, ope.Estimators, ope.EstimateConfig{})
	if err != nil {
		return nil, err
	}
	return &Fig2BTSResult{
		Rows: rows, UniformPolicy: uni, UniformOnUniform: ope.UniformValue(un, 0), Logger: ope.UniformValue(lg, 0),
		PMin: cfg.PMin, Events: lg.Len(), Dim: d, Arms: k, Reps: cfg.Reps, ModelTheta: model.Theta,
	}, nil
}

// Markdown renders the result as a table.
func (r *Fig2BTSResult) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Logged log: %d events, K = %d, d = %d; logger's own CTR %.4f [%.4f, %.4f]; rejection threshold PMin = %.4g; %d repetitions.\n\n",
		r.Events, r.Arms, r.Dim, r.Logger.CTR, r.Logger.Lo, r.Logger.Hi, r.PMin, r.Reps)
	b.WriteString("Uniform policy on the logged log:")
	for _, e := range r.UniformPolicy {
		fmt.Fprintf(&b, " %v %.4f [%.4f, %.4f];", e.Estimator, e.Value, e.Lo, e.Hi)
	}
	ess := math.NaN()
	if len(r.UniformPolicy) > 0 {
		ess = r.UniformPolicy[0].ESS
	}
	fmt.Fprintf(&b, " ESS %.0f. On the uniform log: %.4f [%.4f, %.4f].\n\n", ess, r.UniformOnUniform.CTR, r.UniformOnUniform.Lo, r.UniformOnUniform.Hi)
	b.WriteString("| policy | replay, uniform log [95%] (matched) | rejection replay, logged log [95%] (accepted, clipped) | DR, logged log [95%] (events, ESS) |\n|---|---|---|---|\n")
	for _, w := range r.Rows {
		fmt.Fprintf(&b, "| %s | %.4f [%.4f, %.4f] (%.0f) | %.4f [%.4f, %.4f] (%.0f, %.0f) | %.4f [%.4f, %.4f] (%.0f, %.1f) |\n", w.Name,
			w.Replay.Value, w.Replay.Lo, w.Replay.Hi, w.Replay.Events,
			w.Rejection.Value, w.Rejection.Lo, w.Rejection.Hi, w.Rejection.Events, w.Clipped,
			w.DR.Value, w.DR.Lo, w.DR.Hi, w.DR.Events, w.DR.ESS)
	}
	return b.String()
}

// MarshalJSON writes NaN fields (an estimate with no accepted event) as null.
func (v OPEValue) MarshalJSON() ([]byte, error) {
	num := func(x float64) string {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "null"
		}
		b, _ := json.Marshal(x)
		return string(b)
	}
	s := fmt.Sprintf(`{"value":%s,"se":%s,"lo":%s,"hi":%s,"events":%s`, num(v.Value), num(v.SE), num(v.Lo), num(v.Hi), num(v.Events))
	if v.ESS != 0 {
		s += `,"ess":` + num(v.ESS)
	}
	return []byte(s + "}"), nil
}
