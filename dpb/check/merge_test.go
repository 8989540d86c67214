package check

import (
	"reflect"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/harness"
)

// TestCheckSS18ShardedMerge: the checks of SS18 that go through the
// store (SS18Scaled: the trees, the tight-k Wishart trees and the
// counters; SS18Prop4: Algorithm 1's confidence sets) run in two
// shards, a merge before the last shard lists the missing jobs, and the
// merge gives the verdicts of one process; the -trees verdicts are a part of
// them (what dpb check ss18 -shard/-merge/-trees rely on).
func TestCheckSS18ShardedMerge(t *testing.T) {
	cfg := SS18Config{Seed: 1, Short: true, N: 300, Reps: 4, Trials: 200, PolicyN: 150}
	run := func(c SS18Config) Verdicts {
		t.Helper()
		a, err := SS18Scaled(c)
		if err != nil {
			t.Fatal(err)
		}
		b, err := SS18Prop4(c)
		if err != nil {
			t.Fatal(err)
		}
		return append(a, b...)
	}
	want := run(cfg)
	st, err := harness.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c := cfg
	c.Plan = &harness.Plan{Store: st, Shard: harness.Shard{I: 0, N: 2}}
	run(c)
	c.Plan = &harness.Plan{Store: st, Merge: true}
	run(c)
	if len(c.Plan.Missing()) == 0 {
		t.Error("a merge after one of two shards found every job")
	}
	c.Plan = &harness.Plan{Store: st, Shard: harness.Shard{I: 1, N: 2}}
	run(c)
	c.Plan = &harness.Plan{Store: st, Merge: true}
	got := run(c)
	if miss := c.Plan.Missing(); len(miss) > 0 {
		t.Fatalf("merge: missing %v", miss)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("merged verdicts differ from one process:\n%+v\nvs\n%+v", got, want)
	}
	trees, err := SS18Trees(cfg)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, v := range want {
		names[v.Name] = true
	}
	if len(trees) != 36 {
		t.Errorf("%d tree verdicts, want 36 = 4 trees × 9 bounds", len(trees))
	}
	for _, v := range trees {
		if !names[v.Name] {
			t.Errorf("tree verdict %s is not among SS18Scaled's", v.Name)
		}
	}
}
