package plot

import (
	"bytes"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/check"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// TestRoundRatios is the smoke test of the regularizer notebook's figure
// path: a tiny tree check, its per-round curves, the plot, SVG.
func TestRoundRatios(t *testing.T) {
	_, rounds, err := check.TreeRegularizers(check.TreeConfig{
		Setting: ss18.Setting{D: 2, N: 16, Epsilon: 1, Delta: 0.1, Lt2: 2}, Reps: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	c, err := rounds.Curves(100, "wishart/plain/shifted/ρ_min", "wishart/padded/shifted/ρ_min")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rounds.Curves(100, "no such bound"); err == nil {
		t.Error("unknown bound name accepted")
	}
	p, err := RoundRatios(c, "test")
	if err != nil {
		t.Fatal(err)
	}
	svg, err := Render(p, "svg")
	if err != nil || !bytes.Contains(svg, []byte("<svg")) {
		t.Fatalf("render: %v", err)
	}
}
