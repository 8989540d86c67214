package counter

import (
	"strconv"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/noise"
)

// New builds the counter each Config names, with the defaults its fields
// document, and refuses each invalid field with an error naming it.
func TestNewConfig(t *testing.T) {
	z := noise.ZeroNoise{N: 2}
	for _, c := range []struct {
		cfg  Config
		want string // the built counter, by type and parameters
	}{
		{Config{Dim: 2, Horizon: 9, Noise: z}, "tree plain"},
		{Config{Kind: Tree, Dim: 2, Horizon: 9, Noise: z, Mode: Padded}, "tree padded"},
		{Config{Kind: TreePadded, Dim: 2, Horizon: 9, Noise: z}, "tree padded"},
		{Config{Kind: TreePadded, Dim: 2, Horizon: 9, Noise: z, Mode: Padded}, "tree padded"},
		{Config{Kind: Kary, Dim: 2, Horizon: 1000, Noise: z}, "kary"},
		{Config{Kind: Kary, Dim: 2, Horizon: 1000, Noise: z, Arity: 4}, "kary 4"},
		{Config{Kind: BLT, Dim: 2, Horizon: 1000, Noise: z}, "blt default"},
		{Config{Kind: BLT, Dim: 2, Horizon: 1000, Noise: z, Omega: []float64{0.5}, Lambda: []float64{0.5}}, "blt 1"},
	} {
		ctr, err := New(c.cfg)
		if err != nil {
			t.Errorf("%+v: %v", c.cfg, err)
			continue
		}
		var got string
		switch x := ctr.(type) {
		case *TreeSum:
			got = "tree " + x.Mode().String()
		case *KaryTree:
			got = "kary"
			if x.Arity() != KaryArity(1000) {
				got = "kary " + strconv.Itoa(x.Arity())
			}
		case *ToeplitzCounter:
			got = "blt 1"
			if o, _ := BLTParams(1000); x.Buffers() == len(o) {
				got = "blt default"
			}
		}
		if got != c.want {
			t.Errorf("%+v built %q, want %q", c.cfg, got, c.want)
		}
	}
	for _, c := range []struct {
		cfg  Config
		want string // in the error
	}{
		{Config{Kind: Kind(99), Dim: 2, Horizon: 9, Noise: z}, "unknown counter kind 99"},
		{Config{Dim: 0, Horizon: 9, Noise: noise.ZeroNoise{N: 0}}, "dimension"},
		{Config{Dim: 2, Horizon: 0, Noise: z}, "horizon is 0"},
		{Config{Kind: Honaker, Dim: 2, Horizon: 9}, "nil node noise"},
		{Config{Kind: Smooth, Dim: 3, Horizon: 9, Noise: z}, "dimension 2"},
		{Config{Kind: Honaker, Dim: 2, Horizon: 9, Noise: z, Arity: 4}, "arity is 4 for the honaker counter"},
		{Config{Kind: Kary, Dim: 2, Horizon: 9, Noise: z, Arity: 1}, "arity is 1"},
		{Config{Kind: Sqrt, Dim: 2, Horizon: 9, Noise: z, Omega: []float64{1}}, "only the BLT counter"},
		{Config{Kind: BLT, Dim: 2, Horizon: 9, Noise: z, Omega: []float64{1}}, "as many ω as λ"},
		{Config{Kind: BLT, Dim: 2, Horizon: 9, Noise: z, Omega: []float64{1}, Lambda: []float64{1}}, "λ[0] is 1"},
		{Config{Kind: Smooth, Dim: 2, Horizon: 9, Noise: z, Mode: Padded}, "release mode padded for the smooth counter"},
		{Config{Kind: TreePadded, Dim: 2, Horizon: 9, Noise: z, Mode: Plain}, "release mode plain for the tree-padded"},
		{Config{Kind: Tree, Dim: 2, Horizon: 9, Noise: z, Mode: ReleaseMode(7)}, "unknown release mode 7"},
		{Config{Kind: Sqrt, Dim: 2, Horizon: MaxSqrtHorizon + 1, Noise: z}, "above"},
		{Config{Kind: Tree, Dim: 2, Horizon: 9, Noise: z, Bound: DataBound{Entry: -1}}, "data bound is -1"},
	} {
		ctr, err := New(c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one containing %q", c.cfg, err, c.want)
		}
		if ctr != nil {
			t.Errorf("%+v: a non-nil counter beside the error", c.cfg)
		}
	}
}

// The deprecated NewTreeSum (kept for the notebook 00_start_here) still
// refuses an unset release mode, which New reads as the Kind's own.
func TestNewTreeSumRefusesUnsetMode(t *testing.T) {
	if _, err := NewTreeSum(1, 8, noise.ZeroNoise{N: 1}, ModeDefault); err == nil {
		t.Error("NewTreeSum took the unset mode")
	}
}
