package mt14

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/bandit"
)

// DelayedPolicy is a policy whose feedback arrives in batches: MT14 Section
// 5.2's delay τ. See [Delayed].
//
// A DelayedPolicy is not safe for concurrent use: share it between goroutines
// through [bandit.NewLocked].
type DelayedPolicy struct {
	p   bandit.Policy
	tau int
	t   int // rounds offered so far (Choose calls)
	buf []delayedObs
	nb  int // buffered observations
}

type delayedObs struct {
	r      bandit.Round
	arm    int
	reward float64
}

var _ bandit.Policy = (*DelayedPolicy)(nil)

// Delayed wraps p with the feedback delay τ of MT14 Section 5.2: "for a delay
// of τ steps, the parameter update at time t considers previous
// t − (t mod (τ+1) + 1) observations". With rounds t = 1, 2, … counted by
// calls to Choose, the decision at round t uses exactly the observations of
// rounds 1..s(t),
//
//	s(t) = max(0, t − (t mod (τ+1)) − 1),
//
// which is the printed count when each round yields one observation (the
// max(0, ·) covers t ≤ τ, where the printed count is −1: no feedback yet).
// The wrapper buffers Update calls and hands them to p, in order and with
// their original rounds, at the start of every round t with t mod (τ+1) = 0,
// so the delay is exact for every policy: p's state at a decision is the
// state of an undelayed p fed the first s(t) rounds' observations. τ = 0
// passes everything through at once.
//
// In replay ([Replay]) a round is a log row offered to the policy, so τ
// counts rows, as in MT14's Fig. 2 ("rows skipped before updating
// parameters"); only matched rows yield observations.
//
// The wrapper copies each buffered Round (the environment reuses its own);
// after the first τ+1 rounds it allocates nothing.
func Delayed(p bandit.Policy, tau int) (*DelayedPolicy, error) {
	if p == nil {
		return nil, fmt.Errorf("mt14: nil policy")
	}
	if tau < 0 {
		return nil, fmt.Errorf("mt14: delay is %d, must be >= 0", tau)
	}
	return &DelayedPolicy{p: p, tau: tau}, nil
}

// Inner returns the wrapped policy.
func (d *DelayedPolicy) Inner() bandit.Policy { return d.p }

// Tau returns τ.
func (d *DelayedPolicy) Tau() int { return d.tau }

// DelayedRounds returns s(t) = max(0, t − (t mod (τ+1)) − 1), the number of
// leading rounds whose feedback the decision at round t (1-based) uses.
func DelayedRounds(t, tau int) int {
	s := t - t%(tau+1) - 1
	if s < 0 {
		return 0
	}
	return s
}

// Choose delivers the buffered feedback if round t is a synchronisation round
// (t mod (τ+1) = 0) and returns the wrapped policy's choice.
func (d *DelayedPolicy) Choose(r *bandit.Round) int {
	d.t++
	if d.tau > 0 && d.t%(d.tau+1) == 0 {
		d.flush()
	}
	return d.p.Choose(r)
}

func (d *DelayedPolicy) flush() {
	for i := 0; i < d.nb; i++ {
		o := &d.buf[i]
		d.p.Update(&o.r, o.arm, o.reward)
	}
	d.nb = 0
}

// Update buffers the observation (τ > 0) or passes it on (τ = 0).
func (d *DelayedPolicy) Update(r *bandit.Round, arm int, reward float64) {
	if d.tau == 0 {
		d.p.Update(r, arm, reward)
		return
	}
	if d.nb == len(d.buf) {
		d.buf = append(d.buf, delayedObs{})
	}
	o := &d.buf[d.nb]
	d.nb++
	o.r.T, o.r.K, o.r.Dim = r.T, r.K, r.Dim
	if cap(o.r.Actions) < len(r.Actions) {
		o.r.Actions = make([]float64, len(r.Actions))
	}
	o.r.Actions = o.r.Actions[:len(r.Actions)]
	copy(o.r.Actions, r.Actions)
	if r.Actions == nil {
		o.r.Actions = nil
	}
	o.arm, o.reward = arm, reward
}
