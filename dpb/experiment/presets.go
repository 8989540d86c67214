package experiment

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
	return 0, fmt.Errorf("dpb: unknown scale %q (default, quick, paper)", s)
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

// ApplyScale sets SS18 Experiment 1's dimensions, horizon and repetitions:
// quick d ∈ {4, 6, 8}, n = 2000, 3 runs; default the config's defaults (7
// d in [4, 32], n = 10⁵, 5 runs); paper 17 d in [4, 64], n = 10⁵, 100 runs.
func (c *SS18Exp1Config) ApplyScale(s Scale) {
	switch s {
	case ScaleQuick:
		c.Dims, c.Horizon, c.Reps = []int{4, 6, 8}, 2000, 3
	case ScalePaper:
		c.Dims, c.Horizon, c.Reps = LogDims(4, 64, 17), 100000, 100
	}
}

// ApplyScale sets SS18 Experiment 2's horizon, repetitions and recorded
// points: quick n = 20,000, 2 runs; default the config's defaults; paper
// n = 5·10⁷, 35 runs, 1000 points (Figure 4 plots to 2·10⁷).
func (c *SS18Exp2Config) ApplyScale(s Scale) {
	switch s {
	case ScaleQuick:
		c.Horizon, c.Reps = 20000, 2
	case ScalePaper:
		c.Horizon, c.Reps, c.Points = 50000000, 35, 1000
	}
}

// ApplyScale sets SS18 Experiment 3's horizon, repetitions, ρ_min values and
// gaps: quick n = 10⁴, 2 runs, 4 ρ_min, gaps {0.1, 0.025, 0}; default the
// config's defaults; paper n = 5·10⁷, 35 runs, 8 ρ_min, gaps 0.1·2⁻ʲ (j =
// 0..6) and 0.
func (c *SS18Exp3Config) ApplyScale(s Scale) {
	switch s {
	case ScaleQuick:
		c.Horizon, c.Reps, c.RhoMins = 10000, 2, 4
		c.Gaps = []float64{0.1, 0.025, 0}
	case ScalePaper:
		c.Horizon, c.Reps, c.RhoMins = 50000000, 35, 8
		c.Gaps = []float64{0.1, 0.05, 0.025, 0.0125, 0.00625, 0.003125, 0.0015625, 0}
	}
}

// ApplyScale sets MT14 Figure 1's horizon and repetitions: quick T = 20,000,
// 4 runs; default and paper T = 10⁶, 20 runs.
func (c *MT14Fig1Config) ApplyScale(s Scale) {
	c.Horizon, c.Reps = 1_000_000, 20
	if s == ScaleQuick {
		c.Horizon, c.Reps = 20_000, 4
	}
}

// ApplyScale sets MT14 Figure 2's repetitions: quick 3, default and paper 20.
// (The quick Shuttle panel also keeps 10,000 rows: [MT14Fig2ShuttleRows].)
func (c *MT14Fig2Config) ApplyScale(s Scale) {
	c.Reps = 20
	if s == ScaleQuick {
		c.Reps = 3
	}
}

// MT14Fig2ShuttleRows returns the Shuttle rows MT14 Figure 2 keeps at scale
// s: 10,000 when quick, all (0) otherwise.
func MT14Fig2ShuttleRows(s Scale) int {
	if s == ScaleQuick {
		return 10000
	}
	return 0
}

// ApplyScale sets the repetitions of MT14 Figure 2 on a non-uniform log:
// quick 3, default and paper 20.
func (c *MT14Fig2BTSConfig) ApplyScale(s Scale) {
	c.Reps = 20
	if s == ScaleQuick {
		c.Reps = 3
	}
}

// AS17Scale is the size of an AS17 table run: the largest horizon T (the
// sweep is HorizonGrid(256, MaxHorizon, 4)), the repetitions and the horizon
// of the ε sweep.
type AS17Scale struct {
	MaxHorizon, Reps, EpsHorizon int
}

// AS17Preset returns the AS17 tables' size at scale s: quick T ≤ 2¹², 6 runs,
// ε sweep at 2¹¹; default T ≤ 2²⁰, 20 runs, ε sweep at 2¹⁶; paper as the
// committed tables, T ≤ 2²⁰, 20 runs, ε sweep at 2¹⁷ (docs/figures.md).
func AS17Preset(s Scale) AS17Scale {
	switch s {
	case ScaleQuick:
		return AS17Scale{MaxHorizon: 1 << 12, Reps: 6, EpsHorizon: 1 << 11}
	case ScalePaper:
		return AS17Scale{MaxHorizon: 1 << 20, Reps: 20, EpsHorizon: 1 << 17}
	}
	return AS17Scale{MaxHorizon: 1 << 20, Reps: 20, EpsHorizon: 1 << 16}
}

// BeyondAS17Preset returns the beyond-as17 experiment's size at scale s as
// (largest horizon, repetitions; the sweep is HorizonGrid(256, T, 4)):
// quick T ≤ 2¹², 4 runs; default T ≤ 2¹⁸, 20 runs; paper T ≤ 2²⁰ (the AS17
// tables' largest T), 20 runs.
func BeyondAS17Preset(s Scale) (maxHorizon, reps int) {
	switch s {
	case ScaleQuick:
		return 1 << 12, 4
	case ScalePaper:
		return 1 << 20, 20
	}
	return 1 << 18, 20
}
