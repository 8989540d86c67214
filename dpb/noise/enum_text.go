package noise

import "fmt"

// JSON and other text hold these enums by name ("blt", not 5).

// MarshalText returns the name of m (NoiseMode.String).
func (m NoiseMode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a name MarshalText wrote.
func (m *NoiseMode) UnmarshalText(b []byte) error {
	all := []NoiseMode{NoiseDefault, NoiseSimulated, NoiseSecure, NoiseSecureSeeded}
	for _, v := range all {
		if v.String() == string(b) {
			*m = v
			return nil
		}
	}
	return fmt.Errorf("dpb: unknown noise mode %q (want one of %v)", b, all)
}
