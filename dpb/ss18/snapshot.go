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
		c := r.ctr.(counter.State)
		if err := e.Blob(c.AppendBinary); err != nil {
			return err
		}
		e.Blob(func(b []byte) ([]byte, error) { return noise.AppendState(b, c.NodeNoise()), nil })
	default:
		return fmt.Errorf("ss18: cannot snapshot a regularizer of type %T", r)
	}
	return nil
}

func readRegState(d *snap.Dec, r Regularizer) {
	switch r := r.(type) {
	case *Ridge:
		d.F64sTo("ridge G", r.g)
		d.F64sTo("ridge u", r.u)
	case *TreeRegularizer:
		adds := d.Int()
		if d.Err == nil && (adds < 0 || adds > r.setting.N) {
			d.Fail(fmt.Errorf("ss18: snapshot tree regularizer has %d additions, outside [0, %d]", adds, r.setting.N))
			return
		}
		r.adds = adds
		c := r.ctr.(counter.State)
		d.Blob(c.UnmarshalBinary)
		d.Blob(func(b []byte) error { return noise.UnmarshalState(c.NodeNoise(), b) })
		// The counter is at the regularizer's additions, or one round
		// ahead in the padded mode (its padding round).
		if lag := r.ctr.Rounds() - min(adds, r.ctr.Horizon()); d.Err == nil && lag != 0 && lag != 1 {
			d.Fail(fmt.Errorf("ss18: snapshot tree counter at round %d, its regularizer has %d additions", r.ctr.Rounds(), adds))
		}
	default:
		d.Fail(fmt.Errorf("ss18: cannot restore a regularizer of type %T", r))
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
		d.Fail(fmt.Errorf("ss18: snapshot round %d outside [0, %d]", t, p.cfg.Horizon))
		return
	}
	if notPD < 0 || notPD > t {
		d.Fail(fmt.Errorf("ss18: snapshot counts %d rounds without a positive definite V_t, in %d rounds", notPD, t))
		return
	}
	if tr, ok := p.reg.(*TreeRegularizer); ok && tr.adds != t {
		d.Fail(fmt.Errorf("ss18: snapshot round %d, its regularizer has %d additions", t, tr.adds))
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
