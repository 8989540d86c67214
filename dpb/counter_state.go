package dpb

import "fmt"

// Snapshot state of the counters (see snapshot.go): the mutable state only;
// the restoring counter is built from the same configuration.

// counterState is implemented by every Counter: its snapshot state and its
// node noise (whose own generator state, if any, is saved beside it).
type counterState interface {
	appendState(e *enc)
	readState(d *dec)
	nodeNoise() Noise
}

var (
	_ counterState = (*TreeSum)(nil)
	_ counterState = (*HonakerTree)(nil)
	_ counterState = (*SmoothBinary)(nil)
	_ counterState = (*ToeplitzCounter)(nil)
	_ counterState = (*KaryTree)(nil)
)

func (ts *TreeSum) nodeNoise() Noise { return ts.noise }

func (h *HonakerTree) nodeNoise() Noise { return h.noise }

func (s *SmoothBinary) nodeNoise() Noise { return s.noise }

func (c *ToeplitzCounter) nodeNoise() Noise { return c.noise }

func (c *KaryTree) nodeNoise() Noise { return c.noise }

// readRound reads a round count and checks it against the horizon.
func readRound(d *dec, horizon int) int {
	t := d.int()
	if d.err == nil && (t < 0 || t > horizon) {
		d.fail(fmt.Errorf("dpb: snapshot counter round %d outside [0, %d]", t, horizon))
	}
	return t
}

func (h *HonakerTree) appendState(e *enc) {
	e.int(h.t)
	e.f64s(h.exact)
	e.f64s(h.est)
	e.f64s(h.cum)
}

func (h *HonakerTree) readState(d *dec) {
	h.t = readRound(d, h.horizon)
	d.f64sTo("counter sum", h.exact)
	d.f64sTo("honaker estimates", h.est)
	d.f64sTo("honaker noise", h.cum)
}

func (s *SmoothBinary) appendState(e *enc) {
	e.int(s.t)
	e.u64(s.leaf)
	e.f64s(s.exact)
	e.f64s(s.node)
	for j := range s.id {
		e.u64(s.id[j])
		e.bool(s.valid[j])
	}
	e.f64s(s.sum)
}

func (s *SmoothBinary) readState(d *dec) {
	s.t = readRound(d, s.horizon)
	s.leaf = d.u64()
	d.f64sTo("counter sum", s.exact)
	d.f64sTo("smooth nodes", s.node)
	for j := range s.id {
		s.id[j] = d.u64()
		s.valid[j] = d.bool()
	}
	d.f64sTo("smooth noise", s.sum)
}

func (c *ToeplitzCounter) appendState(e *enc) {
	e.int(c.t)
	e.f64s(c.exact)
	e.f64s(c.cur)
	e.f64s(c.draws)
	e.f64s(c.buf)
	e.f64s(c.prev)
}

func (c *ToeplitzCounter) readState(d *dec) {
	c.t = readRound(d, c.horizon)
	d.f64sTo("counter sum", c.exact)
	d.f64sTo("counter noise", c.cur)
	d.f64sTo("square-root draws", c.draws)
	d.f64sTo("BLT buffers", c.buf)
	d.f64sTo("BLT last draw", c.prev)
}

func (c *KaryTree) appendState(e *enc) {
	e.int(c.t)
	e.f64s(c.exact)
	e.f64s(c.cum)
}

// readState restores t and rebuilds its base-k digits (a function of t).
func (c *KaryTree) readState(d *dec) {
	c.t = readRound(d, c.horizon)
	d.f64sTo("counter sum", c.exact)
	d.f64sTo("k-ary tree noise", c.cum)
	u := c.t
	for i := range c.digit {
		c.digit[i] = u % c.k
		u /= c.k
	}
}
