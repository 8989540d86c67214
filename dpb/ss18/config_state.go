package ss18

import (
	"github.com/dpbandits/dpbandits/dpb/internal/snap"
)

// AppendBinary appends the configuration's fingerprint to b
// (encoding.BinaryAppender): every field (the split bounds for the split
// variants only), the noise mode resolved and
// numbered by [noise.Mode.SnapshotCode]. A snapshot records it so that a
// restore into a policy of another configuration is refused (dpb/anytime's
// SS18.UnmarshalBinary compares it byte for byte); it is never read back
// into a configuration.
func (c PolicyConfig) AppendBinary(b []byte) ([]byte, error) {
	e := snap.Enc{B: b}
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
	e.Int(c.Noise.SnapshotCode()) // the resolved mode, numbered as formats 3 and 4 number it
	if lv, ok := c.Alg.Levers(); ok && lv.Split {
		// The split's data bounds (only its variants have them, so every other
		// fingerprint is the bytes it was).
		e.F64(c.XBound)
		e.F64(c.YBound)
	}
	return e.B, nil
}
