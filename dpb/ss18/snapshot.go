package ss18

import (
	"errors"
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/snap"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// appendRegState appends a regularizer's state to b: the ridge's G and u,
// or the tree regularizer's additions, its counter's state and its node
// noise's state (each a length-prefixed blob).
func appendRegState(b []byte, r Regularizer) ([]byte, error) {
	e := snap.Enc{B: b}
	switch r := r.(type) {
	case *Ridge:
		e.F64s(r.g)
		e.F64s(r.u)
	case *TreeRegularizer:
		e.Int(r.adds)
		c := r.ctr.(counter.State)
		if err := e.Blob(c.AppendBinary); err != nil {
			return b, err
		}
		e.Blob(func(b []byte) ([]byte, error) { return noise.AppendState(b, c.NodeNoise()), nil })
		if rc := r.round; rc != nil && rc.shift != nil {
			// The released-shift lever's ℓ and the bounds it gave the
			// current round (a fresh round is prepared again on restore, and
			// must get the same bounds).
			e.F64(rc.shift.ell)
			e.Int(rc.last)
			e.F64s([]float64{rc.cached.RhoMin, rc.cached.RhoMax, rc.cached.Gamma, rc.cached.Shift})
		}
	default:
		return b, fmt.Errorf("ss18: cannot snapshot a regularizer of type %T", r)
	}
	return e.B, nil
}

// unmarshalRegState restores what appendRegState wrote (all of data) into
// a regularizer built with the same configuration.
func unmarshalRegState(r Regularizer, data []byte) error {
	d := snap.NewDec("ss18", data)
	switch r := r.(type) {
	case *Ridge:
		d.F64sTo("ridge G", r.g)
		d.F64sTo("ridge u", r.u)
	case *TreeRegularizer:
		adds := d.Int()
		if d.Err == nil && (adds < 0 || adds > r.setting.N) {
			return fmt.Errorf("ss18: snapshot tree regularizer has %d additions, outside [0, %d]", adds, r.setting.N)
		}
		r.adds = adds
		c := r.ctr.(counter.State)
		d.Blob(c.UnmarshalBinary)
		d.Blob(func(b []byte) error { return noise.UnmarshalState(c.NodeNoise(), b) })
		if rc := r.round; rc != nil && rc.shift != nil {
			ell, last := d.F64(), d.Int()
			cb := make([]float64, 4)
			d.F64sTo("released shift bounds", cb)
			if d.Err == nil && (!(ell >= 0) || math.IsInf(ell, 0) || last < 0 || last > r.setting.N) {
				return fmt.Errorf("ss18: snapshot released shift ℓ = %v at round %d unusable", ell, last)
			}
			rc.shift.ell, rc.last = ell, last
			rc.cached = RegBounds{RhoMin: cb[0], RhoMax: cb[1], Gamma: cb[2], Shift: cb[3]}
		}
		// The counter is at the regularizer's additions, or one round
		// ahead in the padded mode (its padding round).
		if lag := r.ctr.Rounds() - min(adds, r.ctr.Horizon()); d.Err == nil && lag != 0 && lag != 1 {
			return fmt.Errorf("ss18: snapshot tree counter at round %d, its regularizer has %d additions", r.ctr.Rounds(), adds)
		}
	default:
		return fmt.Errorf("ss18: cannot restore a regularizer of type %T", r)
	}
	return d.Done()
}

// AppendBinary appends LinUCB's state to b (encoding.BinaryAppender):
// rounds, the not-positive-definite count, whether the current round's
// factor was formed, the first rejected observation and the regularizer's
// state (a length-prefixed blob: a ridge's statistics, or a tree
// regularizer's additions, counter state and node-noise state). The
// configuration is not written (see [PolicyConfig.AppendBinary]), nor the
// state of the random source the policy draws from: it is a part of a
// snapshot, not a snapshot (dpb/anytime's SS18.MarshalBinary saves the
// source beside it). It fails for a regularizer other than [Ridge] and
// [TreeRegularizer].
func (p *LinUCB) AppendBinary(b []byte) ([]byte, error) {
	e := snap.Enc{B: b}
	e.Int(p.t)
	e.Int(p.f.notPD)
	e.Bool(p.f.fresh)
	msg := ""
	if p.err != nil {
		msg = p.err.Error()
	}
	e.Bytes([]byte(msg))
	if err := e.Blob(func(b []byte) ([]byte, error) { return appendRegState(b, p.reg) }); err != nil {
		return b, err
	}
	return e.B, nil
}

// UnmarshalBinary restores the state AppendBinary wrote (all of data,
// encoding.BinaryUnmarshaler) into a LinUCB built with the same
// configuration: the lengths must be the configuration's, the values
// finite, the rounds within the horizon and the regularizer's additions
// and counter at the policy's round. On error the policy must not be used.
func (p *LinUCB) UnmarshalBinary(data []byte) error {
	d := snap.NewDec("ss18", data)
	t, notPD, fresh := d.Int(), d.Int(), d.Bool()
	msg := string(d.Bytes())
	d.Blob(func(b []byte) error { return unmarshalRegState(p.reg, b) })
	if err := d.Done(); err != nil {
		return err
	}
	if t < 0 || t > p.cfg.Horizon {
		return fmt.Errorf("ss18: snapshot round %d outside [0, %d]", t, p.cfg.Horizon)
	}
	if notPD < 0 || notPD > t {
		return fmt.Errorf("ss18: snapshot counts %d rounds without a positive definite V_t, in %d rounds", notPD, t)
	}
	if tr, ok := p.reg.(*TreeRegularizer); ok && tr.adds != t {
		return fmt.Errorf("ss18: snapshot round %d, its regularizer has %d additions", t, tr.adds)
	}
	p.t, p.err = t, nil
	if msg != "" {
		p.err = errors.New(msg)
	}
	p.f.fresh = false
	if fresh {
		// The factor is a deterministic function of the restored statistics:
		// forming it again gives the same bits; it must not count twice.
		p.prepare()
	}
	p.f.notPD = notPD
	return nil
}
