package harness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStoreRefusesRunCountKey: a key holding a non-zero "reps" (at any depth,
// any case) is refused; the same key with reps 0 is accepted (the control).
func TestStoreRefusesRunCountKey(t *testing.T) {
	st, _ := OpenStore(t.TempDir())
	type inner struct{ Reps int }
	for _, key := range []any{
		struct{ Reps, Seed int }{3, 1},
		struct {
			Config inner
			Seed   int
		}{inner{2}, 1},
		map[string]any{"list": []any{map[string]any{"reps": 5}}},
	} {
		if _, err := st.Bin("t-exp", key, Shape{1, 1, 1}); err == nil || !strings.Contains(err.Error(), "run count") {
			t.Errorf("key %+v: err = %v, want the run count refused", key, err)
		}
	}
	if _, err := st.Bin("t-exp", struct{ Reps, Seed int }{0, 1}, Shape{1, 1, 1}); err != nil {
		t.Errorf("a key with reps 0: %v", err)
	}
}

// TestStoreRefusesOldFormat: a store holding a job list keyed the old way
// (a key.json with the run count in its shape and no "format") is refused by
// OpenStore and ExistingStore with a message that says why and what to do;
// a store of the current format opens (the control).
func TestStoreRefusesOldFormat(t *testing.T) {
	dir := t.TempDir()
	st, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Bin("t-exp", testKey{Seed: 1}, Shape{2, 1, 3}); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenStore(dir); err != nil {
		t.Fatalf("a format-%d store: %v", StoreFormat, err)
	}
	old := filepath.Join(dir, "ss18-exp2-745045dcb6c1bd81")
	os.MkdirAll(old, 0o755)
	os.WriteFile(filepath.Join(old, "key.json"), []byte(`{"sha256": "745045dcb6c1bd81", "key": {"label": "ss18-exp2", "stream_version": 2, "shape": {"reps": 35, "series": 2, "points": 100}, "config": {}}}`), 0o644)
	for name, open := range map[string]func(string) (*Store, error){"OpenStore": OpenStore, "ExistingStore": ExistingStore} {
		_, err := open(dir)
		if err == nil || !strings.Contains(err.Error(), "ss18-exp2-745045dcb6c1bd81") || !strings.Contains(err.Error(), "run count") || !strings.Contains(err.Error(), "new -store") {
			t.Errorf("%s of a store with an old-format job list: err = %v", name, err)
		}
	}
}

// TestStoreListingRunCount: Bins lists a job list to the largest run count
// a run opened it with, so the jobs of a run that stopped early are listed
// as missing; a reader (merge) records no run count.
func TestStoreListingRunCount(t *testing.T) {
	dir := t.TempDir()
	st, _ := OpenStore(dir)
	b, err := st.Bin("t-exp", testKey{Seed: 1}, Shape{2, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	b.Save(Job{Rep: 0}, []float64{1})
	if _, ok, err := st.ExistingBin("t-exp", testKey{Seed: 1}, Shape{9, 1, 1}); !ok || err != nil {
		t.Fatal(ok, err)
	}
	bins, err := st.Bins()
	if err != nil || len(bins) != 1 {
		t.Fatal(bins, err)
	}
	miss, _ := bins[0].Missing()
	if bins[0].Shape().Reps != 2 || len(miss) != 1 || miss[0] != (Job{Rep: 1}) {
		t.Errorf("listed %d reps, missing %v: want 2 reps (the run's, not the reader's 9), rep 1 missing", bins[0].Shape().Reps, miss)
	}
	if _, err := st.Bin("t-exp", testKey{Seed: 1}, Shape{5, 1, 1}); err != nil {
		t.Fatal(err)
	}
	bins, _ = st.Bins()
	if bins[0].Shape().Reps != 5 {
		t.Errorf("after a 5-run: listed %d reps, want 5", bins[0].Shape().Reps)
	}
}
