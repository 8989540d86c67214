package counter

import (
	"encoding"
	"fmt"
	"math/bits"

	"github.com/dpbandits/dpbandits/dpb/internal/snap"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// Snapshot state of the counters (see snapshot.go): the mutable state only;
// the restoring counter is built from the same configuration.

// State is implemented by every Counter. AppendBinary appends the
// counter's mutable state (not its configuration); UnmarshalBinary restores
// it into a counter built with the same configuration, checking it against
// that configuration and refusing trailing bytes. NodeNoise returns the
// node noise, whose own state (a generator, a secure sampler's buffered
// bits) is not the counter's: save it beside it with [noise.AppendState]
// and restore it with [noise.UnmarshalState]. The random source the noise
// draws from is the caller's to save: a counter's state is a part of a
// snapshot, not a snapshot (dpb/anytime's policies write whole ones).
type State interface {
	encoding.BinaryAppender
	encoding.BinaryUnmarshaler
	NodeNoise() noise.Noise
}

var (
	_ State = (*TreeSum)(nil)
	_ State = (*HonakerTree)(nil)
	_ State = (*SmoothBinary)(nil)
	_ State = (*ToeplitzCounter)(nil)
	_ State = (*KaryTree)(nil)
)

func (ts *TreeSum) NodeNoise() noise.Noise { return ts.noise }

func (h *HonakerTree) NodeNoise() noise.Noise { return h.noise }

func (s *SmoothBinary) NodeNoise() noise.Noise { return s.noise }

func (c *ToeplitzCounter) NodeNoise() noise.Noise { return c.noise }

func (c *KaryTree) NodeNoise() noise.Noise { return c.noise }

// readRound reads a round count and checks it against the horizon.
func readRound(d *snap.Dec, horizon int) int {
	t := d.Int()
	if d.Err == nil && (t < 0 || t > horizon) {
		d.Fail(fmt.Errorf("counter: snapshot counter round %d outside [0, %d]", t, horizon))
	}
	return t
}

// AppendBinary appends the counter's state to b (see [State]).
func (h *HonakerTree) AppendBinary(b []byte) ([]byte, error) {
	e := snap.Enc{B: b}
	e.Int(h.t)
	e.F64s(h.exact)
	e.F64s(h.est)
	e.F64s(h.cum)
	if h.grid > 0 {
		e.F64s(h.dat)
	}
	return e.B, nil
}

// UnmarshalBinary restores the state AppendBinary wrote (see [State]). On
// error the counter must not be used.
func (h *HonakerTree) UnmarshalBinary(data []byte) error {
	d := snap.NewDec("counter", data)
	h.t = readRound(d, h.horizon)
	d.F64sTo("counter sum", h.exact)
	d.F64sTo("honaker estimates", h.est)
	d.F64sTo("honaker noise", h.cum)
	if h.grid > 0 {
		d.F64sTo("honaker node sums", h.dat)
		if err := gridState(h.grid, append(h.exact[:len(h.exact):len(h.exact)], h.dat...)); d.Err == nil && err != nil {
			d.Fail(err) // the grid proof's invariants (grid.go)
		}
	}
	return d.Done()
}

// AppendBinary appends the counter's state to b (see [State]).
func (s *SmoothBinary) AppendBinary(b []byte) ([]byte, error) {
	e := snap.Enc{B: b}
	e.Int(s.t)
	e.U64(s.leaf)
	e.F64s(s.exact)
	e.F64s(s.node)
	for j := range s.id {
		e.U64(s.id[j])
		e.Bool(s.valid[j])
	}
	e.F64s(s.sum)
	return e.B, nil
}

// UnmarshalBinary restores the state AppendBinary wrote (see [State]); the
// leaf must be the round's. On error the counter must not be used.
func (s *SmoothBinary) UnmarshalBinary(data []byte) error {
	d := snap.NewDec("counter", data)
	s.t = readRound(d, s.horizon)
	s.leaf = d.U64()
	if d.Err == nil && !s.leafOf(s.t, s.leaf) {
		d.Fail(fmt.Errorf("counter: snapshot smooth-counter leaf %#x is not round %d's", s.leaf, s.t))
	}
	d.F64sTo("counter sum", s.exact)
	d.F64sTo("smooth nodes", s.node)
	for j := range s.id {
		s.id[j] = d.U64()
		s.valid[j] = d.Bool()
	}
	d.F64sTo("smooth noise", s.sum)
	if err := gridState(s.grid, s.exact, s.node, s.sum); d.Err == nil && err != nil {
		d.Fail(err) // the grid proof's invariants (grid.go)
	}
	return d.Done()
}

// leafOf reports whether leaf is round t's label: 0 before the first
// round, else the (t−1)-th number with k ones below 2^(h+1) in increasing
// order (the order Add's Gosper step walks), found by its combinatorial
// rank Σ_i C(c_i, i+1) over its set bits c_0 < c_1 < ….
func (s *SmoothBinary) leafOf(t int, leaf uint64) bool {
	if t == 0 {
		return leaf == 0
	}
	if bits.OnesCount64(leaf) != s.k || bits.Len64(leaf) > s.h+1 {
		return false
	}
	var rank uint64
	i := 0
	for u := leaf; u != 0; u &= u - 1 {
		rank += binomial(bits.TrailingZeros64(u), i+1)
		i++
	}
	return rank == uint64(t-1)
}

// binomial returns C(n, k) for n <= 63 (exact in a uint64).
func binomial(n, k int) uint64 {
	if k < 0 || k > n {
		return 0
	}
	c := uint64(1)
	for j := 1; j <= k; j++ {
		c = c * uint64(n-k+j) / uint64(j)
	}
	return c
}

// AppendBinary appends the counter's state to b (see [State]).
func (c *ToeplitzCounter) AppendBinary(b []byte) ([]byte, error) {
	e := snap.Enc{B: b}
	e.Int(c.t)
	e.F64s(c.exact)
	e.F64s(c.cur)
	e.F64s(c.draws)
	e.F64s(c.buf)
	e.F64s(c.prev)
	if s := c.sec; s != nil {
		e.F64s(s.w)
		e.F64s(s.uh)
		e.F64s(s.ul)
		e.F64s(s.yh)
		e.F64s(s.yl)
	}
	return e.B, nil
}

// UnmarshalBinary restores the state AppendBinary wrote (see [State]). On
// error the counter must not be used.
func (c *ToeplitzCounter) UnmarshalBinary(data []byte) error {
	d := snap.NewDec("counter", data)
	c.t = readRound(d, c.horizon)
	d.F64sTo("counter sum", c.exact)
	d.F64sTo("counter noise", c.cur)
	d.F64sTo("square-root draws", c.draws)
	d.F64sTo("BLT buffers", c.buf)
	d.F64sTo("BLT last draw", c.prev)
	if s := c.sec; s != nil {
		d.F64sTo("secure Toeplitz records", s.w)
		d.F64sTo("secure BLT measurement buffers", s.uh)
		d.F64sTo("secure BLT measurement buffers (low parts)", s.ul)
		d.F64sTo("secure BLT last measurement", s.yh)
		d.F64sTo("secure BLT last measurement (low part)", s.yl)
	}
	return d.Done()
}

// AppendBinary appends the counter's state to b (see [State]).
func (c *KaryTree) AppendBinary(b []byte) ([]byte, error) {
	e := snap.Enc{B: b}
	e.Int(c.t)
	e.F64s(c.exact)
	e.F64s(c.cum)
	return e.B, nil
}

// UnmarshalBinary restores the state AppendBinary wrote (see [State]) and
// rebuilds t's base-k digits (a function of t). On error the counter must
// not be used.
func (c *KaryTree) UnmarshalBinary(data []byte) error {
	d := snap.NewDec("counter", data)
	c.t = readRound(d, c.horizon)
	d.F64sTo("counter sum", c.exact)
	d.F64sTo("k-ary tree noise", c.cum)
	if err := gridState(c.grid, c.exact, c.cum); d.Err == nil && err != nil {
		d.Fail(err) // the grid proof's invariants (grid.go)
	}
	u := c.t
	for i := range c.digit {
		c.digit[i] = u % c.k
		u /= c.k
	}
	return d.Done()
}
