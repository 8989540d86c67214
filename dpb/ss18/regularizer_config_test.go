package ss18

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// treeReg is the *TreeRegularizer a private kind of NewRegularizer returns
// (nil on error).
func treeReg(r Regularizer, err error) (*TreeRegularizer, error) {
	if err != nil {
		return nil, err
	}
	return r.(*TreeRegularizer), nil
}

// NewRegularizer builds, for each kind, the regularizer the kind names,
// bit-identical to the constructor behind it from the same seed (the
// released statistics after 30 rounds compared bit for bit), so NewPolicy
// and the migrated callers release what they did.
func TestNewRegularizerBuildsTheNamedKind(t *testing.T) {
	const d, n = 3, 64
	s := testSetting(d, n)
	for _, c := range []struct {
		cfg  RegularizerConfig
		want func(rng *rand.Rand) (Regularizer, error)
	}{
		{RegularizerConfig{Kind: RegRidge, Setting: Setting{D: d}, Lambda: 2}, func(*rand.Rand) (Regularizer, error) { return newRidge(d, 2) }},
		{RegularizerConfig{Kind: RegRidge, Setting: Setting{D: d}}, func(*rand.Rand) (Regularizer, error) { return newRidge(d, 1) }},
		{RegularizerConfig{Kind: RegWishartTree, Setting: s, Mode: counter.Plain, Shift: ShiftNone, Noise: noise.Simulated}, func(r *rand.Rand) (Regularizer, error) {
			return newWishartTree(RegularizerConfig{Setting: s, Mode: counter.Plain, Shift: ShiftNone, Noise: noise.Simulated}, r)
		}},
		{RegularizerConfig{Kind: RegGaussianTree, Setting: s, Noise: noise.Simulated}, func(r *rand.Rand) (Regularizer, error) {
			return newGaussianTree(RegularizerConfig{Setting: s, Noise: noise.Simulated}, r)
		}},
		{RegularizerConfig{Kind: RegGaussianTree, Setting: s, Noise: noise.SecureSeeded}, func(r *rand.Rand) (Regularizer, error) {
			return newGaussianTree(RegularizerConfig{Setting: s, Noise: noise.SecureSeeded}, r)
		}},
		{RegularizerConfig{Kind: RegGaussianCounter, Setting: s, Counter: counter.Honaker, Noise: noise.Simulated}, func(r *rand.Rand) (Regularizer, error) {
			return newGaussianCounterReg(s, counter.Honaker, noise.Simulated, r)
		}},
		{RegularizerConfig{Kind: RegGaussianCounter, Setting: s, Counter: counter.BLT, Noise: noise.SecureSeeded}, func(r *rand.Rand) (Regularizer, error) {
			return newGaussianCounterReg(s, counter.BLT, noise.SecureSeeded, r)
		}},
		{RegularizerConfig{Kind: RegGaussianCounterSharp, Setting: s, Counter: counter.BLT, Noise: noise.Simulated}, func(r *rand.Rand) (Regularizer, error) {
			return newGaussianCounterRegSharp(s, counter.BLT, noise.Simulated, r)
		}},
		{RegularizerConfig{Kind: RegGaussianCounterRound, Setting: s, Counter: counter.Sqrt, Noise: noise.Simulated}, func(r *rand.Rand) (Regularizer, error) {
			return newGaussianCounterRegRound(s, counter.Sqrt, noise.Simulated, r)
		}},
	} {
		got, err := NewRegularizer(c.cfg, bandit.Stream(3, 1))
		if err != nil {
			t.Errorf("%+v: %v", c.cfg, err)
			continue
		}
		want, err := c.want(bandit.Stream(3, 1))
		if err != nil {
			t.Fatal(err)
		}
		if got.Bounds() != want.Bounds() {
			t.Errorf("%v: bounds %+v, want %+v", c.cfg.Kind, got.Bounds(), want.Bounds())
		}
		data := bandit.Stream(9, 9)
		x := make([]float64, d)
		vg, ug := make([]float64, d*d), make([]float64, d)
		vw, uw := make([]float64, d*d), make([]float64, d)
		for range 30 {
			for i := range x {
				x[i] = (data.Float64() - 0.5) / 2
			}
			y := data.Float64() - 0.5
			got.Add(x, y)
			want.Add(x, y)
		}
		got.StatsTo(vg, ug)
		want.StatsTo(vw, uw)
		for i := range vg {
			if math.Float64bits(vg[i]) != math.Float64bits(vw[i]) {
				t.Errorf("%v: V[%d] is %v, want %v", c.cfg.Kind, i, vg[i], vw[i])
				break
			}
		}
		for i := range ug {
			if math.Float64bits(ug[i]) != math.Float64bits(uw[i]) {
				t.Errorf("%v: u[%d] is %v, want %v", c.cfg.Kind, i, ug[i], uw[i])
				break
			}
		}
	}
}

// NewRegularizer refuses an unset kind, a field its kind does not read and
// the invalid values the constructors check, with an error naming the field,
// and never returns a regularizer beside an error. The unset Noise is the
// secure sampler for every private kind (the Wishart refuses it).
func TestNewRegularizerConfigErrors(t *testing.T) {
	s := testSetting(3, 64)
	for _, c := range []struct {
		cfg  RegularizerConfig
		want string
	}{
		{RegularizerConfig{Setting: s}, "regularizer kind unset"},
		{RegularizerConfig{Kind: RegKind(42), Setting: s}, "unknown regularizer kind 42"},
		{RegularizerConfig{Kind: RegRidge, Setting: Setting{D: 3}, Lambda: -1}, "ridge lambda"},
		{RegularizerConfig{Kind: RegRidge, Setting: Setting{D: 0}}, "dimension"},
		{RegularizerConfig{Kind: RegRidge, Setting: Setting{D: 3}, Noise: noise.Simulated}, "draws nothing"},
		{RegularizerConfig{Kind: RegGaussianTree, Setting: s, Lambda: 1, Noise: noise.Simulated}, "only RegRidge"},
		{RegularizerConfig{Kind: RegGaussianTree, Setting: s, Counter: counter.BLT, Noise: noise.Simulated}, "counter blt set for the gaussian-tree"},
		{RegularizerConfig{Kind: RegGaussianCounter, Setting: s, Mode: counter.Plain, Noise: noise.Simulated}, "release mode plain"},
		{RegularizerConfig{Kind: RegGaussianCounter, Setting: s, Shift: ShiftNone, Noise: noise.Simulated}, "only the tree kinds take one"},
		{RegularizerConfig{Kind: RegGaussianTree, Setting: s, K: 9, Noise: noise.Simulated}, "degrees of freedom 9"},
		{RegularizerConfig{Kind: RegWishartTree, Setting: s, Upsilon: 2, Noise: noise.Simulated}, "only RegGaussianTree"},
		{RegularizerConfig{Kind: RegGaussianCounterRound, Setting: s, Counter: counter.Honaker, Noise: noise.Simulated}, "never decreases"},
		{RegularizerConfig{Kind: RegGaussianCounter, Setting: s, Noise: noise.Mode(9)}, "unknown noise mode 9"},
		{RegularizerConfig{Kind: RegWishartTree, Setting: s}, "Noise is unset"},
		{RegularizerConfig{Kind: RegGaussianCounter, Setting: Setting{D: 3, N: 64, Epsilon: -1, Delta: 0.1, Lt2: 2}, Noise: noise.Simulated}, "epsilon"},
	} {
		r, err := NewRegularizer(c.cfg, bandit.Stream(1, 1))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one containing %q", c.cfg, err, c.want)
		}
		if r != nil {
			t.Errorf("%+v: a non-nil regularizer beside the error", c.cfg)
		}
	}
	for _, k := range []RegKind{RegGaussianTree, RegGaussianCounter, RegGaussianCounterSharp, RegGaussianCounterRound} {
		cfg := RegularizerConfig{Kind: k, Setting: s}
		if k != RegGaussianTree {
			cfg.Counter = counter.TreePadded
		}
		r, err := treeReg(NewRegularizer(cfg, bandit.Stream(1, 1)))
		if err != nil {
			t.Fatalf("%v: %v", k, err)
		}
		if m := r.Privacy().Noise; m != noise.Secure.String() {
			t.Errorf("%v with Noise unset runs on %v noise, want secure", k, m)
		}
	}
}
