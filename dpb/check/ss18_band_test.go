package check

import (
	"math"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/env"
)

// TestCheckBand runs the band check on both branches of the sampler
// (rejection from the sphere for wide bands, inverse truncated-Beta CDF for
// narrow ones). Each Pass assertion fails spuriously with probability ≤ 1e-5
// (DKW–Massart); the seeds are fixed.
func TestCheckBand(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  env.LinearEnvConfig
	}{
		{"d=3 wide", env.LinearEnvConfig{Dim: 3, K: 200, Gap: 0.1}},
		{"d=8 wide", env.LinearEnvConfig{Dim: 8, K: 64, Gap: 0.1}},
		{"d=20 narrow", env.LinearEnvConfig{Dim: 20, K: 50, Gap: 1.3}},
	} {
		c, err := Band(tc.cfg, 3, 40, 8)
		if err != nil {
			t.Fatal(err)
		}
		if !c.Pass() {
			t.Errorf("%s: KS %.4f > %.4f or norm error %.2g", tc.name, c.KS, c.Tol, c.MaxNormErr)
		}
		if c.Samples != 40*(tc.cfg.K-1) || len(c.Edges) != 9 || len(c.Exact) != 8 {
			t.Errorf("%s: %d samples, %d edges, %d bins", tc.name, c.Samples, len(c.Edges), len(c.Exact))
		}
		var mass float64
		for k, f := range c.Exact {
			mass += f * (c.Edges[k+1] - c.Edges[k])
		}
		if math.Abs(mass-1) > 1e-9 {
			t.Errorf("%s: exact histogram mass %v, want 1", tc.name, mass)
		}
		if !strings.Contains(c.Markdown(), "PASS") {
			t.Errorf("%s: markdown lacks the verdict", tc.name)
		}
	}
	// d = 3: the truncated law is uniform on the band (Archimedes).
	c, err := Band(env.LinearEnvConfig{Dim: 3, K: 10, Gap: 0.1}, 1, 1, 5)
	if err != nil {
		t.Fatal(err)
	}
	for k, f := range c.Exact {
		if want := 1 / (c.Hi - c.Lo); math.Abs(f-want) > 1e-9 {
			t.Errorf("d=3 bin %d: exact density %v, want %v", k, f, want)
		}
	}
	if _, err := Band(env.LinearEnvConfig{Dim: 3, K: 10}, 1, 0, 5); err == nil {
		t.Error("rounds = 0 accepted")
	}
	if _, err := Band(env.LinearEnvConfig{Dim: 3, K: 1}, 1, 5, 5); err == nil {
		t.Error("K = 1 (no sub-optimal action) accepted")
	}
}
