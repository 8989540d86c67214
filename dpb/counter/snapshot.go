package counter

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/internal/snap"
)

// AppendState and ReadState of the mechanisms a policy is built from. The
// configuration (dimensions, horizon, noise scales) is not written: the
// restoring object is built from the same configuration and only its mutable
// state is overwritten. The node scratch buffers are not state.

func (ts *TreeSum) AppendState(e *snap.Enc) {
	e.Int(ts.t)
	e.F64s(ts.exact)
	e.F64s(ts.cum)
	e.F64s(ts.pad)
}

func (ts *TreeSum) ReadState(d *snap.Dec) {
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
}
