package experiment

import (
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/internal/perf"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// LoopTiming is the cost of one round of the bandit loop.
type LoopTiming struct {
	MicrosPerRound float64 `json:"us_per_round"`
	AllocsPerRound float64 `json:"allocs_per_round"`
	// BestMicrosPerRound is the wall time per round of the fastest of about
	// 100 equal chunks of the rounds: on a shared host, where other
	// processes take the core now and then, it stays near what the code
	// costs while the mean does not.
	BestMicrosPerRound float64 `json:"best_us_per_round"`
	// ChunkMicros is every chunk's wall time per round, in the order they
	// ran, and ChunkCPUMicros the timing thread's CPU time per round in the
	// same chunks (nil where the thread's CPU clock is not read: Linux
	// only). Where a chunk's CPU time equals its wall time, the process was
	// not kept waiting, so a run of slow chunks is the core itself running
	// slower: on a shared host, another tenant's load on the same physical
	// core.
	ChunkMicros    []float64 `json:"chunk_us_per_round,omitempty"`
	ChunkCPUMicros []float64 `json:"chunk_cpu_us_per_round,omitempty"`
}

// ChunksWithin returns how many of the recorded chunks ran within the
// factor f (≥ 1) of the fastest, BestMicrosPerRound (0 without chunks).
func (lt LoopTiming) ChunksWithin(f float64) int {
	n := 0
	for _, us := range lt.ChunkMicros {
		if us <= f*lt.BestMicrosPerRound {
			n++
		}
	}
	return n
}

// TimeLoop runs rounds rounds of pol against env on the calling goroutine and
// returns the wall time and heap allocations per round. With withEnv false
// one decision set is drawn before the clock starts and kept in one Round
// buffer, scored every round, so that only the policy's step is timed: the
// access pattern of the real loop, which draws each round's set into the same
// buffer (the package benchmark BenchmarkLinUCBStep uses the same pattern; a
// pool of several pre-drawn sets of 2 MB at (64, 4096) would measure memory
// bandwidth instead). It sizes an experiment before it is launched; for
// comparisons use the package benchmarks with benchstat.
func TimeLoop(env bandit.Environment, pol bandit.Policy, rounds int, withEnv bool) LoopTiming {
	r := bandit.NewRound(env)
	if !withEnv {
		env.Next(r, 1)
	}
	return timeRounds(env, pol, r, rounds, withEnv)
}

// timeRounds is TimeLoop's timed loop on the round buffer r (its decision
// set already drawn when withEnv is false): rounds 1…rounds.
func timeRounds(env bandit.Environment, pol bandit.Policy, r *bandit.Round, rounds int, withEnv bool) LoopTiming {
	var ct chunkTimer
	startChunks(rounds, &ct)
	for t := 1; t <= rounds; t++ {
		ct.tick(t)
		step(env, pol, r, t, withEnv)
	}
	return ct.done()
}

// step runs round t of the loop on the round buffer r.
func step(env bandit.Environment, pol bandit.Policy, r *bandit.Round, t int, withEnv bool) {
	if withEnv {
		env.Next(r, t)
	} else {
		r.T = t
	}
	a := pol.Choose(r)
	pol.Update(r, a, env.Reward(r, a))
}

// chunkTimer times a loop of rounds rounds (wall time and heap allocations
// per round) and each of about 100 equal chunks' wall and thread CPU time
// (the fastest chunk is the smallest of the walls): startChunks before the
// loop, tick(t) at the start of round t (inlined: a lap is timed once a
// chunk), done after it. It keeps the calling goroutine on its OS thread
// from startChunks to done, so that the thread's CPU clock is the loop's.
type chunkTimer struct {
	rounds, chunk int
	last          int // the first round of the current chunk
	start, c0     time.Time
	cpu0          int64
	walls, cpus   []float64
	ms0           runtime.MemStats
}

func startChunks(rounds int, ct *chunkTimer) {
	chunk := max(1, rounds/100)
	*ct = chunkTimer{rounds: rounds, chunk: chunk, last: 1, walls: make([]float64, 0, rounds/chunk+1)}
	runtime.LockOSThread()
	if threadCPUNanos() >= 0 {
		ct.cpus = make([]float64, 0, cap(ct.walls))
	}
	runtime.GC()
	runtime.ReadMemStats(&ct.ms0)
	ct.start = time.Now()
	ct.c0 = ct.start
	ct.cpu0 = threadCPUNanos()
}

func (ct *chunkTimer) tick(t int) {
	if t%ct.chunk == 0 && t > ct.last {
		ct.lap(t)
	}
}

// lap closes the chunk of rounds ct.last…t−1.
func (ct *chunkTimer) lap(t int) {
	now := time.Now()
	// Per round over the chunk's own rounds: the first chunk is one round
	// short (its lap comes at the start of round chunk).
	n := t - ct.last
	ct.walls = append(ct.walls, float64(now.Sub(ct.c0).Nanoseconds())/1e3/float64(n))
	if ct.cpus != nil {
		c := threadCPUNanos()
		ct.cpus = append(ct.cpus, float64(c-ct.cpu0)/1e3/float64(n))
		ct.cpu0 = c
	}
	ct.c0, ct.last = now, t
}

func (ct *chunkTimer) done() LoopTiming {
	el := time.Since(ct.start)
	var ms1 runtime.MemStats
	runtime.ReadMemStats(&ms1)
	runtime.UnlockOSThread()
	lt := LoopTiming{
		MicrosPerRound: float64(el.Nanoseconds()) / 1e3 / float64(ct.rounds),
		AllocsPerRound: float64(ms1.Mallocs-ct.ms0.Mallocs) / float64(ct.rounds),
	}
	if len(ct.walls) == 0 { // fewer rounds than one chunk
		lt.BestMicrosPerRound = lt.MicrosPerRound
		return lt
	}
	lt.BestMicrosPerRound = slices.Min(ct.walls)
	lt.ChunkMicros, lt.ChunkCPUMicros = ct.walls, ct.cpus
	return lt
}

// RoundWork is a lower bound on the work of one round of the SS18 LinUCB
// loop at dimension d with K actions, the figures dpb bench divides by the
// machine's Peak to bound a timing from below.
type RoundWork struct {
	// Flops counts the scoring's useful flops only: per action the
	// d(d+1)/2 multiply–adds of w = L⁻¹x and the 2d of ⟨z, w⟩ and ‖w‖²,
	// 2 flops each (the O(d³) factorisation per round is left out, so the
	// bound stays a lower bound).
	Flops float64 `json:"flops_per_round"`
	// Normals counts standard normals: K·d for the decision set when it is
	// drawn (each action needs d at least), plus (d+1)(d+2)/2 for the node
	// noise of a private variant (a symmetric (d+1)×(d+1) Gaussian or the
	// Bartlett factor of a Wishart).
	Normals float64 `json:"normals_per_round"`
}

// LinUCBRoundWork returns the RoundWork of one round.
func LinUCBRoundWork(d, k int, private, withEnv bool) RoundWork {
	w := RoundWork{Flops: float64(k) * float64(d*(d+1)+4*d)}
	if withEnv {
		w.Normals += float64(k * d)
	}
	if private {
		w.Normals += float64((d + 1) * (d + 2) / 2)
	}
	return w
}

// SS18TimingConfig is one timing of SS18's LinUCB loop (dpb bench, the
// performance notebook).
type SS18TimingConfig struct {
	Alg    ss18.Alg
	D, K   int  // dimension and actions per round (Appendix D sets, Δ = 0.1)
	Rounds int  // rounds timed
	Env    bool // draw a decision set every round (false: score one set every round)
	Padded bool // padded tree release (private variants)
	Seed   uint64
	// PairedChunks, when positive, adds that many chunks of Rounds/100
	// rounds (at least one) after the timed ones, each timed between two
	// measurements of the widest FMA unit's peak (an FMA meter, the best of
	// two calls of ≈ 1 ms), for SS18Timing.Paired.
	PairedChunks int
}

// SS18Timing is a timing of SS18's loop beside the round's work
// (LinUCBRoundWork).
type SS18Timing struct {
	LoopTiming
	RoundWork
	Paired PairedRatio
}

// PairedRatio is the loop's ratio to its flop bound with the two figures
// taken at one moment: for each chunk, its µs per round over the flops' µs
// at the faster of the peaks measured just before and just after it. On a
// shared host the core's clock moves with the other tenants' load (one
// Intel Xeon's AVX-512 peak read 85–104 GFLOP/s within an hour), so a
// fastest chunk and a peak measured apart, as ratio_to_bound takes them,
// can disagree by more than the gap they measure; a chunk and the peak
// beside it share the clock.
type PairedRatio struct {
	Median float64 `json:"paired_ratio_median,omitempty"` // the median over the chunks
	Best   float64 `json:"paired_ratio_best,omitempty"`   // the smallest
	Chunks int     `json:"paired_chunks,omitempty"`
}

// pairedRatio runs chunks chunks of n rounds each, from round t0 on, with
// a peak measurement before each and after the last, and returns their
// PairedRatio against flops per round, each chunk against the faster of
// the two peaks beside it (zero without an FMA unit or flops).
func pairedRatio(env bandit.Environment, pol bandit.Policy, r *bandit.Round, t0, n, chunks int, withEnv bool, flops float64) PairedRatio {
	m := perf.NewFMAMeter()
	var ratios []float64
	t := t0
	g0 := m.GFlops(2)
	for range chunks {
		start := time.Now()
		for range n {
			step(env, pol, r, t, withEnv)
			t++
		}
		us := float64(time.Since(start).Nanoseconds()) / 1e3 / float64(n)
		g1 := m.GFlops(2)
		// The chunk's clock: the faster of the peaks on either side (a
		// peak measurement the host interrupts reads low, and would make
		// the chunk look closer to the bound than it is).
		if g := max(g0, g1); g > 0 && flops > 0 {
			ratios = append(ratios, us/(flops/g/1e3))
		}
		g0 = g1
	}
	if len(ratios) == 0 {
		return PairedRatio{}
	}
	slices.Sort(ratios)
	return PairedRatio{Median: ratios[len(ratios)/2], Best: ratios[0], Chunks: len(ratios)}
}

// Peak is what one core of this machine can do at best, measured: its CPU,
// the LinUCB scoring kernel in use and those it supports, the FMA peak of
// each vector width and the normal generators' rates (dpb bench -peak).
type Peak = perf.Peak

// MeasurePeak measures the Peak of the calling goroutine's core, spending
// about 5·each on its five figures, each the best of several runs (so that
// a shared host that steals time lowers it less). It allocates a few kB.
func MeasurePeak(each time.Duration) Peak { return perf.MeasurePeak(each) }

// FlopMicros returns the µs the flops take at the widest FMA unit's peak of
// p (0 when p has none).
func (w RoundWork) FlopMicros(p Peak) float64 {
	if g := p.FMAGFlops(); g > 0 {
		return w.Flops / g / 1e3
	}
	return 0
}

// NormalMicros returns the µs the normals take at p's generator rate.
func (w RoundWork) NormalMicros(p Peak) float64 { return w.Normals * p.NormalNs / 1e3 }

// BoundMicros returns the lower bound the work puts on a round on a core
// with Peak p (dpb bench -json's bound_us): the larger of FlopMicros and
// NormalMicros.
func (w RoundWork) BoundMicros(p Peak) float64 { return max(w.FlopMicros(p), w.NormalMicros(p)) }

// TimeSS18 times cfg.Rounds rounds of cfg.Alg on the calling goroutine
// (TimeLoop), its tree sized for the timed rounds.
func TimeSS18(cfg SS18TimingConfig) (SS18Timing, error) {
	if cfg.Rounds < 1 {
		return SS18Timing{}, fmt.Errorf("experiment: %d rounds to time, must be >= 1", cfg.Rounds)
	}
	env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: cfg.D, K: cfg.K, Gap: 0.1}, bandit.Stream(cfg.Seed, bandit.StreamID(0, 0)))
	if err != nil {
		return SS18Timing{}, err
	}
	mode := counter.Plain
	if cfg.Padded {
		mode = counter.Padded
	}
	if cfg.PairedChunks < 0 {
		return SS18Timing{}, fmt.Errorf("experiment: %d paired chunks, must be >= 0", cfg.PairedChunks)
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
		Noise:   SimulationNoise,
	}, bandit.Stream(cfg.Seed, bandit.StreamID(0, 1)))
	if err != nil {
		return SS18Timing{}, err
	}
	r := bandit.NewRound(env)
	if !cfg.Env {
		env.Next(r, 1)
	}
	res := SS18Timing{LoopTiming: timeRounds(env, pol, r, cfg.Rounds, cfg.Env), RoundWork: LinUCBRoundWork(cfg.D, cfg.K, cfg.Alg != ss18.NonPrivate, cfg.Env)}
	if cfg.PairedChunks > 0 {
		res.Paired = pairedRatio(env, pol, r, cfg.Rounds+1, chunk, cfg.PairedChunks, cfg.Env, res.Flops)
	}
	if err := pol.Err(); err != nil {
		return SS18Timing{}, err
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
	// Together scores the four policies in one pass (ss18.ChooseLockstep, as
	// RegretLockstep does); false calls each policy's Choose in turn after
	// ss18.PrepareLockstep (the previous release's loop), for comparison.
	Together bool
	Seed     uint64
}

// LockstepTiming is a timing of the job-round, with the four policies'
// final ln det V_t and θ̃_t, which two timings of one seed must share bit for
// bit whichever way they chose.
type LockstepTiming struct {
	LoopTiming
	LogDet []float64
	Theta  [][]float64
}

// TimeLockstep times cfg.Rounds job-rounds on the calling goroutine.
func TimeLockstep(cfg LockstepTimingConfig) (LockstepTiming, error) {
	if cfg.Rounds < 1 {
		return LockstepTiming{}, fmt.Errorf("experiment: %d rounds to time, must be >= 1", cfg.Rounds)
	}
	if cfg.Horizon == 0 {
		cfg.Horizon = cfg.Rounds
	}
	if cfg.Horizon < cfg.Rounds {
		return LockstepTiming{}, fmt.Errorf("experiment: horizon %d is below the %d rounds to time", cfg.Horizon, cfg.Rounds)
	}
	ec := SS18Exp2Config{Horizon: cfg.Horizon}
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
		p, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: a, Setting: ec.Setting(), Mode: counter.Padded, Noise: SimulationNoise}, bandit.Stream(cfg.Seed, bandit.StreamID(0, 1+i)))
		if err != nil {
			return LockstepTiming{}, err
		}
		pols[i], lins[i] = p, p
	}
	r := bandit.NewRound(env)
	arms := make([]int, len(pols))
	var ct chunkTimer
	startChunks(cfg.Rounds, &ct)
	for t := 1; t <= cfg.Rounds; t++ {
		ct.tick(t)
		env.Next(r, t)
		if cfg.Together {
			ss18.ChooseLockstep(pols, r, arms)
		} else {
			ss18.PrepareLockstep(pols)
			for i, p := range pols {
				arms[i] = p.Choose(r)
			}
		}
		for i, p := range pols {
			p.Update(r, arms[i], env.Reward(r, arms[i]))
		}
	}
	res := LockstepTiming{LoopTiming: ct.done()}
	for _, p := range lins {
		if err := p.Err(); err != nil {
			return LockstepTiming{}, err
		}
		res.LogDet = append(res.LogDet, p.LogDetV())
		res.Theta = append(res.Theta, p.ThetaTo(nil))
	}
	return res, nil
}
