package mt14

import (
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/snap"
)

func (p *DPUCB) AppendState(e *snap.Enc) {
	e.Ints(p.n)
	e.F64s(p.r)
	for _, t := range p.trees {
		t.(counter.CounterState).AppendState(e)
	}
}

func (p *DPUCB) ReadState(d *snap.Dec) {
	d.IntsTo("pull counts", p.n)
	d.F64sTo("private totals", p.r)
	for _, t := range p.trees {
		t.(counter.CounterState).ReadState(d)
	}
}
