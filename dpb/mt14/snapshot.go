package mt14

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/snap"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// AppendBinary appends DP-UCB's state to b (encoding.BinaryAppender): the
// pull counts, the private totals and, for each arm, its counter's state
// and its node noise's state (the secure samplers' buffered bits; nothing
// for Laplace), each a length-prefixed blob. The configuration is not
// written (see [DPUCBConfig.AppendBinary]), nor the state of the random
// source the policy draws from: it is a part of a snapshot, not a snapshot
// (dpb/anytime's DPUCB.MarshalBinary saves the source beside it).
func (p *DPUCB) AppendBinary(b []byte) ([]byte, error) {
	e := snap.Enc{B: b}
	e.Ints(p.n)
	e.F64s(p.r)
	for _, t := range p.trees {
		cs := t.(counter.State)
		if err := e.Blob(cs.AppendBinary); err != nil {
			return b, err
		}
		e.Blob(func(b []byte) ([]byte, error) { return noise.AppendState(b, cs.NodeNoise()), nil })
	}
	return e.B, nil
}

// UnmarshalBinary restores the state AppendBinary wrote (all of data,
// encoding.BinaryUnmarshaler) into a DPUCB built with the same
// configuration: the lengths must be the configuration's, the values
// finite, each arm's tree within its horizon and one leaf per pull. On
// error the policy must not be used.
func (p *DPUCB) UnmarshalBinary(data []byte) error {
	d := snap.NewDec("mt14", data)
	d.IntsTo("pull counts", p.n)
	d.F64sTo("private totals", p.r)
	for a, t := range p.trees {
		cs := t.(counter.State)
		d.Blob(cs.UnmarshalBinary)
		d.Blob(func(b []byte) error { return noise.UnmarshalState(cs.NodeNoise(), b) })
		if d.Err != nil {
			return d.Err
		}
		// Each pull is one leaf of the arm's tree (one round ahead in the
		// padded mode).
		if lag := t.Rounds() - p.n[a]; p.n[a] < 0 || p.n[a] > t.Horizon() || lag != 0 && lag != 1 {
			return fmt.Errorf("mt14: snapshot arm %d has %d pulls, its tree %d rounds (horizon %d)", a, p.n[a], t.Rounds(), t.Horizon())
		}
	}
	return d.Done()
}
