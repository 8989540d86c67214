package noise

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/internal/snap"
)

// AppendState appends to b the part of a node noise's state that is not
// the shared *rand.Rand: the symmetrised Gaussian's and the Wishart's own
// generators, and the secure sampler's buffered bits ([SecureNoise]).
// Noises without such state (Laplace, Gaussian) append nothing.
func AppendState(b []byte, n Noise) []byte {
	e := snap.Enc{B: b}
	switch g := n.(type) {
	case *SymGaussianNoise:
		e.U64(g.f.S)
	case *WishartNoise:
		e.U64(g.f.S)
	case *SecureNoise:
		g.appendState(&e)
	}
	return e.B
}

// UnmarshalState restores into n, built from the same configuration as the
// noise saved, the state AppendState wrote; data must be all of it (a
// noise without state takes no bytes). On error n must not be used.
func UnmarshalState(n Noise, data []byte) error {
	d := snap.NewDec("noise", data)
	switch g := n.(type) {
	case *SymGaussianNoise:
		g.f.S = d.U64()
	case *WishartNoise:
		g.f.S = d.U64()
	case *SecureNoise:
		g.readState(d)
	}
	return d.Done()
}

// appendState writes whether s draws seeded bits and, if it does, the bits
// it has buffered from the seeded stream but not used (with the stream's own
// state, saved by the policy, a restored sampler continues bit for bit). A
// sampler on crypto/rand saves no bits: the restored one draws fresh ones,
// so no random bit is ever used twice.
func (s *SecureNoise) appendState(e *snap.Enc) {
	c := s.src
	seeded := c.entropy != nil
	e.Bool(seeded)
	if !seeded {
		return
	}
	e.Bytes(c.buf[:])
	e.Int(c.i)
	e.U64(c.pool)
	e.Int(int(c.nbits))
}

func (s *SecureNoise) readState(d *snap.Dec) {
	c := s.src
	seeded := d.Bool()
	if d.Err != nil {
		return
	}
	if seeded != (c.entropy != nil) {
		d.Fail(fmt.Errorf("noise: snapshot of a secure sampler on seeded bits %v restored into one on seeded bits %v", seeded, c.entropy != nil))
		return
	}
	if !seeded {
		c.i, c.pool, c.nbits = len(c.buf), 0, 0 // fresh crypto/rand bits from here
		return
	}
	b := d.Bytes()
	i, pool, nbits := d.Int(), d.U64(), d.Int()
	if d.Err != nil {
		return
	}
	if len(b) != len(c.buf) || i < 0 || i > len(c.buf) || nbits < 0 || nbits > 64 {
		d.Fail(fmt.Errorf("noise: snapshot secure sampler state out of range (%d buffered bytes, position %d, %d pooled bits)", len(b), i, nbits))
		return
	}
	copy(c.buf[:], b)
	c.i, c.pool, c.nbits = i, pool, uint(nbits)
}
