package counter

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/internal/snap"
)

// The snapshot state of the counters: AppendBinary (encoding.BinaryAppender)
// and UnmarshalBinary (encoding.BinaryUnmarshaler) of the mechanisms a
// policy is built from. The configuration (dimensions, horizon, noise
// scales) is not written: the restoring counter is built from the same
// configuration and only its mutable state is overwritten. The node scratch
// buffers are not state, nor is the node noise's own state (see [State]).

// AppendBinary appends the tree's state (round, exact sum, node noises,
// padding) to b.
func (ts *TreeSum) AppendBinary(b []byte) ([]byte, error) {
	e := snap.Enc{B: b}
	e.Int(ts.t)
	e.F64s(ts.exact)
	e.F64s(ts.cum)
	e.F64s(ts.pad)
	return e.B, nil
}

// UnmarshalBinary restores the state AppendBinary wrote (all of data) into
// a tree built with the same configuration: the round must be within the
// horizon, the lengths those of the configuration and every value finite.
// On error the tree must not be used.
func (ts *TreeSum) UnmarshalBinary(data []byte) error {
	d := snap.NewDec("counter", data)
	t := d.Int()
	if d.Err == nil && (t < 0 || t > ts.horizon) {
		d.Fail(fmt.Errorf("counter: snapshot tree round %d outside [0, %d]", t, ts.horizon))
	}
	ts.t = t
	d.F64sTo("tree sum", ts.exact)
	d.F64sTo("tree noise", ts.cum)
	d.F64sTo("tree padding", ts.pad)
	if err := gridState(ts.grid, ts.exact, ts.cum, ts.pad); d.Err == nil && err != nil {
		d.Fail(err) // the grid proof's invariants (grid.go)
	}
	return d.Done()
}
