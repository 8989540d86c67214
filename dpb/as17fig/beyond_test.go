package as17fig

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/harness"
)

func beyondAS17Small(workers int) BeyondConfig {
	return BeyondConfig{Horizons: []int{64, 256}, Epsilon: 1, Reps: 3, Seed: 5, SqrtMaxHorizon: 64, RunOptions: harness.RunOptions{Workers: workers}}
}

// TestBeyondAS17Deterministic: the same seed gives identical results with
// one and two workers, and the square root runs only up to its horizon.
func TestBeyondAS17Deterministic(t *testing.T) {
	a, err := Beyond(beyondAS17Small(1))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Beyond(beyondAS17Small(2))
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Panels) != 3 {
		t.Fatalf("%d panels, want experts, sphere, cube", len(a.Panels))
	}
	for i := range a.Panels {
		if !reflect.DeepEqual(a.Panels[i].Cells, b.Panels[i].Cells) {
			t.Errorf("%s: cells differ between 1 and 2 workers", a.Panels[i].Row)
		}
	}
	if a.Markdown() != b.Markdown() {
		t.Error("markdown differs between 1 and 2 workers")
	}
	for _, p := range a.Panels {
		for v, va := range a.Variants {
			ran := 0
			for _, c := range p.Cells {
				if c.Variant == va.Name {
					ran++
				}
			}
			want := 2
			if va.Gaussian && va.Counter == counter.Sqrt {
				want = 1
				if !math.IsNaN(p.Regret.Mean[v][1]) {
					t.Errorf("%s: sqrt ran beyond its horizon", p.Row)
				}
			}
			if ran != want {
				t.Errorf("%s %s: %d cells, want %d", p.Row, va.Name, ran, want)
			}
		}
		// Non-private excess is 0 by construction (paired with itself).
		if p.Excess.Mean[0][1] != 0 {
			t.Errorf("%s: non-private excess %v", p.Row, p.Excess.Mean[0][1])
		}
	}
	// A different seed changes the private runs.
	c := beyondAS17Small(2)
	c.Seed++
	d, err := Beyond(c)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(a.Panels[0].Cells, d.Panels[0].Cells) {
		t.Error("seed ignored")
	}
}

func TestBeyondAS17Config(t *testing.T) {
	for _, c := range []struct {
		mod  func(*BeyondConfig)
		want string
	}{
		{func(c *BeyondConfig) { c.Horizons = nil }, "horizons"},
		{func(c *BeyondConfig) { c.Horizons = []int{256, 64} }, "increase"},
		{func(c *BeyondConfig) { c.Reps = 0 }, "reps"},
		{func(c *BeyondConfig) { c.Epsilon = 0 }, "epsilon"},
		{func(c *BeyondConfig) { c.Epsilon = math.Inf(1) }, "epsilon"},
		{func(c *BeyondConfig) { c.Delta = 1 }, "delta"},
		{func(c *BeyondConfig) { c.Delta = math.NaN() }, "delta"},
		{func(c *BeyondConfig) { c.SqrtMaxHorizon = -1 }, "sqrt"},
		{func(c *BeyondConfig) { c.Sets = []as17.DecisionSet{as17.DecisionSet(9)} }, "decision set"},
	} {
		cfg := beyondAS17Small(1)
		c.mod(&cfg)
		if _, err := Beyond(cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want an error naming %q, got %v", c.want, err)
		}
	}
	if got := (BeyondConfig{}).DeltaAt(1000); got != 1e-3 {
		t.Errorf("δ default at T = 1000: %v, want 1/T", got)
	}
	if got := (BeyondConfig{Delta: 0.01}).DeltaAt(1000); got != 0.01 {
		t.Errorf("δ set: %v", got)
	}
}

func TestFitSlopeText(t *testing.T) {
	for _, c := range []struct {
		f    harness.Fit
		want string
	}{
		{harness.Fit{Slope: 0.5, SlopeSE: 0.01, Points: 4}, "0.50 ± 0.01"},
		{harness.Fit{Slope: 0.45, SlopeSE: math.NaN(), Points: 2}, "0.45 (2 points)"},
		{harness.Fit{Slope: math.NaN(), SlopeSE: math.NaN()}, "—"},
	} {
		if got := c.f.SlopeText(); got != c.want {
			t.Errorf("%+v.SlopeText() = %q, want %q", c.f, got, c.want)
		}
	}
}
