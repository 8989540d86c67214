package dpb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// snapshotVersion is the version of the binary snapshot format written by the
// MarshalBinary methods of the own-stream policies (anytime.go). A snapshot
// also records [StreamVersion]: a snapshot of one stream version is refused by
// code of another, since its continuation would not be bit-identical.
const snapshotVersion = 1

// enc appends the little-endian encoding of a policy's state to b.
type enc struct{ b []byte }

func (e *enc) u64(v uint64)  { e.b = binary.LittleEndian.AppendUint64(e.b, v) }
func (e *enc) int(v int)     { e.u64(uint64(int64(v))) }
func (e *enc) f64(v float64) { e.u64(math.Float64bits(v)) }
func (e *enc) bool(v bool) {
	if v {
		e.u64(1)
	} else {
		e.u64(0)
	}
}
func (e *enc) bytes(p []byte) {
	e.int(len(p))
	e.b = append(e.b, p...)
}
func (e *enc) f64s(v []float64) {
	e.int(len(v))
	for _, x := range v {
		e.f64(x)
	}
}
func (e *enc) ints(v []int) {
	e.int(len(v))
	for _, x := range v {
		e.int(x)
	}
}

// dec reads what enc wrote; the first error sticks and later reads return zeros.
type dec struct {
	b   []byte
	err error
}

var errSnapshotShort = errors.New("dpb: snapshot truncated")

func (d *dec) u64() uint64 {
	if d.err != nil {
		return 0
	}
	if len(d.b) < 8 {
		d.err = errSnapshotShort
		return 0
	}
	v := binary.LittleEndian.Uint64(d.b)
	d.b = d.b[8:]
	return v
}
func (d *dec) int() int     { return int(int64(d.u64())) }
func (d *dec) f64() float64 { return math.Float64frombits(d.u64()) }
func (d *dec) bool() bool   { return d.u64() != 0 }
func (d *dec) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

// length reads a length and checks it against want (the size the restoring
// policy's configuration gives).
func (d *dec) length(what string, want int) bool {
	n := d.int()
	if d.err == nil && n != want {
		d.fail(fmt.Errorf("dpb: snapshot %s has length %d, this policy's configuration has %d", what, n, want))
	}
	return d.err == nil
}

func (d *dec) bytes() []byte {
	n := d.int()
	if d.err != nil {
		return nil
	}
	if n < 0 || n > len(d.b) {
		d.fail(errSnapshotShort)
		return nil
	}
	p := d.b[:n:n]
	d.b = d.b[n:]
	return p
}

// f64sTo reads a float slice into dst, whose length the configuration fixes.
func (d *dec) f64sTo(what string, dst []float64) {
	if !d.length(what, len(dst)) {
		return
	}
	for i := range dst {
		dst[i] = d.f64()
	}
}

func (d *dec) intsTo(what string, dst []int) {
	if !d.length(what, len(dst)) {
		return
	}
	for i := range dst {
		dst[i] = d.int()
	}
}

// header writes and checks the magic tag, the snapshot format and the stream version.
func (e *enc) header(tag string) {
	e.bytes([]byte(tag))
	e.int(snapshotVersion)
	e.int(StreamVersion)
}

func (d *dec) header(tag string) {
	got := string(d.bytes())
	if d.err != nil {
		return
	}
	if got != tag {
		d.fail(fmt.Errorf("dpb: snapshot is of a %q, not a %q", got, tag))
		return
	}
	if v := d.int(); d.err == nil && v != snapshotVersion {
		d.fail(fmt.Errorf("dpb: snapshot format %d, this code reads %d", v, snapshotVersion))
	}
	if v := d.int(); d.err == nil && v != StreamVersion {
		d.fail(fmt.Errorf("dpb: snapshot of stream version %d, this code is at %d (a restored run would not continue bit-identically)", v, StreamVersion))
	}
}

func (d *dec) done() error {
	if d.err == nil && len(d.b) != 0 {
		d.err = fmt.Errorf("dpb: snapshot has %d trailing bytes", len(d.b))
	}
	return d.err
}

// appendState and readState of the mechanisms a policy is built from. The
// configuration (dimensions, horizon, noise scales) is not written: the
// restoring object is built from the same configuration and only its mutable
// state is overwritten. The node scratch buffers are not state.

func (ts *TreeSum) appendState(e *enc) {
	e.int(ts.t)
	e.f64s(ts.exact)
	e.f64s(ts.cum)
	e.f64s(ts.pad)
}

func (ts *TreeSum) readState(d *dec) {
	t := d.int()
	if d.err == nil && (t < 0 || t > ts.horizon) {
		d.fail(fmt.Errorf("dpb: snapshot tree round %d outside [0, %d]", t, ts.horizon))
	}
	ts.t = t
	d.f64sTo("tree sum", ts.exact)
	d.f64sTo("tree noise", ts.cum)
	d.f64sTo("tree padding", ts.pad)
}

// noiseState is the part of a node noise that is not the shared *rand.Rand:
// the symmetrised Gaussian's and the Wishart's own generators.
func appendNoiseState(e *enc, n Noise) {
	switch g := n.(type) {
	case *SymGaussianNoise:
		e.u64(g.f.s)
	case *WishartNoise:
		e.u64(g.f.s)
	}
}

func readNoiseState(d *dec, n Noise) {
	switch g := n.(type) {
	case *SymGaussianNoise:
		g.f.s = d.u64()
	case *WishartNoise:
		g.f.s = d.u64()
	}
}

func appendRegState(e *enc, r Regularizer) error {
	switch r := r.(type) {
	case *Ridge:
		e.f64s(r.g)
		e.f64s(r.u)
	case *TreeRegularizer:
		e.int(r.adds)
		c := r.ctr.(counterState)
		c.appendState(e)
		appendNoiseState(e, c.nodeNoise())
	default:
		return fmt.Errorf("dpb: cannot snapshot a regularizer of type %T", r)
	}
	return nil
}

func readRegState(d *dec, r Regularizer) {
	switch r := r.(type) {
	case *Ridge:
		d.f64sTo("ridge G", r.g)
		d.f64sTo("ridge u", r.u)
	case *TreeRegularizer:
		r.adds = d.int()
		c := r.ctr.(counterState)
		c.readState(d)
		readNoiseState(d, c.nodeNoise())
	default:
		d.fail(fmt.Errorf("dpb: cannot restore a regularizer of type %T", r))
	}
}

// appendState writes LinUCB's state: rounds, the regularizer's state, the
// not-positive-definite count, the first rejected observation and whether
// the current round's factor was formed.
func (p *LinUCB) appendState(e *enc) error {
	e.int(p.t)
	e.int(p.notPD)
	e.bool(p.fresh)
	msg := ""
	if p.err != nil {
		msg = p.err.Error()
	}
	e.bytes([]byte(msg))
	return appendRegState(e, p.reg)
}

func (p *LinUCB) readState(d *dec) {
	t, notPD, fresh := d.int(), d.int(), d.bool()
	msg := string(d.bytes())
	readRegState(d, p.reg)
	if d.err != nil {
		return
	}
	if t < 0 || t > p.cfg.Horizon {
		d.fail(fmt.Errorf("dpb: snapshot round %d outside [0, %d]", t, p.cfg.Horizon))
		return
	}
	p.t, p.err = t, nil
	if msg != "" {
		p.err = errors.New(msg)
	}
	p.fresh = false
	if fresh {
		// The factor is a deterministic function of the restored statistics:
		// forming it again gives the same bits; it must not count twice.
		p.prepare()
	}
	p.notPD = notPD
}

func (p *DPUCB) appendState(e *enc) {
	e.ints(p.n)
	e.f64s(p.r)
	for _, t := range p.trees {
		t.(counterState).appendState(e)
	}
}

func (p *DPUCB) readState(d *dec) {
	d.intsTo("pull counts", p.n)
	d.f64sTo("private totals", p.r)
	for _, t := range p.trees {
		t.(counterState).readState(d)
	}
}
