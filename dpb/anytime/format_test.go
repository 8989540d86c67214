package anytime

import (
	"os"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// formatPolicies are the policies of the snapshots in testdata: an SS18
// (Gaussian, d = 2, n₀ = 8) after 5 rounds of a linear environment with
// K = 3 (seed 1), and a DP-UCB (2 arms, T₀ = 8) after 5 rounds of rewards
// t mod 2, both simulated noise on bandit.StreamSource(1, 1); the files
// ending in -format3.snap were written by snapshot format 3.
func formatPolicies() map[string]func() ownStreamPolicy {
	return map[string]func() ownStreamPolicy{
		"ss18": func() ownStreamPolicy {
			p, err := NewSS18FromSource(ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: ss18.Setting{D: 2, N: 8, Epsilon: 1, Delta: 0.1, Lt2: 2}, Noise: noise.Simulated}, bandit.StreamSource(2, 2))
			if err != nil {
				panic(err)
			}
			return p
		},
		"dpucb": func() ownStreamPolicy {
			p, err := NewDPUCBFromSource(mt14.DPUCBConfig{Arms: 2, Horizon: 8, Epsilon: 1, Noise: noise.Simulated}, bandit.StreamSource(2, 2))
			if err != nil {
				panic(err)
			}
			return p
		},
	}
}

// A snapshot of format 3 (testdata, written by the code of that format) is
// refused with the format error, not read as the current format.
func TestSnapshotFormat3Refused(t *testing.T) {
	for name, newPol := range formatPolicies() {
		data, err := os.ReadFile("testdata/" + name + "-format3.snap")
		if err != nil {
			t.Fatal(err)
		}
		err = newPol().UnmarshalBinary(data)
		if want := "anytime: snapshot format 3, this code reads 4"; err == nil || err.Error() != want {
			t.Errorf("%s: err = %v, want %q", name, err, want)
		}
	}
}
