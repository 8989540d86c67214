package mt14

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// DPUCB's AppendBinary appends its state after b and UnmarshalBinary
// restores it whole into a policy of the same configuration, for every
// counter; trailing bytes, a cut state, another configuration's state and
// pull counts that disagree with the arm trees are refused with an error
// naming the package that refused it.
func TestDPUCBState(t *testing.T) {
	for _, kind := range []counter.Kind{counter.Tree, counter.Honaker, counter.Smooth, counter.Kary} {
		cfg := DPUCBConfig{Arms: 2, Horizon: 16, Epsilon: 1, Counter: kind, Noise: noise.Simulated}
		newPol := func(c DPUCBConfig, seed uint64) *DPUCB {
			p, err := NewDPUCB(c, bandit.Stream(seed, 1))
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		a := newPol(cfg, 1)
		r := &bandit.Round{K: 2}
		for s := 1; s <= 6; s++ {
			r.T = s
			a.Update(r, a.Choose(r), float64(s%2))
		}
		prefix := []byte("prefix")
		data, err := a.AppendBinary(bytes.Clone(prefix))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, prefix) {
			t.Fatalf("%v: AppendBinary overwrote what b held", kind)
		}
		data = data[len(prefix):]
		b := newPol(cfg, 2)
		if err := b.UnmarshalBinary(data); err != nil {
			t.Fatalf("%v: %v", kind, err)
		}
		if again, _ := b.AppendBinary(nil); !bytes.Equal(again, data) {
			t.Errorf("%v: the restored state appends differently", kind)
		}
		more := cfg
		more.Arms = 3
		pulls := bytes.Clone(data)
		binary.LittleEndian.PutUint64(pulls[8:], binary.LittleEndian.Uint64(pulls[8:])+2) // arm 0's pulls, after the count's length
		for name, c := range map[string]struct {
			into *DPUCB
			data []byte
			want string
		}{
			"trailing byte": {b, append(bytes.Clone(data), 0), "mt14: snapshot has 1 trailing bytes"},
			"cut":           {b, data[:len(data)-1], "snapshot truncated"},
			"empty":         {b, nil, "mt14: snapshot truncated"},
			"other arms":    {newPol(more, 2), data, "mt14: snapshot pull counts has length 2, this policy's configuration has 3"},
			"pulls":         {b, pulls, "mt14: snapshot arm 0 has"},
		} {
			if err := c.into.UnmarshalBinary(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v: %s: err = %v, want one with %q", kind, name, err, c.want)
			}
		}
	}
}

// DPUCBConfig.AppendBinary appends after b and tells configurations apart.
func TestDPUCBConfigFingerprint(t *testing.T) {
	cfg := DPUCBConfig{Arms: 2, Horizon: 16, Epsilon: 1, Noise: noise.Simulated}
	a, _ := cfg.AppendBinary([]byte("x"))
	if a[0] != 'x' {
		t.Fatal("AppendBinary overwrote what b held")
	}
	other := cfg
	other.Counter = counter.Smooth
	b, _ := other.AppendBinary([]byte("x"))
	if bytes.Equal(a, b) {
		t.Error("two configurations have one fingerprint")
	}
}
