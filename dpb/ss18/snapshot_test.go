package ss18

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// LinUCB's AppendBinary appends its state after b and UnmarshalBinary
// restores it whole into a policy of the same configuration (the ridge
// baseline and a tree regularizer); trailing bytes, a cut state, another
// configuration's state and a round past the horizon are refused with an
// error naming the package that refused it.
func TestLinUCBState(t *testing.T) {
	set := Setting{D: 2, N: 16, Epsilon: 1, Delta: 0.1, Lt2: 2}
	newPol := func(alg Alg, s Setting, seed uint64) *LinUCB {
		p, err := NewPolicy(PolicyConfig{Alg: alg, Setting: s, Noise: noise.Simulated}, bandit.Stream(seed, 1))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, alg := range []Alg{NonPrivate, Gaussian} {
		a := newPol(alg, set, 1)
		env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 2, K: 3, Gap: 0.1}, bandit.Stream(1, 0))
		if err != nil {
			t.Fatal(err)
		}
		r := bandit.NewRound(env)
		for s := 1; s <= 6; s++ {
			env.Next(r, s)
			arm := a.Choose(r)
			a.Update(r, arm, env.Reward(r, arm))
		}
		prefix := []byte("prefix")
		data, err := a.AppendBinary(bytes.Clone(prefix))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, prefix) {
			t.Fatalf("%v: AppendBinary overwrote what b held", alg)
		}
		data = data[len(prefix):]
		b := newPol(alg, set, 2)
		if err := b.UnmarshalBinary(data); err != nil {
			t.Fatalf("%v: %v", alg, err)
		}
		if b.Rounds() != 6 {
			t.Errorf("%v: restored %d rounds, want 6", alg, b.Rounds())
		}
		if again, _ := b.AppendBinary(nil); !bytes.Equal(again, data) {
			t.Errorf("%v: the restored state appends differently", alg)
		}
		wider := set
		wider.D = 3
		past := bytes.Clone(data)
		past[0] = 17 // the round, the first field (little-endian)
		for name, c := range map[string]struct {
			into *LinUCB
			data []byte
			want string
		}{
			"trailing byte":   {b, append(bytes.Clone(data), 0), "ss18: snapshot has 1 trailing bytes"},
			"cut":             {b, data[:len(data)-1], "ss18: snapshot truncated"},
			"empty":           {b, nil, "ss18: snapshot truncated"},
			"other dimension": {newPol(alg, wider, 2), data, "has length"},
			"past horizon":    {b, past, "outside [0, 16]"},
		} {
			if err := c.into.UnmarshalBinary(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v: %s: err = %v, want one with %q", alg, name, err, c.want)
			}
		}
	}
}

// PolicyConfig.AppendBinary appends after b and tells configurations apart.
func TestPolicyConfigFingerprint(t *testing.T) {
	cfg := PolicyConfig{Alg: Gaussian, Setting: Setting{D: 2, N: 16, Epsilon: 1, Delta: 0.1, Lt2: 2}, Noise: noise.Simulated}
	a, _ := cfg.AppendBinary([]byte("x"))
	if a[0] != 'x' {
		t.Fatal("AppendBinary overwrote what b held")
	}
	other := cfg
	other.Setting.Epsilon = 2
	b, _ := other.AppendBinary([]byte("x"))
	if bytes.Equal(a, b) {
		t.Error("two configurations have one fingerprint")
	}
}
