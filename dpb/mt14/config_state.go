package mt14

import (
	"github.com/dpbandits/dpbandits/dpb/internal/snap"
)

func (c DPUCBConfig) AppendState(e *snap.Enc) {
	e.Int(c.Arms)
	e.Int(c.Horizon)
	e.F64(c.Epsilon)
	e.F64(c.Gamma)
	e.F64(c.RelaxationScale)
	e.Int(int(c.Mode))
	e.Bool(c.Clip)
	e.Bool(c.NoRelaxation)
	e.Bool(c.NoNoise)
	e.Int(c.Noise.SnapshotCode()) // the resolved mode, numbered as format 3 has always numbered it
	e.Int(int(c.Counter))
}
