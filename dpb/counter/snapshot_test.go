package counter

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/noise"
)

// newStateCounter builds a counter of kind over horizon rounds of
// dim-vectors on Laplace node noise seeded by seed.
func newStateCounter(t *testing.T, kind Kind, dim, horizon int, seed uint64) Counter {
	t.Helper()
	nz, err := noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: noise.Simulated, Dim: dim, Scale: 1}, rand.New(rand.NewPCG(seed, 0)))
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(Config{Kind: kind, Dim: dim, Horizon: horizon, Noise: nz})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Every counter's AppendBinary appends its state after b, and its
// UnmarshalBinary restores it into a counter of the same configuration (the
// same release, the same state appended again).
func TestCounterStateRoundTrip(t *testing.T) {
	for _, kind := range Kinds {
		a := newStateCounter(t, kind, 2, 16, 1)
		for r := range 7 {
			a.Add([]float64{float64(r), -0.5})
		}
		prefix := []byte("prefix")
		data, err := a.(State).AppendBinary(bytes.Clone(prefix))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, prefix) {
			t.Fatalf("%v: AppendBinary overwrote what b held", kind)
		}
		data = data[len(prefix):]
		b := newStateCounter(t, kind, 2, 16, 2)
		if err := b.(State).UnmarshalBinary(data); err != nil {
			t.Fatalf("%v: %v", kind, err)
		}
		if b.Rounds() != 7 {
			t.Errorf("%v: restored %d rounds, want 7", kind, b.Rounds())
		}
		if got, want := b.SumTo(nil), a.SumTo(nil); got[0] != want[0] || got[1] != want[1] {
			t.Errorf("%v: restored release %v, want %v", kind, got, want)
		}
		again, _ := b.(State).AppendBinary(nil)
		if !bytes.Equal(again, data) {
			t.Errorf("%v: the restored state appends differently", kind)
		}
	}
}

// UnmarshalBinary refuses trailing bytes, a cut state, the state of another
// configuration, a round past the horizon and a non-finite value, with an
// error that starts with the package's name.
func TestCounterStateRefused(t *testing.T) {
	for _, kind := range Kinds {
		a := newStateCounter(t, kind, 2, 16, 1)
		for r := range 5 {
			a.Add([]float64{float64(r), 1})
		}
		data, _ := a.(State).AppendBinary(nil)
		b := newStateCounter(t, kind, 2, 16, 2)
		past := bytes.Clone(data)
		binary.LittleEndian.PutUint64(past, 17) // the round, the first field
		for name, c := range map[string]struct {
			into Counter
			data []byte
			want string
		}{
			"trailing byte":      {b, append(bytes.Clone(data), 0), "counter: snapshot has 1 trailing bytes"},
			"cut":                {b, data[:len(data)-1], "counter: snapshot truncated"},
			"empty":              {b, nil, "counter: snapshot truncated"},
			"other dimension":    {newStateCounter(t, kind, 3, 16, 2), data, "this policy's configuration has"},
			"round past horizon": {b, past, "outside [0, 16]"},
			"other horizon":      {newStateCounter(t, kind, 2, 64, 2), data, "counter: "},
			"the state itself":   {b, data, ""},
		} {
			err := c.into.(State).UnmarshalBinary(c.data)
			if c.want == "" {
				if err != nil {
					t.Errorf("%v: %s: %v", kind, name, err)
				}
				continue
			}
			if err == nil || !strings.HasPrefix(err.Error(), "counter: ") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v: %s: err = %v, want one with %q", kind, name, err, c.want)
			}
		}
	}
	// A NaN in the tree's exact sum (after the round and the sum's length).
	a := newStateCounter(t, Tree, 2, 16, 1)
	a.Add([]float64{1, 2})
	data, _ := a.(State).AppendBinary(nil)
	binary.LittleEndian.PutUint64(data[16:], math.Float64bits(math.NaN()))
	err := newStateCounter(t, Tree, 2, 16, 2).(State).UnmarshalBinary(data)
	if want := "counter: snapshot tree sum[0] is NaN, want a finite number"; err == nil || err.Error() != want {
		t.Errorf("NaN: err = %v, want %q", err, want)
	}
}
