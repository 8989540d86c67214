package harness

import (
	"runtime"
	"slices"
	"time"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/perf"
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
	return TimeRounds(env, pol, r, rounds, withEnv)
}

// TimeRounds is TimeLoop's timed loop on the round buffer r (its decision
// set already drawn when withEnv is false): rounds 1…rounds.
func TimeRounds(env bandit.Environment, pol bandit.Policy, r *bandit.Round, rounds int, withEnv bool) LoopTiming {
	var ct ChunkTimer
	ct.Start(rounds)
	for t := 1; t <= rounds; t++ {
		ct.Tick(t)
		Step(env, pol, r, t, withEnv)
	}
	return ct.Done()
}

// Step runs round t of the loop on the round buffer r: draws the decision
// set (withEnv) or only sets r.T, then chooses, rewards and updates.
func Step(env bandit.Environment, pol bandit.Policy, r *bandit.Round, t int, withEnv bool) {
	if withEnv {
		env.Next(r, t)
	} else {
		r.T = t
	}
	a := pol.Choose(r)
	pol.Update(r, a, env.Reward(r, a))
}

// ChunkTimer times a loop of rounds rounds (wall time and heap allocations
// per round) and each of about 100 equal chunks' wall and thread CPU time
// (the fastest chunk is the smallest of the walls): Start before the
// loop, Tick(t) at the start of round t (inlined: a lap is timed once a
// chunk), Done after it. It keeps the calling goroutine on its OS thread
// from Start to Done, so that the thread's CPU clock is the loop's.
type ChunkTimer struct {
	rounds, chunk int
	last          int // the first round of the current chunk
	start, c0     time.Time
	cpu0          int64
	walls, cpus   []float64
	ms0           runtime.MemStats
}

// Start starts timing a loop of rounds rounds (and locks the calling
// goroutine to its OS thread until Done).
func (ct *ChunkTimer) Start(rounds int) {
	chunk := max(1, rounds/100)
	*ct = ChunkTimer{rounds: rounds, chunk: chunk, last: 1, walls: make([]float64, 0, rounds/chunk+1)}
	runtime.LockOSThread()
	if ThreadCPUNanos() >= 0 {
		ct.cpus = make([]float64, 0, cap(ct.walls))
	}
	runtime.GC()
	runtime.ReadMemStats(&ct.ms0)
	ct.start = time.Now()
	ct.c0 = ct.start
	ct.cpu0 = ThreadCPUNanos()
}

// Tick marks the start of round t.
func (ct *ChunkTimer) Tick(t int) {
	if t%ct.chunk == 0 && t > ct.last {
		ct.lap(t)
	}
}

// lap closes the chunk of rounds ct.last…t−1.
func (ct *ChunkTimer) lap(t int) {
	now := time.Now()
	// Per round over the chunk's own rounds: the first chunk is one round
	// short (its lap comes at the start of round chunk).
	n := t - ct.last
	ct.walls = append(ct.walls, float64(now.Sub(ct.c0).Nanoseconds())/1e3/float64(n))
	if ct.cpus != nil {
		c := ThreadCPUNanos()
		ct.cpus = append(ct.cpus, float64(c-ct.cpu0)/1e3/float64(n))
		ct.cpu0 = c
	}
	ct.c0, ct.last = now, t
}

// Done stops the timer and returns the loop's timing.
func (ct *ChunkTimer) Done() LoopTiming {
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

// PairedRatioOf runs chunks chunks of n rounds each, from round t0 on, with
// a peak measurement before each and after the last, and returns their
// PairedRatio against flops per round, each chunk against the faster of
// the two peaks beside it (zero without an FMA unit or flops).
func PairedRatioOf(env bandit.Environment, pol bandit.Policy, r *bandit.Round, t0, n, chunks int, withEnv bool, flops float64) PairedRatio {
	m := perf.NewFMAMeter()
	var ratios []float64
	t := t0
	g0 := m.GFlops(2)
	for range chunks {
		start := time.Now()
		for range n {
			Step(env, pol, r, t, withEnv)
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
