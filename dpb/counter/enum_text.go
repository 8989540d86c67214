package counter

import "fmt"

// JSON and other text hold these enums by name ("blt", not 5).

// MarshalText returns the name of k (Kind.String).
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a name MarshalText wrote.
func (k *Kind) UnmarshalText(b []byte) error {
	all := Kinds
	for _, v := range all {
		if v.String() == string(b) {
			*k = v
			return nil
		}
	}
	return fmt.Errorf("counter: unknown counter %q (want one of %v)", b, all)
}

// MarshalText returns the name of m (ReleaseMode.String).
func (m ReleaseMode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a name MarshalText wrote.
func (m *ReleaseMode) UnmarshalText(b []byte) error {
	all := []ReleaseMode{ModeDefault, Plain, Padded}
	for _, v := range all {
		if v.String() == string(b) {
			*m = v
			return nil
		}
	}
	return fmt.Errorf("counter: unknown release mode %q (want one of %v)", b, all)
}
