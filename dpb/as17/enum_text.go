package as17

import "fmt"

// JSON and other text hold these enums by name ("blt", not 5).

// MarshalText returns the name of s (DecisionSet.String).
func (s DecisionSet) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a name MarshalText wrote.
func (s *DecisionSet) UnmarshalText(b []byte) error {
	all := []DecisionSet{Simplex, Ball, Cube}
	for _, v := range all {
		if v.String() == string(b) {
			*s = v
			return nil
		}
	}
	return fmt.Errorf("as17: unknown decision set %q (want one of %v)", b, all)
}

// MarshalText returns the name of k (LossKind.String).
func (k LossKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a name MarshalText wrote.
func (k *LossKind) UnmarshalText(b []byte) error {
	all := []LossKind{Stochastic, WorstCase, Switching}
	for _, v := range all {
		if v.String() == string(b) {
			*k = v
			return nil
		}
	}
	return fmt.Errorf("as17: unknown loss kind %q (want one of %v)", b, all)
}
