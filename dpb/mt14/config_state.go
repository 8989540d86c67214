package mt14

import (
	"github.com/dpbandits/dpbandits/dpb/internal/snap"
)

// AppendBinary appends the configuration's fingerprint to b
// (encoding.BinaryAppender): every field, the noise mode resolved and
// numbered by [noise.Mode.SnapshotCode]. A snapshot records it so that a
// restore into a policy of another configuration is refused
// (dpb/anytime's DPUCB.UnmarshalBinary compares it byte for byte); it is never
// read back into a configuration.
func (c DPUCBConfig) AppendBinary(b []byte) ([]byte, error) {
	e := snap.Enc{B: b}
	e.Int(c.Arms)
	e.Int(c.Horizon)
	e.F64(c.Epsilon)
	e.F64(c.Gamma)
	e.F64(c.RelaxationScale)
	e.Int(int(c.Mode))
	e.Bool(c.Clip)
	e.Bool(c.NoRelaxation)
	e.Bool(c.NoNoise)
	e.Int(c.Noise.SnapshotCode()) // the resolved mode, numbered as formats 3 and 4 number it
	e.Int(int(c.Counter))
	return e.B, nil
}
