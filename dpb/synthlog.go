package dpb

import "math/rand/v2"

// synthLog is a uniformly logged log with known reward means: M context
// types, K arms, mean mu[c][a]. Arm 0's first feature carries the context id
// so that a fixed policy can read it.
type synthLog struct {
	k, m   int
	mu     [][]float64
	ctx    []int
	logged []int
	rew    []float64
	prob   float64
}

func newSynthLog(n, k, m int, prob float64, rng *rand.Rand) *synthLog {
	l := &synthLog{k: k, m: m, prob: prob}
	l.mu = make([][]float64, m)
	for c := range l.mu {
		l.mu[c] = make([]float64, k)
		for a := range l.mu[c] {
			l.mu[c][a] = 0.05 + 0.9*float64((c*7+a*3)%11)/10
		}
	}
	for i := 0; i < n; i++ {
		c, a := rng.IntN(m), rng.IntN(k)
		var y float64
		if rng.Float64() < l.mu[c][a] {
			y = 1
		}
		l.ctx, l.logged, l.rew = append(l.ctx, c), append(l.logged, a), append(l.rew, y)
	}
	return l
}

func (l *synthLog) Arms() int { return l.k }
func (l *synthLog) Dim() int  { return 1 }
func (l *synthLog) Len() int  { return len(l.ctx) }
func (l *synthLog) Event(r *Round, i int) (int, float64, float64) {
	for a := range r.Actions {
		r.Actions[a] = 0
	}
	r.Actions[0] = float64(l.ctx[i])
	return l.logged[i], l.rew[i], l.prob
}
