package harness

import (
	"fmt"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/bandit"
)

// PolicyFactory builds a fresh policy for one repetition from its own stream.
type PolicyFactory struct {
	Name string
	New  func(rng *rand.Rand) (bandit.Policy, error)
}

// BanditExperiment runs policies against an environment and records the
// cumulative pseudo-regret R̂_t at the rounds in Record.
type BanditExperiment struct {
	// Horizon n. Required.
	Horizon int
	// Reps is the number of independent repetitions. Required.
	Reps int
	// Seed of the experiment: repetition rep's environment uses
	// Stream(Seed, StreamID(rep, 0)) and policy p uses Stream(Seed, StreamID(rep, 1+p)),
	// so all policies of a repetition face the same decision sets and reward
	// noise (common random numbers).
	Seed uint64
	// NewEnv builds one repetition's environment. Required.
	NewEnv func(rng *rand.Rand) (bandit.Environment, error)
	// Policies to compare. Required.
	Policies []PolicyFactory
	// Record lists the rounds (increasing, in [1, Horizon]) after which the
	// cumulative pseudo-regret is recorded. Defaults to LogGrid(Horizon, 50).
	Record []int
	// RunOptions, Label and Key as in TrialConfig: Key must determine NewEnv
	// and Policies (they are functions the store cannot see).
	RunOptions
	Label string
	Key   any
}

// Run runs the experiment and returns regret curves over Record.
func (e *BanditExperiment) Run() (*Curves, error) {
	c, _, err := e.RunFinals()
	return c, err
}

// RunFinals is [BanditExperiment.Run] that also returns each run's final
// cumulative pseudo-regret: finals[p][r] is policy p's R̂ at the last
// record round in repetition r (the distribution of final regret whose mean
// the curves' last point is).
func (e *BanditExperiment) RunFinals() (*Curves, [][]float64, error) {
	if e.Horizon < 1 {
		return nil, nil, fmt.Errorf("harness: horizon is %d, must be >= 1", e.Horizon)
	}
	if e.Reps < 1 {
		return nil, nil, fmt.Errorf("harness: reps is %d, must be >= 1", e.Reps)
	}
	if e.NewEnv == nil || len(e.Policies) == 0 {
		return nil, nil, fmt.Errorf("harness: experiment needs an environment and at least one policy")
	}
	rec := e.Record
	if rec == nil {
		rec = LogGrid(e.Horizon, 50)
	}
	if len(rec) == 0 {
		return nil, nil, fmt.Errorf("harness: experiment needs at least one record point")
	}
	for i, t := range rec {
		if t < 1 || t > e.Horizon || (i > 0 && t <= rec[i-1]) {
			return nil, nil, fmt.Errorf("harness: record points must increase within [1, %d]; got %d at %d", e.Horizon, t, i)
		}
	}
	names := make([]string, len(e.Policies))
	for i, p := range e.Policies {
		names[i] = p.Name
	}
	out, err := RunTrials(TrialConfig{Reps: e.Reps, Series: len(e.Policies), Points: len(rec), RunOptions: e.RunOptions,
		Label: e.Label, Key: struct {
			Key     any
			Horizon int
			Record  []int
			Seed    uint64
		}{e.Key, e.Horizon, rec, e.Seed}, Rounds: e.Horizon},
		func(job Job, out []float64) error {
			env, err := e.NewEnv(bandit.Stream(e.Seed, bandit.StreamID(job.Rep, 0)))
			if err != nil {
				return err
			}
			pol, err := e.Policies[job.Series].New(bandit.Stream(e.Seed, bandit.StreamID(job.Rep, 1+job.Series)))
			if err != nil {
				return err
			}
			bandit.RegretCurveTick(env, pol, e.Horizon, rec, out, job.Advance)
			if pe, ok := pol.(interface{ Err() error }); ok && pe.Err() != nil {
				// A policy that rejected data (e.g. outside the privacy bound)
				// stopped learning: the run is not the experiment asked for.
				return fmt.Errorf("%s: %w", e.Policies[job.Series].Name, pe.Err())
			}
			return nil
		})
	if err != nil {
		return nil, nil, err
	}
	x := make([]float64, len(rec))
	for i, t := range rec {
		x[i] = float64(t)
	}
	return Summarise(names, x, out), Finals(out), nil
}

// Finals returns the last recorded value of every run of out (indexed
// [series][rep][point], as RunTrials returns it): finals[s][r].
func Finals(out [][][]float64) [][]float64 {
	fin := make([][]float64, len(out))
	for s, series := range out {
		fin[s] = make([]float64, len(series))
		for r, run := range series {
			fin[s][r] = run[len(run)-1]
		}
	}
	return fin
}
