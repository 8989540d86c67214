package ope

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/bandit"
)

// MaxRoundValues bounds K·Dim, the decision-set values of one round that
// every evaluation allocates from a log's Arms and Dim (2^26 float64s:
// 512 MB). A log beyond it is refused before anything is allocated: K and
// Dim often come from a file (one row with action id 100,000 made a CSV
// log's K = 100,001), and loaders bound them (data.CSVLogConfig.MaxArms).
const MaxRoundValues = 1 << 26

// newRound checks the log's shape (K >= 1, Dim >= 0, K·Dim at most
// MaxRoundValues) and returns a round for its events.
func newRound(log Log) (*bandit.Round, error) {
	k, d := log.Arms(), log.Dim()
	if k < 1 || d < 0 {
		return nil, fmt.Errorf("ope: log has %d arms and dimension %d, want >= 1 arm and dimension >= 0", k, d)
	}
	if d > MaxRoundValues/k {
		return nil, fmt.Errorf("ope: log has %d arms of dimension %d: K·Dim is more than %d values a round (ope.MaxRoundValues)", k, d, MaxRoundValues)
	}
	r := &bandit.Round{K: k, Dim: d}
	if d > 0 {
		r.Actions = make([]float64, k*d)
	}
	return r, nil
}
