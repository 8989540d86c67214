package mt14

import "fmt"

// JSON and other text hold these enums by name ("blt", not 5).

// MarshalText returns the name of m (ContextMechanism.String).
func (m ContextMechanism) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a name MarshalText wrote.
func (m *ContextMechanism) UnmarshalText(b []byte) error {
	all := []ContextMechanism{ContextNonPrivate, ContextEntryTrees, ContextSS18Tree}
	for _, v := range all {
		if v.String() == string(b) {
			*m = v
			return nil
		}
	}
	return fmt.Errorf("mt14: unknown contextual mechanism %q (want one of %v)", b, all)
}
