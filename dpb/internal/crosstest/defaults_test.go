package crosstest

import (
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/anytime"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

var svcSetting = ss18.Setting{D: 3, N: 64, Epsilon: 1, Delta: 1e-3, Lt2: 2}

// A config without Alg is an error, not a non-private policy; NonPrivate
// by name builds. (Before the zero Alg was NonPrivate: the first check
// failed.)
func TestZeroAlgIsAnError(t *testing.T) {
	if p, err := ss18.NewPolicy(ss18.PolicyConfig{Setting: svcSetting}, bandit.Stream(1, 1)); err == nil {
		t.Fatalf("zero Alg built %v with no error", p.Regularizer())
	} else if !strings.Contains(err.Error(), "unset") {
		t.Errorf("zero Alg: error %q does not say the Alg is unset", err)
	}
	if _, err := anytime.NewSS18FromSource(ss18.PolicyConfig{Setting: svcSetting}, bandit.StreamSource(1, 1)); err == nil {
		t.Errorf("anytime: zero Alg built a policy")
	}
	if _, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: ss18.NonPrivate, Setting: svcSetting}, bandit.Stream(1, 1)); err != nil {
		t.Errorf("NonPrivate by name: %v", err)
	}
}

// An unset Mode gives the padded tree, the mode SS18 Propositions 9 and 11
// assume; Plain is there when named; a bare counter refuses the unset mode;
// MT14's DP-UCB keeps its binary mechanism. (Before, the unset Mode gave a
// plain tree: the first check failed.)
func TestModeDefaultsToWhatTheBoundsNeed(t *testing.T) {
	for _, alg := range []ss18.Alg{ss18.Gaussian, ss18.Wishart} {
		for _, c := range []struct {
			set, want counter.ReleaseMode
		}{{counter.ModeDefault, counter.Padded}, {counter.Plain, counter.Plain}, {counter.Padded, counter.Padded}} {
			p, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: alg, Setting: svcSetting, Mode: c.set, Noise: noise.Simulated}, bandit.Stream(1, 1))
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Regularizer().(*ss18.TreeRegularizer).Tree().Mode(); got != c.want {
				t.Errorf("%v with Mode %v: tree is %v, want %v", alg, c.set, got, c.want)
			}
		}
	}
	if _, err := counter.NewTreeSum(1, 8, noise.ZeroNoise{N: 1}, counter.ModeDefault); err == nil {
		t.Errorf("NewTreeSum took the unset mode")
	}
	a, err := mt14.NewDPUCB(mt14.DPUCBConfig{Arms: 2, Horizon: 16, Epsilon: 1, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	b, err := mt14.NewDPUCB(mt14.DPUCBConfig{Arms: 2, Horizon: 16, Epsilon: 1, Mode: counter.Plain, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	r := &bandit.Round{K: 2}
	for t0 := 1; t0 <= 16; t0++ {
		r.T = t0
		arm := a.Choose(r)
		if arm2 := b.Choose(r); arm2 != arm {
			t.Fatalf("DP-UCB round %d: unset Mode played %d, Plain %d", t0, arm, arm2)
		}
		a.Update(r, arm, float64(t0%2))
		b.Update(r, arm, float64(t0%2))
	}
}
