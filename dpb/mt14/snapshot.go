package mt14

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/snap"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

func (p *DPUCB) AppendState(e *snap.Enc) {
	e.Ints(p.n)
	e.F64s(p.r)
	for _, t := range p.trees {
		cs := t.(counter.State)
		e.Blob(cs.AppendBinary) // the counters' AppendBinary never fails
		// The secure samplers' buffered bits; nothing for Laplace.
		e.Blob(func(b []byte) ([]byte, error) { return noise.AppendState(b, cs.NodeNoise()), nil })
	}
}

func (p *DPUCB) ReadState(d *snap.Dec) {
	d.IntsTo("pull counts", p.n)
	d.F64sTo("private totals", p.r)
	for a, t := range p.trees {
		cs := t.(counter.State)
		d.Blob(cs.UnmarshalBinary)
		d.Blob(func(b []byte) error { return noise.UnmarshalState(cs.NodeNoise(), b) })
		if d.Err != nil {
			return
		}
		// Each pull is one leaf of the arm's tree (one round ahead in the
		// padded mode).
		if lag := t.Rounds() - p.n[a]; p.n[a] < 0 || p.n[a] > t.Horizon() || lag != 0 && lag != 1 {
			d.Fail(fmt.Errorf("mt14: snapshot arm %d has %d pulls, its tree %d rounds (horizon %d)", a, p.n[a], t.Rounds(), t.Horizon()))
			return
		}
	}
}
