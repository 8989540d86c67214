package ss18fig

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/internal/lockstep"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// LinUCBRoundWork returns the RoundWork of one round.
func LinUCBRoundWork(d, k int, private, withEnv bool) harness.RoundWork {
	w := harness.RoundWork{Flops: float64(k) * float64(d*(d+1)+4*d)}
	if withEnv {
		w.Normals += float64(k * d)
	}
	if private {
		w.Normals += float64((d + 1) * (d + 2) / 2)
	}
	return w
}

// TimingConfig is one timing of SS18's LinUCB loop (dpb bench, the
// performance notebook).
type TimingConfig struct {
	Alg    ss18.Alg
	D, K   int  // dimension and actions per round (Appendix D sets, Δ = 0.1)
	Rounds int  // rounds timed
	Env    bool // draw a decision set every round (false: score one set every round)
	Padded bool // padded tree release (private variants)
	Seed   uint64
	// PairedChunks, when positive, adds that many chunks of Rounds/100
	// rounds (at least one) after the timed ones, each timed between two
	// measurements of the widest FMA unit's peak (an FMA meter, the best of
	// two calls of ≈ 1 ms), for Timing.Paired.
	PairedChunks int
}

// Timing is a timing of SS18's loop beside the round's work
// (LinUCBRoundWork).
type Timing struct {
	harness.LoopTiming
	harness.RoundWork
	Paired harness.PairedRatio
}

// Time times cfg.Rounds rounds of cfg.Alg on the calling goroutine
// (TimeLoop), its tree sized for the timed rounds.
func Time(cfg TimingConfig) (Timing, error) {
	if cfg.Rounds < 1 {
		return Timing{}, fmt.Errorf("ss18fig: %d rounds to time, must be >= 1", cfg.Rounds)
	}
	env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: cfg.D, K: cfg.K, Gap: 0.1}, bandit.Stream(cfg.Seed, bandit.StreamID(0, 0)))
	if err != nil {
		return Timing{}, err
	}
	mode := counter.Plain
	if cfg.Padded {
		mode = counter.Padded
	}
	if cfg.PairedChunks < 0 {
		return Timing{}, fmt.Errorf("ss18fig: %d paired chunks, must be >= 0", cfg.PairedChunks)
	}
	// The tree's horizon is the timed rounds plus 64, as dpb bench has always
	// sized it (the margin once covered a replay pool of decision sets), so
	// that timings stay comparable with earlier releases', plus the paired
	// chunks that follow them (the same number of levels at dpb bench's
	// sizes).
	chunk := max(1, cfg.Rounds/100)
	pol, err := ss18.NewPolicy(ss18.PolicyConfig{
		Alg:     cfg.Alg,
		Setting: ss18.Setting{D: cfg.D, N: cfg.Rounds + 64 + cfg.PairedChunks*chunk, Epsilon: 1, Delta: 0.1, Lt2: 2},
		Mode:    mode,
		Noise:   noise.Simulated,
	}, bandit.Stream(cfg.Seed, bandit.StreamID(0, 1)))
	if err != nil {
		return Timing{}, err
	}
	r := bandit.NewRound(env)
	if !cfg.Env {
		env.Next(r, 1)
	}
	res := Timing{LoopTiming: harness.TimeRounds(env, pol, r, cfg.Rounds, cfg.Env), RoundWork: LinUCBRoundWork(cfg.D, cfg.K, cfg.Alg != ss18.NonPrivate, cfg.Env)}
	if cfg.PairedChunks > 0 {
		res.Paired = harness.PairedRatioOf(env, pol, r, cfg.Rounds+1, chunk, cfg.PairedChunks, cfg.Env, res.Flops)
	}
	if err := pol.Err(); err != nil {
		return Timing{}, err
	}
	return res, nil
}

// LockstepTimingConfig is one timing of SS18 Fig. 4's job-round: one
// Appendix D decision set (d = 5, K = 25, Δ = 0.1) and the four variants of
// ss18.Algs in lockstep, padded trees, as RegretLockstep runs them.
type LockstepTimingConfig struct {
	Rounds int // rounds timed
	// Horizon is the trees' horizon n (at least Rounds; 0: Rounds). The
	// paper's 5·10⁷ gives m = 27 levels.
	Horizon int
	// Together scores the four policies in one pass (lockstep.Choose, as
	// RegretLockstep does); false calls each policy's Choose in turn after
	// lockstep.Prepare (the previous release's loop), for comparison.
	Together bool
	Seed     uint64
}

// LockstepTiming is a timing of the job-round, with the four policies'
// final ln det V_t and θ̃_t, which two timings of one seed must share bit for
// bit whichever way they chose.
type LockstepTiming struct {
	harness.LoopTiming
	LogDet []float64
	Theta  [][]float64
}

// TimeLockstep times cfg.Rounds job-rounds on the calling goroutine.
func TimeLockstep(cfg LockstepTimingConfig) (LockstepTiming, error) {
	if cfg.Rounds < 1 {
		return LockstepTiming{}, fmt.Errorf("ss18fig: %d rounds to time, must be >= 1", cfg.Rounds)
	}
	if cfg.Horizon == 0 {
		cfg.Horizon = cfg.Rounds
	}
	if cfg.Horizon < cfg.Rounds {
		return LockstepTiming{}, fmt.Errorf("ss18fig: horizon %d is below the %d rounds to time", cfg.Horizon, cfg.Rounds)
	}
	ec := Exp2Config{Horizon: cfg.Horizon}
	if err := ec.defaults(); err != nil {
		return LockstepTiming{}, err
	}
	env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: ec.Dim, K: ec.K, Gap: 0.1}, bandit.Stream(cfg.Seed, bandit.StreamID(0, 0)))
	if err != nil {
		return LockstepTiming{}, err
	}
	pols := make([]bandit.Policy, len(ss18.Algs))
	lins := make([]*ss18.LinUCB, len(pols))
	for i, a := range ss18.Algs {
		p, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: a, Setting: ec.Setting(), Mode: counter.Padded, Noise: noise.Simulated}, bandit.Stream(cfg.Seed, bandit.StreamID(0, 1+i)))
		if err != nil {
			return LockstepTiming{}, err
		}
		pols[i], lins[i] = p, p
	}
	r := bandit.NewRound(env)
	arms := make([]int, len(pols))
	var ct harness.ChunkTimer
	ct.Start(cfg.Rounds)
	for t := 1; t <= cfg.Rounds; t++ {
		ct.Tick(t)
		env.Next(r, t)
		if cfg.Together {
			lockstep.Choose(pols, r, arms)
		} else {
			lockstep.Prepare(pols)
			for i, p := range pols {
				arms[i] = p.Choose(r)
			}
		}
		for i, p := range pols {
			p.Update(r, arms[i], env.Reward(r, arms[i]))
		}
	}
	res := LockstepTiming{LoopTiming: ct.Done()}
	for _, p := range lins {
		if err := p.Err(); err != nil {
			return LockstepTiming{}, err
		}
		res.LogDet = append(res.LogDet, p.LogDetV())
		res.Theta = append(res.Theta, p.ThetaTo(nil))
	}
	return res, nil
}
