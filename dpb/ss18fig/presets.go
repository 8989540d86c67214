package ss18fig

import "github.com/dpbandits/dpbandits/dpb/harness"

// ApplyScale sets SS18 Experiment 1's dimensions, horizon and repetitions:
// quick d ∈ {4, 6, 8}, n = 2000, 3 runs; default the config's defaults (7
// d in [4, 32], n = 10⁵, 5 runs); paper 17 d in [4, 64], n = 10⁵, 100 runs.
func (c *Exp1Config) ApplyScale(s harness.Scale) {
	switch s {
	case harness.ScaleQuick:
		c.Dims, c.Horizon, c.Reps = []int{4, 6, 8}, 2000, 3
	case harness.ScalePaper:
		c.Dims, c.Horizon, c.Reps = harness.LogDims(4, 64, 17), 100000, 100
	}
}

// ApplyScale sets SS18 Experiment 2's horizon, repetitions and recorded
// points: quick n = 20,000, 2 runs; default the config's defaults; paper
// n = 5·10⁷, 35 runs, 1000 points (Figure 4 plots to 2·10⁷).
func (c *Exp2Config) ApplyScale(s harness.Scale) {
	switch s {
	case harness.ScaleQuick:
		c.Horizon, c.Reps = 20000, 2
	case harness.ScalePaper:
		c.Horizon, c.Reps, c.Points = 50000000, 35, 1000
	}
}

// ApplyScale sets SS18 Experiment 3's horizon, repetitions, ρ_min values and
// gaps: quick n = 10⁴, 2 runs, 4 ρ_min, gaps {0.1, 0.025, 0}; default the
// config's defaults; paper n = 5·10⁷, 35 runs, 8 ρ_min, gaps 0.1·2⁻ʲ (j =
// 0..6) and 0.
func (c *Exp3Config) ApplyScale(s harness.Scale) {
	switch s {
	case harness.ScaleQuick:
		c.Horizon, c.Reps, c.RhoMins = 10000, 2, 4
		c.Gaps = []float64{0.1, 0.025, 0}
	case harness.ScalePaper:
		c.Horizon, c.Reps, c.RhoMins = 50000000, 35, 8
		c.Gaps = []float64{0.1, 0.05, 0.025, 0.0125, 0.00625, 0.003125, 0.0015625, 0}
	}
}
