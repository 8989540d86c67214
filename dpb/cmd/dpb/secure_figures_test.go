package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/ss18fig"
)

// secure-regret writes its tables and a JSON naming both noise modes; the
// regret table of two shards merged through the store is byte-identical to
// one process's, and another seed changes it (the comparison can fail).
func TestSecureRegretFigure(t *testing.T) {
	args := []string{"-n", "300", "-runs", "2", "-algs", "gaussian,gaussian-smooth", "-progress=false"}
	one := t.TempDir()
	if err := figures["secure-regret"].run("secure-regret", one, args); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(one, "secure-regret.json"))
	if err != nil {
		t.Fatal(err)
	}
	requireProvenance(t, "secure-regret", b)
	var meta struct {
		Noise  []string `json:"noise"`
		Config struct {
			Result ss18fig.SecureRegretResult `json:"result"`
		} `json:"config"`
	}
	if err := json.Unmarshal(b, &meta); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(meta.Noise, []string{"simulated", "secure-seeded"}) {
		t.Errorf("noise %q, want [simulated secure-seeded]", meta.Noise)
	}
	if got, want := len(meta.Config.Result.Rows), 2*2; got != want {
		t.Errorf("%d rows in the JSON, want %d", got, want)
	}
	csv := func(dir string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, "secure-regret.csv"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if n := bytes.Count(csv(one), []byte("\n")); n != 1+2*2 {
		t.Errorf("secure-regret.csv has %d lines", n)
	}
	for _, f := range []string{"secure-regret-cpu.csv", "secure-regret.svg", "secure-regret.png"} {
		if _, err := os.Stat(filepath.Join(one, f)); err != nil {
			t.Error(err)
		}
	}
	store, merged := t.TempDir(), t.TempDir()
	for _, sh := range []string{"0/2", "1/2"} {
		if err := figures["secure-regret"].run("secure-regret", merged, append(args, "-store", store, "-shard", sh)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(merged, "secure-regret.csv")); err == nil {
		t.Fatal("a shard wrote the figure")
	}
	if err := figures["secure-regret"].run("secure-regret", merged, append(args, "-store", store, "-merge")); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(csv(one), csv(merged)) {
		t.Errorf("merged shards' table differs from one process's:\n%s\n%s", csv(one), csv(merged))
	}
	other := t.TempDir()
	if err := figures["secure-regret"].run("secure-regret", other, append(args, "-seed", "2")); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(csv(one), csv(other)) {
		t.Error("seeds 1 and 2 wrote the same table: the comparison above cannot fail")
	}
}

func TestSecureRegretFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"reproduce", "secure-regret", "-algs", "nope"}, `invalid value "nope" for flag -algs`},
		{[]string{"reproduce", "secure-regret", "-runs", "1"}, "at least 2 runs"},
		{[]string{"reproduce", "secure-regret", "-algs", "wishart", "-short", "-out", t.TempDir()}, "Wishart"},
	} {
		var stderr bytes.Buffer
		if code := runMain(c.args, &stderr); code == 0 || !strings.Contains(stderr.String(), c.msg) {
			t.Errorf("dpb %q: exit %d, stderr %q; want an error with %q", c.args, code, stderr.String(), c.msg)
		}
	}
}

// writeMeta refuses metadata that names no noise mode (every figure says
// which noise it sampled, or harness.NoNoise).
func TestWriteMetaNeedsNoise(t *testing.T) {
	base := filepath.Join(t.TempDir(), "x")
	if err := writeMeta(base, harness.Meta{Name: "x"}); err == nil || !strings.Contains(err.Error(), "names no noise mode") {
		t.Errorf("writeMeta without Noise: %v, want an error", err)
	}
	if err := writeMeta(base, harness.Meta{Name: "x", Noise: []string{harness.NoNoise}}); err != nil {
		t.Errorf("writeMeta with Noise: %v", err)
	}
}
