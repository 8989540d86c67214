package mt14

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// UCB1Config configures [UCB1].
type UCB1Config struct {
	// Arms is k. Required (>= 1).
	Arms int
	// Clip clips rewards into [0, 1] instead of panicking on them. Defaults to
	// false: a reward outside [0, 1] (or NaN) panics.
	Clip bool
}

// UCB1 is the non-private UCB sampling of Auer et al. (2002), MT14 Eq. (2):
// pull each arm once (round t ≤ k pulls arm t−1), then
//
//	a_t = argmax_a  r_a/n_a + sqrt(2 ln t / n_a)
//
// with r_a the total reward and n_a the number of pulls of arm a. Ties go to
// the lowest index. Choose is O(k); nothing allocates after construction.
//
// A UCB1 is not safe for concurrent use: share it between goroutines
// through [bandit.NewLocked].
type UCB1 struct {
	cfg UCB1Config
	n   []int
	r   []float64
}

var _ bandit.Policy = (*UCB1)(nil)

// NewUCB1 returns a UCB1 policy.
func NewUCB1(cfg UCB1Config) (*UCB1, error) {
	if cfg.Arms < 1 {
		return nil, fmt.Errorf("mt14: arms is %d, must be >= 1", cfg.Arms)
	}
	return &UCB1{cfg: cfg, n: make([]int, cfg.Arms), r: make([]float64, cfg.Arms)}, nil
}

// Choose returns the arm with the largest upper confidence bound.
func (u *UCB1) Choose(r *bandit.Round) int {
	if r.K != len(u.n) {
		panic(param.BadArm)
	}
	return mt14Choose(r.T, u.n, u.r, 0)
}

// Update records the reward of the pulled arm.
func (u *UCB1) Update(r *bandit.Round, arm int, reward float64) {
	if arm < 0 || arm >= len(u.n) {
		panic(param.BadArm)
	}
	reward = bandit.UnitReward(reward, u.cfg.Clip)
	u.n[arm]++
	u.r[arm] += reward
}

// Pulls returns n_a (a view; do not modify).
func (u *UCB1) Pulls() []int { return u.n }
