package mt14fig

import "github.com/dpbandits/dpbandits/dpb/harness"

// ApplyScale sets MT14 Figure 1's horizon and repetitions: quick T = 20,000,
// 4 runs; default and paper T = 10⁶, 20 runs.
func (c *Fig1Config) ApplyScale(s harness.Scale) {
	c.Horizon, c.Reps = 1_000_000, 20
	if s == harness.ScaleQuick {
		c.Horizon, c.Reps = 20_000, 4
	}
}

// ApplyScale sets MT14 Figure 2's repetitions: quick 3, default and paper 20.
// (The quick Shuttle panel also keeps 10,000 rows: [Fig2ShuttleRows].)
func (c *Fig2Config) ApplyScale(s harness.Scale) {
	c.Reps = 20
	if s == harness.ScaleQuick {
		c.Reps = 3
	}
}

// Fig2ShuttleRows returns the Shuttle rows MT14 Figure 2 keeps at scale
// s: 10,000 when quick, all (0) otherwise.
func Fig2ShuttleRows(s harness.Scale) int {
	if s == harness.ScaleQuick {
		return 10000
	}
	return 0
}

// ApplyScale sets the repetitions of MT14 Figure 2 on a non-uniform log:
// quick 3, default and paper 20.
func (c *Fig2BTSConfig) ApplyScale(s harness.Scale) {
	c.Reps = 20
	if s == harness.ScaleQuick {
		c.Reps = 3
	}
}
