package check

import (
	"reflect"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// The per-run test (used above TreeDenseMaxN) reaches the per-round test's
// verdicts at n = 1024 with the same runs: the same bounds pass, and the
// plain-tree errata fail in both. Fixed seed: the test is deterministic.
func TestTreePerRunAgreesWithPerRound(t *testing.T) {
	s := ss18.Setting{D: 3, N: 1024, Epsilon: 1, Delta: 0.1, Lt2: 2}
	dense, _, err := TreeRegularizers(TreeConfig{Setting: s, Reps: 20, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	perRun, rounds, err := TreeRegularizers(TreeConfig{Setting: s, Reps: 20, Seed: 3, PerRun: true})
	if err != nil || rounds != nil {
		t.Fatalf("per-run: %v, rounds %v", err, rounds)
	}
	if len(perRun) != len(dense) {
		t.Fatalf("%d verdicts, want %d", len(perRun), len(dense))
	}
	failed := 0
	for i, d := range dense {
		p := perRun[i]
		if p.Name != d.Name || p.Erratum != d.Erratum {
			t.Errorf("verdict %d: %s (erratum %v) vs %s (erratum %v)", i, p.Name, p.Erratum, d.Name, d.Erratum)
		}
		if p.Pass != d.Pass {
			t.Errorf("%s: per-run pass %v (%s), per-round pass %v (%s)", d.Name, p.Pass, p.Note, d.Pass, d.Note)
		}
		if p.Trials != 20 || (d.Failures > 0) != (p.Failures > 0) {
			t.Errorf("%s: per-run %d/%d failing runs, per-round %d failures", d.Name, p.Failures, p.Trials, d.Failures)
		}
		if !p.Pass {
			failed++
		}
	}
	if failed == 0 {
		t.Error("no bound failed: the plain-tree errata should (the test could not tell a broken per-run test)")
	}
}

// Sharded into a store and merged, the per-run check gives the verdicts of
// one process.
func TestTreeCheckShardedMerge(t *testing.T) {
	s := ss18.Setting{D: 3, N: 512, Epsilon: 1, Delta: 0.1, Lt2: 2}
	cfg := TreeConfig{Setting: s, Reps: 6, Seed: 4, PerRun: true}
	want, _, err := TreeRegularizers(cfg)
	if err != nil {
		t.Fatal(err)
	}
	st, err := harness.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		cfg.Plan = &harness.Plan{Store: st, Shard: harness.Shard{I: i, N: 3}}
		if _, _, err := TreeRegularizers(cfg); err != nil {
			t.Fatal(err)
		}
	}
	cfg.Plan = &harness.Plan{Store: st, Merge: true}
	got, _, err := TreeRegularizers(cfg)
	if err != nil || len(cfg.Plan.Missing()) > 0 {
		t.Fatalf("merge: %v, missing %v", err, cfg.Plan.Missing())
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("verdict %d: merged %+v, one process %+v", i, got[i], want[i])
		}
	}
}
