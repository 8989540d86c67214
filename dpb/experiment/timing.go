package experiment

import (
	"runtime"
	"time"

	"github.com/dpbandits/dpbandits/dpb"
)

// LoopTiming is the cost of one round of the bandit loop.
type LoopTiming struct {
	MicrosPerRound float64 `json:"us_per_round"`
	AllocsPerRound float64 `json:"allocs_per_round"`
}

// TimeLoop runs rounds rounds of pol against env on the calling goroutine and
// returns the wall time and heap allocations per round. With withEnv false
// the decision sets are drawn once (a pool of 16 rounds, replayed in turn) so
// that only the policy's step is timed. It sizes an experiment before it is
// launched; for comparisons use the package benchmarks with benchstat.
func TimeLoop(env dpb.Environment, pol dpb.Policy, rounds int, withEnv bool) LoopTiming {
	const pool = 16
	var replay []*dpb.Round
	if !withEnv {
		for i := 0; i < pool; i++ {
			r := dpb.NewRound(env)
			env.Next(r, i+1)
			replay = append(replay, r)
		}
	}
	r := dpb.NewRound(env)
	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	start := time.Now()
	for t := 1; t <= rounds; t++ {
		cur := r
		if withEnv {
			env.Next(r, t)
		} else {
			cur = replay[t%pool]
			cur.T = t
		}
		a := pol.Choose(cur)
		pol.Update(cur, a, env.Reward(cur, a))
	}
	el := time.Since(start)
	runtime.ReadMemStats(&ms1)
	return LoopTiming{
		MicrosPerRound: float64(el.Nanoseconds()) / 1e3 / float64(rounds),
		AllocsPerRound: float64(ms1.Mallocs-ms0.Mallocs) / float64(rounds),
	}
}
