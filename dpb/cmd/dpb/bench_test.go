package main

import (
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
)

// TestBenchJSON runs "dpb bench --json" for each variant on a tiny loop and
// checks the output shape: exactly {us_per_round, allocs_per_round}.
func TestBenchJSON(t *testing.T) {
	for _, alg := range []string{"nonprivate", "gaussian", "wishart"} {
		for _, env := range []string{"true", "false"} {
			out := captureStdout(t, func() error {
				return runBench([]string{"--alg", alg, "--d", "3", "--K", "9", "--rounds", "500", "--env=" + env, "--json"})
			})
			var m map[string]float64
			if err := json.Unmarshal([]byte(out), &m); err != nil {
				t.Fatalf("%s env=%s: %v in %q", alg, env, err, out)
			}
			if len(m) != 2 || m["us_per_round"] <= 0 {
				t.Fatalf("%s env=%s: output %v", alg, env, m)
			}
			if _, ok := m["allocs_per_round"]; !ok {
				t.Fatalf("%s: no allocs_per_round in %v", alg, m)
			}
		}
	}
	if err := runBench([]string{"--alg", "nope"}); err == nil || !strings.Contains(err.Error(), "unknown SS18 algorithm") {
		t.Errorf("unknown algorithm: err = %v", err)
	}
}

func captureStdout(t *testing.T, f func() error) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	ferr := f()
	os.Stdout = old
	w.Close()
	b, _ := io.ReadAll(r)
	if ferr != nil {
		t.Fatal(ferr)
	}
	return string(b)
}
