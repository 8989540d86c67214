package ss18fig

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/internal/perf"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// TestTimeSS18 times a few rounds of every SS18 variant with and without
// the decision sets: positive times, no allocation in the loop, the work
// bound of LinUCBRoundWork, and an error for a bad size.
func TestTimeSS18(t *testing.T) {
	for _, alg := range []ss18.Alg{ss18.NonPrivate, ss18.Gaussian, ss18.Wishart} {
		for _, env := range []bool{true, false} {
			tm, err := Time(TimingConfig{Alg: alg, D: 5, K: 25, Rounds: 3000, Env: env, Padded: true, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			res, w := tm.LoopTiming, tm.RoundWork
			if !(res.MicrosPerRound > 0) || !(res.BestMicrosPerRound > 0) || res.BestMicrosPerRound > res.MicrosPerRound*1.0001 {
				t.Fatalf("%v env=%v: %+v", alg, env, res)
			}
			if res.AllocsPerRound > 0.01 {
				t.Fatalf("%v env=%v: %v allocations a round", alg, env, res.AllocsPerRound)
			}
			if want := LinUCBRoundWork(5, 25, alg != ss18.NonPrivate, env); w != want {
				t.Fatalf("%v env=%v: work %+v, want %+v", alg, env, w, want)
			}
			p := perf.Peak{FMAAVX2GFlops: 50, NormalNs: 2}
			if got, want := w.BoundMicros(p), max(w.Flops/50/1e3, w.Normals*2/1e3); got != want {
				t.Fatalf("%v env=%v: bound %v µs, want %v", alg, env, got, want)
			}
		}
	}
	for _, c := range []TimingConfig{{Alg: ss18.Gaussian, D: 5, K: 25}, {Alg: ss18.Gaussian, D: 1, K: 25, Rounds: 10}, {Alg: ss18.Gaussian, D: 5, K: 0, Rounds: 10}} {
		if _, err := Time(c); err == nil {
			t.Fatalf("%+v accepted", c)
		}
	}
}

// TestTimeSS18Paired times paired chunks after the rounds: as many ratios
// as chunks, positive, the best at most the median, the timed rounds' own
// figures as without them, and an error for a negative count.
func TestTimeSS18Paired(t *testing.T) {
	for _, env := range []bool{true, false} {
		tm, err := Time(TimingConfig{Alg: ss18.Wishart, D: 8, K: 64, Rounds: 500, Env: env, Padded: true, Seed: 1, PairedChunks: 7})
		if err != nil {
			t.Fatal(err)
		}
		p := tm.Paired
		if p.Chunks != 7 || !(p.Best > 0) || p.Best > p.Median {
			t.Fatalf("env=%v: paired %+v, want 7 chunks, 0 < best <= median", env, p)
		}
		if !(tm.BestMicrosPerRound > 0) || tm.AllocsPerRound > 0.01 {
			t.Fatalf("env=%v: %+v", env, tm.LoopTiming)
		}
	}
	if _, err := Time(TimingConfig{Alg: ss18.Gaussian, D: 5, K: 25, Rounds: 10, PairedChunks: -1}); err == nil {
		t.Fatal("a negative number of paired chunks accepted")
	}
}

// TestTimeLockstep runs the Fig. 4 job-round both ways on one seed and
// requires the same final state bit for bit (the speed is not tested), no
// allocations per round, and errors for bad rounds and horizons.
// Deterministic: no false failures.
func TestTimeLockstep(t *testing.T) {
	a, err := TimeLockstep(LockstepTimingConfig{Rounds: 3000, Horizon: 5000, Together: true, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	b, err := TimeLockstep(LockstepTimingConfig{Rounds: 3000, Horizon: 5000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.LogDet) != 4 || len(b.Theta) != 4 {
		t.Fatalf("%d and %d policies' states, want 4", len(a.LogDet), len(b.Theta))
	}
	for i := range a.LogDet {
		if math.Float64bits(a.LogDet[i]) != math.Float64bits(b.LogDet[i]) {
			t.Errorf("policy %d: ln det V %v (together), %v (one by one)", i, a.LogDet[i], b.LogDet[i])
		}
		for j := range a.Theta[i] {
			if math.Float64bits(a.Theta[i][j]) != math.Float64bits(b.Theta[i][j]) {
				t.Errorf("policy %d: θ̃[%d] %v (together), %v (one by one)", i, j, a.Theta[i][j], b.Theta[i][j])
			}
		}
	}
	if a.AllocsPerRound > 0.01 || b.AllocsPerRound > 0.01 {
		t.Errorf("allocations per round %v, %v", a.AllocsPerRound, b.AllocsPerRound)
	}
	for _, c := range []LockstepTimingConfig{{Rounds: 0}, {Rounds: 10, Horizon: 5}} {
		if _, err := TimeLockstep(c); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
}
