package harness

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/bandit"
)

// SweepConfig configures [Sweep]: every series plays one game at each
// horizon of Horizons, Reps times, with common random numbers.
type SweepConfig struct {
	// Horizons are the games' lengths T (each a separate game). Required.
	Horizons []int
	// Series and Reps: the number of learners and of repetitions. Required.
	Series, Reps int
	// Seed: repetition r at horizon index h draws its environment (its
	// losses) from Stream(SubSeed(Seed, h), StreamID(r, 0)) whatever the
	// series, and series s its learner from Stream(SubSeed(Seed, h),
	// StreamID(r, 1+s)).
	Seed uint64
	// RunOptions, Label and Key as in TrialConfig: Key must determine the
	// game (a function the store cannot see).
	RunOptions
	Label string
	Key   any
}

// Game plays one game of horizon T for series, the environment drawing from
// env and the learner from rng, and returns its final value (NaN for a game
// the series does not play).
type Game func(T, series int, env, rng *rand.Rand) (float64, error)

// Sweep plays game for every series, repetition and horizon of cfg and
// returns out[series][rep][h]: the [RunTrials] of the T sweeps of AS17's
// tables and of the counter comparisons, whose job is one (series,
// repetition) over all horizons.
func Sweep(cfg SweepConfig, game Game) ([][][]float64, error) {
	if len(cfg.Horizons) == 0 || cfg.Series < 1 || cfg.Reps < 1 {
		return nil, fmt.Errorf("harness: a sweep needs horizons, series >= 1 and reps >= 1")
	}
	rounds := 0
	for _, T := range cfg.Horizons {
		rounds += T
	}
	return RunTrials(TrialConfig{Reps: cfg.Reps, Series: cfg.Series, Points: len(cfg.Horizons), RunOptions: cfg.RunOptions,
		Label: cfg.Label, Key: cfg.Key, Rounds: rounds},
		func(job Job, out []float64) error {
			for h, T := range cfg.Horizons {
				seed := SubSeed(cfg.Seed, h)
				v, err := game(T, job.Series, bandit.Stream(seed, bandit.StreamID(job.Rep, 0)), bandit.Stream(seed, bandit.StreamID(job.Rep, 1+job.Series)))
				if err != nil {
					return err
				}
				out[h] = v
				if !math.IsNaN(v) {
					job.Advance(T)
				}
			}
			return nil
		})
}
