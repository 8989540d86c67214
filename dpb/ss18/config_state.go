package ss18

import (
	"github.com/dpbandits/dpbandits/dpb/internal/snap"
)

func (c PolicyConfig) AppendState(e *snap.Enc) {
	s := c.Setting
	e.Int(int(c.Alg))
	e.Int(s.D)
	e.Int(s.N)
	e.F64(s.Epsilon)
	e.F64(s.Delta)
	e.F64(s.Lt2)
	e.F64(s.Alpha)
	e.Int(int(c.Mode))
	e.F64(c.Lambda)
	e.Int(int(c.Shift))
	e.F64(c.ShiftValue)
	e.Int(int(c.Radius))
	e.F64(c.Sigma)
	e.F64(c.S)
	e.F64(c.L)
	e.Bool(c.Clip)
	e.Int(c.Noise.SnapshotCode()) // the resolved mode, numbered as format 3 has always numbered it
}
