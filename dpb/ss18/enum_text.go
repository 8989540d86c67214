package ss18

import "fmt"

// JSON and other text hold these enums by name ("blt", not 5).

// MarshalText returns the name of s (ShiftMode.String).
func (s ShiftMode) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a name MarshalText wrote.
func (s *ShiftMode) UnmarshalText(b []byte) error {
	all := []ShiftMode{ShiftPaper, ShiftNone, ShiftGiven}
	for _, v := range all {
		if v.String() == string(b) {
			*s = v
			return nil
		}
	}
	return fmt.Errorf("ss18: unknown shift mode %q (want one of %v)", b, all)
}

// MarshalText returns the name of f (RadiusForm.String).
func (f RadiusForm) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText reads a name MarshalText wrote.
func (f *RadiusForm) UnmarshalText(b []byte) error {
	all := []RadiusForm{RadiusLogDet, RadiusClosedForm, RadiusMinEig}
	for _, v := range all {
		if v.String() == string(b) {
			*f = v
			return nil
		}
	}
	return fmt.Errorf("ss18: unknown radius form %q (want one of %v)", b, all)
}
