package bandit

import (
	"fmt"
	"math"
)

// UnitReward returns reward if it lies in [0, 1], the bound the K-armed
// mechanisms (MT14's counters, the private MAB family) are calibrated for.
// Outside it returns the clipped value when clip is set and panics
// otherwise; NaN always panics. The check does not allocate.
func UnitReward(reward float64, clip bool) float64 {
	if reward >= 0 && reward <= 1 {
		return reward
	}
	if clip && !math.IsNaN(reward) {
		return math.Min(1, math.Max(0, reward))
	}
	panic(fmt.Sprintf("bandit: reward %v outside [0, 1] (the bound the mechanism is calibrated for; set Clip to clip)", reward))
}
