package noise

import "fmt"

// JSON and other text hold these enums by name ("blt", not 5).

// MarshalText returns the name of m (Mode.String).
func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a name MarshalText wrote.
func (m *Mode) UnmarshalText(b []byte) error {
	all := []Mode{Default, Simulated, Secure, SecureSeeded}
	for _, v := range all {
		if v.String() == string(b) {
			*m = v
			return nil
		}
	}
	return fmt.Errorf("noise: unknown noise mode %q (want one of %v)", b, all)
}
