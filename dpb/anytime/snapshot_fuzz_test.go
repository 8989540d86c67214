package anytime

import (
	"crypto/sha256"
	"math/rand/v2"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
)

// Every single-bit flip of a snapshot, and every cut, is refused by
// UnmarshalBinary (issue 40, item 4: 36–82 % of flips used to restore, and
// the policy panicked a few rounds later).
func TestSnapshotBitFlipsRefused(t *testing.T) {
	for _, c := range snapshotCases()[:4] {
		env := c.newEnv()
		r := bandit.NewRound(env)
		a, err := c.newPol(bandit.StreamSource(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		runActions(env, r, a, 1, 50)
		data, err := a.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := c.newPol(bandit.StreamSource(2, 2))
		accepted := 0
		for bit := 0; bit < 8*len(data); bit += 7 {
			flipped := append([]byte(nil), data...)
			flipped[bit/8] ^= 1 << (bit % 8)
			if b.UnmarshalBinary(flipped) == nil {
				accepted++
			}
		}
		if accepted > 0 {
			t.Errorf("%s: %d bit flips restored without error", c.name, accepted)
		}
		if err := b.UnmarshalBinary(data[:len(data)-1]); err == nil {
			t.Errorf("%s: a snapshot cut short restored", c.name)
		}
		if err := b.UnmarshalBinary(data); err != nil {
			t.Errorf("%s: the snapshot itself: %v", c.name, err)
		}
	}
}

// seal appends the SHA-256 trailer, so that the fuzzer reaches the range
// checks behind the checksum.
func seal(b []byte) []byte {
	sum := sha256.Sum256(b)
	return append(append([]byte(nil), b...), sum[:]...)
}

// FuzzSnapshotRestore: any snapshot content (resealed, so that it passes
// the checksum and exercises the range checks) either is refused by
// UnmarshalBinary or restores a policy that then plays 60 rounds, across an
// epoch boundary, without panicking.
func FuzzSnapshotRestore(f *testing.F) {
	cases := snapshotCases()
	for i, c := range cases {
		if i%3 != 0 {
			continue
		}
		for _, t0 := range []int{0, 39, 45} {
			env := c.newEnv()
			r := bandit.NewRound(env)
			a, err := c.newPol(bandit.StreamSource(1, 1))
			if err != nil {
				f.Fatal(err)
			}
			runActions(env, r, a, 1, t0)
			data, err := a.MarshalBinary()
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data[:len(data)-sha256.Size], uint8(i))
		}
	}
	f.Fuzz(func(t *testing.T, payload []byte, which uint8) {
		c := cases[int(which)%len(cases)]
		p, err := c.newPol(rand.NewChaCha8([32]byte{3}))
		if err != nil {
			t.Fatal(err)
		}
		if err := p.UnmarshalBinary(seal(payload)); err != nil {
			return
		}
		env := c.newEnv()
		r := bandit.NewRound(env)
		from := p.Rounds() + 1
		for s := 1; s < from && s < 1000; s++ {
			env.Next(r, s)
		}
		runActions(env, r, p, from, from+59)
	})
}

// A snapshot altered behind a valid checksum (one bit of any word flipped,
// then resealed) is refused by the range checks, or restores a policy that
// plays on without panicking (issue 40, item 4: such flips made the smooth
// counter slice out of bounds, LinUCB play "more rounds than the horizon"
// and V_t lose positive definiteness).
func TestSnapshotRangeChecks(t *testing.T) {
	var cases []snapshotCase
	for i, c := range snapshotCases() {
		if i%2 == 0 {
			cases = append(cases, c)
		}
	}
	flips := []int{0, 8, 52, 63}
	if testing.Short() { // every fourth case (one of each counter), fewer bits
		cases = cases[:0]
		for i, c := range snapshotCases() {
			if i%4 == 0 {
				cases = append(cases, c)
			}
		}
		flips = []int{8, 52, 63}
	}
	for _, c := range cases {
		env := c.newEnv()
		r := bandit.NewRound(env)
		a, err := c.newPol(bandit.StreamSource(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		runActions(env, r, a, 1, 45)
		data, _ := a.MarshalBinary()
		body := data[:len(data)-sha256.Size]
		panics := 0
		for w := 0; w+8 <= len(body); w += 8 {
			for _, bit := range flips {
				b := append([]byte(nil), body...)
				b[w+bit/8] ^= 1 << (bit % 8)
				p, _ := c.newPol(rand.NewChaCha8([32]byte{3}))
				if p.UnmarshalBinary(seal(b)) != nil {
					continue
				}
				func() {
					defer func() {
						if e := recover(); e != nil {
							if panics < 3 {
								t.Errorf("%s: word %d bit %d: restored, then panicked: %v", c.name, w/8, bit, e)
							}
							panics++
						}
					}()
					env := c.newEnv()
					r := bandit.NewRound(env)
					for s := 1; s <= 45; s++ {
						env.Next(r, s)
					}
					runActions(env, r, p, 46, 105)
				}()
			}
		}
		if panics > 0 {
			t.Errorf("%s: %d altered snapshots panicked", c.name, panics)
		}
	}
}
