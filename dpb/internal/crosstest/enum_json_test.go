package crosstest

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/as17fig"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/mt14fig"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// TestConfigJSONEnumNames: the configurations figure JSON and store keys
// record hold their enums by name ("counter": "blt", not 5), and read back.
// It fails for any enum field encoded as an integer.
func TestConfigJSONEnumNames(t *testing.T) {
	mode := counter.Padded
	for _, c := range []struct {
		v    any
		want []string
	}{
		{mt14fig.Fig1Config{Arms: 2, Counters: []counter.Kind{counter.BLT, counter.Honaker}},
			[]string{`"counters":["blt","honaker"]`}},
		{mt14fig.Fig2Config{Mechanisms: []mt14.ContextMechanism{mt14.ContextEntryTrees, mt14.ContextSS18Tree}},
			[]string{`"Mechanisms":["entry-trees","ss18-tree"]`}},
		{as17fig.BeyondConfig{}.WithDefaults(), []string{`["simplex","ball","cube"]`}},
		{as17.LossConfig{Set: as17.Cube, Kind: as17.Switching}, []string{`"cube"`, `"switching"`}},
		{ss18.PolicyConfig{Alg: ss18.GaussianBLT, Mode: mode, Noise: noise.Secure}, []string{`"Mode":"padded"`, `"Noise":"secure"`}},
		{struct {
			S ss18.ShiftMode
			R ss18.RadiusForm
			M *counter.ReleaseMode
		}{ss18.ShiftNone, ss18.RadiusMinEig, &mode}, []string{`"S":"none"`, `"R":"mineig"`, `"M":"padded"`}},
	} {
		b, err := json.Marshal(c.v)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%T encodes as %s: want %s in it", c.v, b, w)
			}
		}
	}
	for _, name := range []string{"counter", "counters", "mode", "Mode", "Noise", "Mechanisms", "sets", "Set", "Kind", "kind"} {
		b, _ := json.Marshal(struct {
			A mt14fig.Fig1Config
			B as17fig.BeyondConfig
			C ss18.PolicyConfig
			D mt14fig.Fig2Config
		}{mt14fig.Fig1Config{Counters: []counter.Kind{counter.Kary}}, as17fig.BeyondConfig{}.WithDefaults(), ss18.PolicyConfig{Mode: mode, Noise: noise.Simulated}, mt14fig.Fig2Config{Mechanisms: []mt14.ContextMechanism{mt14.ContextSS18Tree}}})
		if m := regexp.MustCompile(`"` + name + `":\[?[0-9]`).Find(b); m != nil {
			t.Errorf("an integer enum: %s in %s", m, b)
		}
	}
	var back struct {
		K []counter.Kind
		S as17.DecisionSet
	}
	if err := json.Unmarshal([]byte(`{"K":["blt","kary"],"S":"ball"}`), &back); err != nil || len(back.K) != 2 || back.K[1] != counter.Kary || back.S != as17.Ball {
		t.Errorf("read back %+v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"K":[5]}`), &back); err == nil {
		t.Error("an integer counter read back")
	}
	// The unset release mode (resolved by each policy) reads back too.
	var m struct{ M counter.ReleaseMode }
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	m.M = counter.Padded
	if err := json.Unmarshal(b, &m); err != nil || m.M != counter.ModeDefault {
		t.Errorf("%s read back as %v, %v", b, m.M, err)
	}
}
