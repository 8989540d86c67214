package ss18

import (
	"errors"
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/snap"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

func appendRegState(e *snap.Enc, r Regularizer) error {
	switch r := r.(type) {
	case *Ridge:
		e.F64s(r.g)
		e.F64s(r.u)
	case *TreeRegularizer:
		e.Int(r.adds)
		c := r.ctr.(counter.CounterState)
		c.AppendState(e)
		noise.AppendNoiseState(e, c.NodeNoise())
	default:
		return fmt.Errorf("dpb: cannot snapshot a regularizer of type %T", r)
	}
	return nil
}

func readRegState(d *snap.Dec, r Regularizer) {
	switch r := r.(type) {
	case *Ridge:
		d.F64sTo("ridge G", r.g)
		d.F64sTo("ridge u", r.u)
	case *TreeRegularizer:
		r.adds = d.Int()
		c := r.ctr.(counter.CounterState)
		c.ReadState(d)
		noise.ReadNoiseState(d, c.NodeNoise())
	default:
		d.Fail(fmt.Errorf("dpb: cannot restore a regularizer of type %T", r))
	}
}

// AppendState writes LinUCB's state: rounds, the regularizer's state, the
// not-positive-definite count, the first rejected observation and whether
// the current round's factor was formed.
func (p *LinUCB) AppendState(e *snap.Enc) error {
	e.Int(p.t)
	e.Int(p.notPD)
	e.Bool(p.fresh)
	msg := ""
	if p.err != nil {
		msg = p.err.Error()
	}
	e.Bytes([]byte(msg))
	return appendRegState(e, p.reg)
}

func (p *LinUCB) ReadState(d *snap.Dec) {
	t, notPD, fresh := d.Int(), d.Int(), d.Bool()
	msg := string(d.Bytes())
	readRegState(d, p.reg)
	if d.Err != nil {
		return
	}
	if t < 0 || t > p.cfg.Horizon {
		d.Fail(fmt.Errorf("dpb: snapshot round %d outside [0, %d]", t, p.cfg.Horizon))
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
