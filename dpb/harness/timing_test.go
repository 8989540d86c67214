package harness

import (
	"math"
	"runtime"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// TestChunkTimes checks the chunks LoopTiming records: one a lap (3000
// rounds in chunks of 30: 100 laps, the first chunk one round short), each
// positive, the fastest the BestMicrosPerRound figure (ChunksWithin
// counting it and, with no bound, all), together within the run's wall time
// (sub-intervals of one clock's readings), and on Linux a positive thread
// CPU time for each chunk. How the CPU time compares with the wall time is
// not asserted: the two clocks are read one after the other, and on a
// loaded virtual machine the thread CPU clock lags and catches up (one
// 30-round chunk read 40 µs more CPU than wall time), so such a comparison
// is a timing assertion that a loaded host can turn red.
func TestChunkTimes(t *testing.T) {
	e, err := env.NewLinearEnv(env.LinearEnvConfig{Dim: 5, K: 25, Gap: 0.1}, bandit.Stream(1, bandit.StreamID(0, 0)))
	if err != nil {
		t.Fatal(err)
	}
	pol, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: ss18.Setting{D: 5, N: 3064, Epsilon: 1, Delta: 0.1, Lt2: 2},
		Mode: counter.Padded, Noise: noise.Simulated}, bandit.Stream(1, bandit.StreamID(0, 1)))
	if err != nil {
		t.Fatal(err)
	}
	tm := TimeLoop(e, pol, 3000, true)
	w, c := tm.ChunkMicros, tm.ChunkCPUMicros
	if len(w) != 100 {
		t.Fatalf("%d chunks, want 100", len(w))
	}
	fastest, total := math.Inf(1), 0.0
	for i, us := range w {
		if !(us > 0) {
			t.Fatalf("chunk %d: %v µs", i, us)
		}
		fastest = min(fastest, us)
		n := 30.0
		if i == 0 {
			n = 29
		}
		total += us * n
	}
	if math.Abs(fastest-tm.BestMicrosPerRound) > 1e-3*fastest+1e-3 {
		t.Fatalf("fastest chunk %v µs, BestMicrosPerRound %v", fastest, tm.BestMicrosPerRound)
	}
	if got := tm.ChunksWithin(1); got < 1 {
		t.Fatalf("%d chunks within 1× the fastest, want at least the fastest", got)
	}
	if got := tm.ChunksWithin(math.Inf(1)); got != len(w) {
		t.Fatalf("%d chunks within ∞× the fastest, want all %d", got, len(w))
	}
	if got := (LoopTiming{}).ChunksWithin(2); got != 0 {
		t.Fatalf("%d chunks counted without chunks", got)
	}
	if total > tm.MicrosPerRound*3000*1.0001 {
		t.Fatalf("chunks add up to %v µs, the run took %v", total, tm.MicrosPerRound*3000)
	}
	if runtime.GOOS != "linux" {
		return
	}
	if len(c) != len(w) {
		t.Fatalf("%d CPU chunks, %d wall chunks", len(c), len(w))
	}
	for i := range c {
		if !(c[i] > 0) {
			t.Fatalf("chunk %d: CPU %v µs a round", i, c[i])
		}
	}
}
