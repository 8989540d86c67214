package counter

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/internal/snap"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// Snapshot state of the counters (see snapshot.go): the mutable state only;
// the restoring counter is built from the same configuration.

// CounterState is implemented by every Counter: its snapshot state and its
// node noise (whose own generator state, if any, is saved beside it).
type CounterState interface {
	AppendState(e *snap.Enc)
	ReadState(d *snap.Dec)
	NodeNoise() noise.Noise
}

var (
	_ CounterState = (*TreeSum)(nil)
	_ CounterState = (*HonakerTree)(nil)
	_ CounterState = (*SmoothBinary)(nil)
	_ CounterState = (*ToeplitzCounter)(nil)
	_ CounterState = (*KaryTree)(nil)
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
		d.Fail(fmt.Errorf("dpb: snapshot counter round %d outside [0, %d]", t, horizon))
	}
	return t
}

func (h *HonakerTree) AppendState(e *snap.Enc) {
	e.Int(h.t)
	e.F64s(h.exact)
	e.F64s(h.est)
	e.F64s(h.cum)
}

func (h *HonakerTree) ReadState(d *snap.Dec) {
	h.t = readRound(d, h.horizon)
	d.F64sTo("counter sum", h.exact)
	d.F64sTo("honaker estimates", h.est)
	d.F64sTo("honaker noise", h.cum)
}

func (s *SmoothBinary) AppendState(e *snap.Enc) {
	e.Int(s.t)
	e.U64(s.leaf)
	e.F64s(s.exact)
	e.F64s(s.node)
	for j := range s.id {
		e.U64(s.id[j])
		e.Bool(s.valid[j])
	}
	e.F64s(s.sum)
}

func (s *SmoothBinary) ReadState(d *snap.Dec) {
	s.t = readRound(d, s.horizon)
	s.leaf = d.U64()
	d.F64sTo("counter sum", s.exact)
	d.F64sTo("smooth nodes", s.node)
	for j := range s.id {
		s.id[j] = d.U64()
		s.valid[j] = d.Bool()
	}
	d.F64sTo("smooth noise", s.sum)
}

func (c *ToeplitzCounter) AppendState(e *snap.Enc) {
	e.Int(c.t)
	e.F64s(c.exact)
	e.F64s(c.cur)
	e.F64s(c.draws)
	e.F64s(c.buf)
	e.F64s(c.prev)
}

func (c *ToeplitzCounter) ReadState(d *snap.Dec) {
	c.t = readRound(d, c.horizon)
	d.F64sTo("counter sum", c.exact)
	d.F64sTo("counter noise", c.cur)
	d.F64sTo("square-root draws", c.draws)
	d.F64sTo("BLT buffers", c.buf)
	d.F64sTo("BLT last draw", c.prev)
}

func (c *KaryTree) AppendState(e *snap.Enc) {
	e.Int(c.t)
	e.F64s(c.exact)
	e.F64s(c.cum)
}

// ReadState restores t and rebuilds its base-k digits (a function of t).
func (c *KaryTree) ReadState(d *snap.Dec) {
	c.t = readRound(d, c.horizon)
	d.F64sTo("counter sum", c.exact)
	d.F64sTo("k-ary tree noise", c.cum)
	u := c.t
	for i := range c.digit {
		c.digit[i] = u % c.k
		u /= c.k
	}
}
