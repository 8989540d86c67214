package as17fig

import "github.com/dpbandits/dpbandits/dpb/harness"

// TableScale is the size of an AS17 table run: the largest horizon T (the
// sweep is HorizonGrid(256, MaxHorizon, 4)), the repetitions and the horizon
// of the ε sweep.
type TableScale struct {
	MaxHorizon, Reps, EpsHorizon int
}

// Preset returns the AS17 tables' size at scale s: quick T ≤ 2¹², 6 runs,
// ε sweep at 2¹¹; default T ≤ 2²⁰, 20 runs, ε sweep at 2¹⁶; paper as the
// committed tables, T ≤ 2²⁰, 20 runs, ε sweep at 2¹⁷ (docs/figures.md).
func Preset(s harness.Scale) TableScale {
	switch s {
	case harness.ScaleQuick:
		return TableScale{MaxHorizon: 1 << 12, Reps: 6, EpsHorizon: 1 << 11}
	case harness.ScalePaper:
		return TableScale{MaxHorizon: 1 << 20, Reps: 20, EpsHorizon: 1 << 17}
	}
	return TableScale{MaxHorizon: 1 << 20, Reps: 20, EpsHorizon: 1 << 16}
}

// BeyondPreset returns the beyond-as17 experiment's size at scale s as
// (largest horizon, repetitions; the sweep is HorizonGrid(256, T, 4)):
// quick T ≤ 2¹², 4 runs; default T ≤ 2¹⁸, 20 runs; paper T ≤ 2²⁰ (the AS17
// tables' largest T), 20 runs.
func BeyondPreset(s harness.Scale) (maxHorizon, reps int) {
	switch s {
	case harness.ScaleQuick:
		return 1 << 12, 4
	case harness.ScalePaper:
		return 1 << 20, 20
	}
	return 1 << 18, 20
}
