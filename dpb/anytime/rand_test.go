package anytime

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// randCases builds both anytime policies from a *rand.Rand (NewSS18,
// NewDPUCB), epochs of 40, 80, 160 rounds.
func randCases() []struct {
	name   string
	newEnv func() bandit.Environment
	newPol func(rng *rand.Rand) (ownStreamPolicy, error)
} {
	env := snapshotCases() // the environments of the snapshot tests
	lin, karmed := env[0].newEnv, env[len(env)-1].newEnv
	return []struct {
		name   string
		newEnv func() bandit.Environment
		newPol func(rng *rand.Rand) (ownStreamPolicy, error)
	}{
		{"SS18", lin, func(rng *rand.Rand) (ownStreamPolicy, error) {
			return NewSS18(ss18.PolicyConfig{Alg: ss18.Gaussian, Noise: noise.Simulated,
				Setting: ss18.Setting{D: 3, N: 40, Epsilon: 1, Delta: 0.1, Lt2: 2}}, rng)
		}},
		{"DPUCB", karmed, func(rng *rand.Rand) (ownStreamPolicy, error) {
			return NewDPUCB(mt14.DPUCBConfig{Arms: 4, Horizon: 40, Epsilon: 1, Noise: noise.Simulated}, rng)
		}},
	}
}

// A policy built from a *rand.Rand owns a source keyed from it: one seed
// reproduces the run, two seeds give two sources, the caller's generator is
// read exactly four times (at construction, never in the rounds), and a
// snapshot taken at round 60 (epoch 1) and restored into a policy built from
// another seed continues bit-identically to round 280. A policy that drew
// from the caller's generator in its rounds fails the third and fourth
// checks; one that ignored it fails the second.
func TestNewFromRandOwnsItsStream(t *testing.T) {
	const t0, total = 60, 280
	for _, c := range randCases() {
		t.Run(c.name, func(t *testing.T) {
			rng := bandit.Stream(1, 1)
			a, err := c.newPol(rng)
			if err != nil {
				t.Fatal(err)
			}
			envA := c.newEnv()
			rA := bandit.NewRound(envA)
			first := runActions(envA, rA, a, 1, t0)

			// The caller's generator: four draws at construction, none after.
			ref := bandit.Stream(1, 1)
			for range 4 {
				ref.Uint64()
			}
			if got, want := rng.Uint64(), ref.Uint64(); got != want {
				t.Errorf("the caller's generator was not read exactly four times (next draw %#x, want %#x)", got, want)
			}

			// One seed reproduces the run.
			again, _ := c.newPol(bandit.Stream(1, 1))
			envR := c.newEnv()
			rR := bandit.NewRound(envR)
			if rep := runActions(envR, rR, again, 1, t0); !equalInts(rep, first) {
				t.Errorf("the same seed plays differently")
			}
			sa, _ := a.MarshalBinary()
			sr, _ := again.MarshalBinary()
			if !bytes.Equal(sa, sr) {
				t.Errorf("the same seed ends in another state")
			}

			// Another seed keys another source.
			other, _ := c.newPol(bandit.Stream(2, 2))
			fresh, _ := c.newPol(bandit.Stream(1, 1))
			so, _ := other.MarshalBinary()
			sf, _ := fresh.MarshalBinary()
			if bytes.Equal(so, sf) {
				t.Errorf("seeds 1 and 2 give the same random state")
			}

			// Save at t0, restore into other, continue.
			want := runActions(envA, rA, a, t0+1, total)
			wantState, _ := a.MarshalBinary()
			if err := other.UnmarshalBinary(sa); err != nil {
				t.Fatal(err)
			}
			envB := c.newEnv()
			rB := bandit.NewRound(envB)
			for s := 1; s <= t0; s++ {
				envB.Next(rB, s)
			}
			if got := runActions(envB, rB, other, t0+1, total); !equalInts(got, want) {
				t.Errorf("the restored policy plays differently")
			}
			if gotState, _ := other.MarshalBinary(); !bytes.Equal(gotState, wantState) {
				t.Errorf("the restored policy ends in another state")
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A nil generator is a programmer error (panics), as everywhere in dpb.
func TestNewNilRandPanics(t *testing.T) {
	for _, c := range randCases() {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: nil *rand.Rand accepted", c.name)
				}
			}()
			_, _ = c.newPol(nil)
		}()
	}
}
