package ss18fig

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// shortSecureRegret is the -short size of the experiment: Figure 4's
// setting (d = 5, K = 25, Δ ∈ {0, 0.1}, ε = 1, δ = 0.1) on 1,000 rounds.
func shortSecureRegret() SecureRegretConfig {
	return SecureRegretConfig{Horizon: 1000, Reps: 3, Seed: 7, RunOptions: harness.RunOptions{Workers: 2}}
}

// regretsOnly is the part of a result that is a function of the seed: the
// rows without their CPU times, as JSON.
func regretsOnly(t *testing.T, res *SecureRegretResult) string {
	t.Helper()
	rows := append([]SecureRegretRow(nil), res.Rows...)
	for i := range rows {
		rows[i].CPU = SecureRegretCPU{}
	}
	b, err := json.Marshal(struct {
		Config SecureRegretConfig
		Rows   []SecureRegretRow
	}{res.Config, rows})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// One process with 1 or 2 workers, and two shards through the store merged,
// give byte-identical regrets; the merge runs no job.
func TestSecureRegretShardsMergeIdentical(t *testing.T) {
	cfg := shortSecureRegret()
	one, err := SecureRegret(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(one.Rows) != 2*len(SecureRegretAlgs) {
		t.Fatalf("%d rows, want %d", len(one.Rows), 2*len(SecureRegretAlgs))
	}
	for _, r := range one.Rows {
		if r.CPU.SimulatedMicros <= 0 || r.CPU.SecureMicros <= 0 {
			t.Errorf("%v Δ=%g: CPU µs per round %+v, want > 0", r.Alg, r.Gap, r.CPU)
		}
	}
	cfg.Workers = 1
	w1, err := SecureRegret(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := regretsOnly(t, one), regretsOnly(t, w1); a != b {
		t.Fatalf("1 and 2 workers differ:\n%s\n%s", a, b)
	}
	st, err := harness.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		c := cfg
		c.Plan = &harness.Plan{Store: st, Shard: harness.Shard{I: i, N: 2}}
		if _, err := SecureRegret(c); err != nil {
			t.Fatal(err)
		}
	}
	c := cfg
	c.Plan = &harness.Plan{Store: st, Merge: true}
	merged, err := SecureRegret(c)
	if err != nil {
		t.Fatal(err)
	}
	if ran, loaded, _ := c.Plan.Counts(); ran != 0 || loaded != cfg.Reps*len(one.Rows) || len(c.Plan.Missing()) != 0 {
		t.Fatalf("merge ran %d jobs, loaded %d, missing %v", ran, loaded, c.Plan.Missing())
	}
	if a, b := regretsOnly(t, one), regretsOnly(t, merged); a != b {
		t.Fatalf("merged shards differ from one process:\n%s\n%s", a, b)
	}
	// Negative control: another seed changes the regrets, so the comparison
	// above can fail.
	cfg.Seed++
	other, err := SecureRegret(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if regretsOnly(t, one) == regretsOnly(t, other) {
		t.Fatal("seeds 7 and 8 gave the same regrets: the comparison cannot fail")
	}
}

// The pair is paired: the ridge baseline ignores its noise mode, so its two
// runs are the same run and differ by exactly 0. The negative control moves
// the secure run's environment to another repetition's stream (unpaired):
// the difference is then not 0.
func TestSecureRegretPaired(t *testing.T) {
	cfg := shortSecureRegret()
	cfg.Algs = []ss18.Alg{ss18.NonPrivate}
	res, err := SecureRegret(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Rows {
		if r.DiffPct != 0 || r.PairedSD != 0 || r.RunsFor2Pct != 2 {
			t.Errorf("NonPrivate Δ=%g: diff %g %%, paired s.d. %g, runs %d: want 0, 0, 2 (same environment, same policy)", r.Gap, r.DiffPct, r.PairedSD, r.RunsFor2Pct)
		}
		for i := range r.SimulatedRuns {
			if r.SimulatedRuns[i] != r.SecureRuns[i] || r.SimulatedRuns[i] <= 0 {
				t.Errorf("NonPrivate Δ=%g run %d: %g and %g, want equal and > 0", r.Gap, i, r.SimulatedRuns[i], r.SecureRuns[i])
			}
		}
	}
	if err := cfg.defaults(); err != nil {
		t.Fatal(err)
	}
	envs, pols, err := secureRegretPair(cfg, 1, 0, 0, 1, SecureRegretModes) // unpaired
	if err != nil {
		t.Fatal(err)
	}
	reg, _ := runPair(envs, pols, cfg.Horizon, harness.Job{})
	if reg[0] == reg[1] {
		t.Fatalf("unpaired environments gave the same regret %g: the pairing test cannot fail", reg[0])
	}
}

// The secure run runs on the secure sampler: its policy says so, and its
// regret differs from the simulated run's. The negative control feeds the
// "secure" policy of the pair simulated noise from its own stream: its
// regret is then the simulated run's exactly, so the difference test can fail.
func TestSecureRegretModes(t *testing.T) {
	cfg := shortSecureRegret()
	if err := cfg.defaults(); err != nil {
		t.Fatal(err)
	}
	for a, alg := range cfg.Algs {
		envs, pols, err := secureRegretPair(cfg, 1, a, 0, 0, SecureRegretModes)
		if err != nil {
			t.Fatal(err)
		}
		for m, want := range []string{"simulated", "secure-seeded"} {
			if got := pols[m].Privacy().Noise; got != want {
				t.Errorf("%v mode %d: Privacy().Noise %q, want %q", alg, m, got, want)
			}
		}
		reg, _ := runPair(envs, pols, cfg.Horizon, harness.Job{})
		if reg[0] == reg[1] {
			t.Errorf("%v: secure and simulated runs have the same regret %g", alg, reg[0])
		}
		// Negative control: the secure slot on simulated noise.
		sim := SecureRegretModes[0]
		envs, pols, err = secureRegretPair(cfg, 1, a, 0, 0, [2]noise.Mode{sim, sim})
		if err != nil {
			t.Fatal(err)
		}
		if ctl, _ := runPair(envs, pols, cfg.Horizon, harness.Job{}); ctl[0] != ctl[1] || ctl[0] != reg[0] {
			t.Errorf("%v: control (both simulated) regrets %v, want both %g", alg, ctl, reg[0])
		}
	}
}

// RunsForHalfWidth returns the smallest r whose t interval is within the
// target: r passes and r − 1 fails (the control that the bound is tight).
func TestRunsForHalfWidth(t *testing.T) {
	for _, tc := range []struct{ sd, target float64 }{{10, 2}, {25, 2}, {3, 2}, {1, 2}, {0.5, 2}, {40, 1}} {
		r := RunsForHalfWidth(tc.sd, tc.target)
		hw := func(r int) float64 { return studentT975(r-1) * tc.sd / math.Sqrt(float64(r)) }
		if r < 2 || hw(r) > tc.target {
			t.Errorf("sd %g target %g: %d runs, half-width %g", tc.sd, tc.target, r, hw(r))
		}
		if r > 2 && hw(r-1) <= tc.target {
			t.Errorf("sd %g target %g: %d runs, but %d already give %g", tc.sd, tc.target, r, r-1, hw(r-1))
		}
	}
	// sd 10 %, target 2 %: the normal approximation gives 96.04, t adds a few.
	if r := RunsForHalfWidth(10, 2); r < 97 || r > 100 {
		t.Errorf("sd 10 %%, ±2 %%: %d runs, want 97…100", r)
	}
	for _, tc := range []struct{ sd, target float64 }{{math.NaN(), 2}, {math.Inf(1), 2}, {-1, 2}, {1, 0}, {1, math.NaN()}, {1e12, 1e-12}} {
		if r := RunsForHalfWidth(tc.sd, tc.target); r != -1 {
			t.Errorf("RunsForHalfWidth(%g, %g) = %d, want -1", tc.sd, tc.target, r)
		}
	}
}

func TestSecureRegretValidates(t *testing.T) {
	for _, tc := range []struct {
		cfg  SecureRegretConfig
		want string
	}{
		{SecureRegretConfig{Reps: 1, Horizon: 10}, "at least 2 runs"},
		{SecureRegretConfig{Reps: 2, Horizon: 10, Gaps: []float64{math.NaN()}}, "not finite"},
		{SecureRegretConfig{Reps: 2, Horizon: 10, Gaps: []float64{}}, "one gap"},
		{SecureRegretConfig{Reps: 2, Horizon: 10, Algs: []ss18.Alg{}}, "one variant"},
		{SecureRegretConfig{Reps: 2, Horizon: 10, Algs: []ss18.Alg{ss18.Gaussian, ss18.Gaussian}}, "twice"},
		{SecureRegretConfig{Reps: 2, Horizon: 10, Algs: []ss18.Alg{ss18.Wishart}}, "Wishart"},
		{SecureRegretConfig{Reps: 2, Horizon: 10, Epsilon: math.Inf(1)}, "psilon"},
		{SecureRegretConfig{Reps: 2, Horizon: -1}, "horizon"},
	} {
		_, err := SecureRegret(tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one containing %q", tc.cfg, err, tc.want)
		}
	}
}
