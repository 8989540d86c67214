package crosstest

import (
	"math"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

func TestLaplaceRejectsBadScale(t *testing.T) {
	rng := bandit.Stream(1, 1)
	for _, b := range []float64{-1, math.NaN(), math.Inf(1), math.Inf(-1)} {
		msg := testkit.MustPanic(t, func() { noise.Laplace(rng, b) })
		if !strings.Contains(msg, "Laplace scale b is") || !strings.Contains(msg, "must be finite and >= 0") {
			t.Errorf("Laplace(b = %v): panic %q, want the scale message", b, msg)
		}
	}
	for _, b := range []float64{0, 1e-300, 1, 1e300} {
		if msg := testkit.MustPanic(t, func() { noise.Laplace(rng, b) }); msg != "" {
			t.Errorf("Laplace(b = %v) panicked: %s", b, msg)
		}
	}
	if v := noise.Laplace(rng, 0); v != 0 {
		t.Errorf("Laplace(0) = %v, want ±0", v)
	}
}

func TestLaplaceAllocatesNothing(t *testing.T) {
	rng := bandit.Stream(1, 1)
	if a := testing.AllocsPerRun(1000, func() { noise.Laplace(rng, 2) }); a != 0 {
		t.Errorf("Laplace allocates %v per draw", a)
	}
}

func TestLinUCBShortActionsPanicsClearly(t *testing.T) {
	reg, err := ss18.NewRegularizer(ss18.RegularizerConfig{Kind: ss18.RegRidge, Setting: ss18.Setting{D: 3}, Lambda: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ss18.NewLinUCB(ss18.LinUCBConfig{Dim: 3, Horizon: 10, Regularizer: reg})
	if err != nil {
		t.Fatal(err)
	}
	r := &bandit.Round{T: 1, K: 4, Dim: 3, Actions: make([]float64, 3*4-1)}
	msg := testkit.MustPanic(t, func() { p.Choose(r) })
	if want := "Round.Actions has 11 numbers, want K·Dim = 4·3 = 12"; !strings.Contains(msg, want) {
		t.Errorf("panic %q, want %q", msg, want)
	}
	r.Actions = make([]float64, 12)
	if msg := testkit.MustPanic(t, func() { p.Choose(r) }); msg != "" {
		t.Errorf("a full round panicked: %s", msg)
	}
}

// TestDPUCBUpdateWithoutChoose documents the behaviour the issue flagged:
// Update without a preceding Choose is one observation of the arm (the
// delay tests rebuild states that way); observations beyond an arm tree's
// horizon panic with the horizon message instead of overwriting anything.
func TestDPUCBUpdateWithoutChoose(t *testing.T) {
	p, err := mt14.NewDPUCB(mt14.DPUCBConfig{Arms: 2, Horizon: 4, Epsilon: 1, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	r := &bandit.Round{T: 1, K: 2}
	for i := 0; i < 4; i++ {
		p.Update(r, 0, 1)
	}
	msg := testkit.MustPanic(t, func() { p.Update(r, 0, 1) })
	if !strings.Contains(msg, "more rounds than the mechanism's horizon") {
		t.Errorf("fifth observation of a horizon-4 arm: panic %q", msg)
	}
	if msg := testkit.MustPanic(t, func() { p.Update(r, 2, 1) }); !strings.Contains(msg, "arm index out of range") {
		t.Errorf("arm 2 of 2: panic %q", msg)
	}
}
