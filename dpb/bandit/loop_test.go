package bandit

import (
	"slices"
	"testing"
)

// toyEnv is a two-armed environment whose means move with t (arm 1 better
// on even rounds), so the regret depends on every round played.
type toyEnv struct{ t int }

func (e *toyEnv) Arms() int                      { return 2 }
func (e *toyEnv) Dim() int                       { return 0 }
func (e *toyEnv) Next(_ *Round, t int)           { e.t = t }
func (e *toyEnv) Reward(r *Round, a int) float64 { return e.Mean(r, a) }
func (e *toyEnv) Mean(_ *Round, a int) float64 {
	if (e.t%2 == 0) == (a == 1) {
		return 1 + 1/float64(e.t)
	}
	return 0.25
}
func (e *toyEnv) BestMean(r *Round) float64 { return max(e.Mean(r, 0), e.Mean(r, 1)) }

// toyPolicy plays arm 0 except every third round.
type toyPolicy struct{ n int }

func (p *toyPolicy) Choose(*Round) int {
	p.n++
	if p.n%3 == 0 {
		return 1
	}
	return 0
}
func (p *toyPolicy) Update(*Round, int, float64) {}

// referenceCurve is the round-at-a-time loop RegretCurveTick must equal:
// play a round, record every rec[k] equal to it, tick at a record or after
// TickRounds rounds.
func referenceCurve(n int, rec []int, out []float64) (ticks []int) {
	env, pol := &toyEnv{}, &toyPolicy{}
	r := NewRound(env)
	var regret float64
	k, last := 0, 0
	for t := 1; t <= n; t++ {
		env.Next(r, t)
		a := pol.Choose(r)
		regret += env.BestMean(r) - env.Mean(r, a)
		pol.Update(r, a, env.Reward(r, a))
		at := false
		for k < len(rec) && rec[k] == t {
			out[k] = regret
			k++
			at = true
		}
		if at || t-last >= TickRounds {
			ticks = append(ticks, t-last)
			last = t
		}
	}
	return ticks
}

// TestRegretCurveTickPlaysInChunks checks that RegretCurveTick, which plays
// the rounds between two record or tick points in one PlayRounds call, gives
// the round-at-a-time loop's records and ticks bit for bit, with repeated,
// out-of-range and out-of-order record points. Control: a record list read
// one round late differs.
func TestRegretCurveTickPlaysInChunks(t *testing.T) {
	n := 3*TickRounds + 17
	for _, rec := range [][]int{
		{1, 2, 3, 100, TickRounds, TickRounds + 1, n},
		{5, 5, 7, n + 3},
		{10, 4, 20},
		{0, 10},
		nil,
	} {
		want := make([]float64, len(rec))
		wantTicks := referenceCurve(n, rec, want)
		got := make([]float64, len(rec))
		var gotTicks []int
		RegretCurveTick(&toyEnv{}, &toyPolicy{}, n, rec, got, func(r int) { gotTicks = append(gotTicks, r) })
		if !slices.Equal(got, want) || !slices.Equal(gotTicks, wantTicks) {
			t.Errorf("rec %v: records %v ticks %v, want %v and %v", rec, got, gotTicks, want, wantTicks)
		}
		noTick := make([]float64, len(rec))
		RegretCurve(&toyEnv{}, &toyPolicy{}, n, rec, noTick)
		if !slices.Equal(noTick, want) {
			t.Errorf("rec %v without tick: records %v, want %v", rec, noTick, want)
		}
	}
	rec := []int{2, 3, 100}
	want, late := make([]float64, 3), make([]float64, 3)
	referenceCurve(n, rec, want)
	RegretCurve(&toyEnv{}, &toyPolicy{}, n, []int{3, 4, 101}, late)
	if slices.Equal(want, late) {
		t.Error("control: records read one round late equal the reference: the comparison cannot see an off-by-one")
	}
}
