package harness

import "fmt"

// Scale is a named size of an experiment: the presets the command line
// (-short, -paper) and the notebooks share, kept here so that a figure's
// sizes are written once. The experiments' configs set only what a scale
// changes; explicit fields set after ApplyScale (a -n or -runs flag) win.
type Scale int

const (
	// ScaleDefault is the size of the committed figures (docs/figures.md).
	ScaleDefault Scale = iota
	// ScaleQuick is a run of seconds, for CI and a first look (-short).
	ScaleQuick
	// ScalePaper is the paper's size (hours on 2 cores; docs/paper-scale.md).
	// Where the committed figures are already at the
	// paper's size, it is ScaleDefault.
	ScalePaper
)

func (s Scale) String() string {
	switch s {
	case ScaleDefault:
		return "default"
	case ScaleQuick:
		return "quick"
	case ScalePaper:
		return "paper"
	}
	return fmt.Sprintf("Scale(%d)", int(s))
}

// ParseScale parses "default", "quick" or "paper".
func ParseScale(s string) (Scale, error) {
	for _, v := range []Scale{ScaleDefault, ScaleQuick, ScalePaper} {
		if v.String() == s {
			return v, nil
		}
	}
	return 0, fmt.Errorf("harness: unknown scale %q (default, quick, paper)", s)
}

// ScaleOf returns the scale the usual -short and -paper flags select
// (-paper wins).
func ScaleOf(short, paper bool) Scale {
	switch {
	case paper:
		return ScalePaper
	case short:
		return ScaleQuick
	}
	return ScaleDefault
}
