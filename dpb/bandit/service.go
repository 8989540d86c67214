package bandit

import (
	"fmt"
	"math"
	"sync"
)

// Checked is a [Policy] a service can run on input it cannot vouch for:
// every refusal is an error the caller sees, none is a panic, none is
// silent.
//
//   - ChooseErr refuses a decision set with a NaN or infinite feature (or
//     of the wrong shape) with an error, changing nothing; Choose panics on
//     it instead.
//   - UpdateErr refuses a record the mechanism cannot take (a non-finite
//     context or reward, or one outside the bound it is calibrated for and
//     not clipped): it returns the reason, counts the record in Skipped and
//     keeps learning from the next one. Update records the first such
//     record in the sticky Err instead, and the policy stops learning.
//   - Err is the sticky error: the first record Update refused, or a state
//     the policy cannot continue from. After it UpdateErr returns it too.
//
// How a skipped record keeps the privacy guarantee is each policy's to
// say (its UpdateErr's doc comment).
type Checked interface {
	Policy
	ChooseErr(r *Round) (int, error)
	UpdateErr(r *Round, arm int, reward float64) error
	Skipped() int
	Err() error
}

// CheckRound returns an error unless r is a decision set of dimension dim
// with at least one action, Actions holding K·Dim numbers, all finite: a
// NaN or infinite feature is named by its action and coordinate.
func CheckRound(r *Round, dim int) error {
	if r == nil {
		return fmt.Errorf("bandit: nil Round")
	}
	if r.Dim != dim {
		return fmt.Errorf("bandit: Round.Dim is %d, the policy's dimension is %d", r.Dim, dim)
	}
	if r.K < 1 {
		return fmt.Errorf("bandit: Round.K is %d, must be >= 1", r.K)
	}
	if len(r.Actions) < r.K*r.Dim {
		return fmt.Errorf("%s", ShortActions(r))
	}
	for i, v := range r.Actions[:r.K*r.Dim] {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("bandit: round %d: feature %d of action %d is %v, must be finite", r.T, i%r.Dim, i/r.Dim, v)
		}
	}
	return nil
}

// FiniteActions reports whether every feature of r's K actions is finite
// (no NaN, no ±Inf). It is branch-free: v − v is +0 for a finite v and NaN
// for ±Inf or NaN, and a sum of such terms is 0 exactly when every term is
// (four running sums, so that the adds do not wait on each other).
func FiniteActions(r *Round) bool {
	a := r.Actions[:r.K*r.Dim]
	var s0, s1, s2, s3 float64
	for len(a) >= 4 {
		s0 += a[0] - a[0]
		s1 += a[1] - a[1]
		s2 += a[2] - a[2]
		s3 += a[3] - a[3]
		a = a[4:]
	}
	for _, v := range a {
		s0 += v - v
	}
	return (s0+s1)+(s2+s3) == 0
}

// Locked is a policy made safe for concurrent use: every method holds one
// mutex, so calls from several goroutines (a service's request handlers)
// are serialised in some order. The policies themselves are not safe for
// concurrent use, not even two concurrent Chooses, which write the policy's
// scratch.
//
// ChooseErr, UpdateErr, Skipped and Err forward to the policy's when it is
// [Checked]. For another policy ChooseErr refuses a decision set with a NaN
// or infinite feature ([CheckRound]) and UpdateErr a NaN or infinite reward,
// with an error and without calling the policy (counted in Skipped); other
// refusals are the policy's own (a panic), and Err is nil.
//
// The order in which concurrent calls take the lock is the scheduler's, so
// a run is reproducible only when the caller orders the calls; the privacy
// guarantee does not depend on the order. A Round passed in must not be
// changed by another goroutine until the call returns.
type Locked[P Policy] struct {
	mu   sync.Mutex
	p    P
	skip int
}

var _ Checked = (*Locked[Policy])(nil)

// NewLocked returns p behind a mutex. p must not be used directly afterwards
// except through [Locked.Do].
func NewLocked[P Policy](p P) *Locked[P] { return &Locked[P]{p: p} }

// Choose calls the policy's Choose under the lock.
func (l *Locked[P]) Choose(r *Round) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.p.Choose(r)
}

// ChooseErr calls the policy's ChooseErr under the lock (see [Locked]).
func (l *Locked[P]) ChooseErr(r *Round) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c, ok := any(l.p).(Checked); ok {
		return c.ChooseErr(r)
	}
	if r == nil {
		return -1, CheckRound(r, 0)
	}
	if err := CheckRound(r, r.Dim); err != nil {
		return -1, err
	}
	return l.p.Choose(r), nil
}

// Update calls the policy's Update under the lock.
func (l *Locked[P]) Update(r *Round, arm int, reward float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.p.Update(r, arm, reward)
}

// UpdateErr calls the policy's UpdateErr under the lock (see [Locked]).
func (l *Locked[P]) UpdateErr(r *Round, arm int, reward float64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c, ok := any(l.p).(Checked); ok {
		return c.UpdateErr(r, arm, reward)
	}
	if math.IsNaN(reward) || math.IsInf(reward, 0) {
		l.skip++
		return fmt.Errorf("bandit: round %d skipped: reward is %v, must be finite", r.T, reward)
	}
	l.p.Update(r, arm, reward)
	return nil
}

// Skipped returns the policy's Skipped under the lock (see [Locked]).
func (l *Locked[P]) Skipped() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c, ok := any(l.p).(Checked); ok {
		return c.Skipped()
	}
	return l.skip
}

// Err returns the policy's Err under the lock (see [Locked]).
func (l *Locked[P]) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c, ok := any(l.p).(Checked); ok {
		return c.Err()
	}
	return nil
}

// Do calls f with the policy under the lock, for the methods Locked does not
// forward (Privacy, MarshalBinary, Rounds, …). f must not keep p.
func (l *Locked[P]) Do(f func(p P)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f(l.p)
}
