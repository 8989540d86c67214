// Package testutil holds what the tests of several dpb packages share: a
// synthetic logged-bandit data set with known values and the z quantile the
// statistical assertions use.
package testutil

import (
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/bandit"
)

// synthLog is a uniformly logged log with known reward means: M context
// types, K arms, mean mu[c][a]. Arm 0's first feature carries the context id
// so that a fixed policy can read it.
type SynthLog struct {
	K, M   int
	Mu     [][]float64
	Ctx    []int
	Logged []int
	Rew    []float64
	Prob   float64
	// Logging, when set, is the logging policy: arm a is logged in context c
	// with probability Logging[c][a] (NewSynthLogLogged); Event returns it.
	Logging [][]float64
}

func NewSynthLog(n, k, m int, prob float64, rng *rand.Rand) *SynthLog {
	l := &SynthLog{K: k, M: m, Prob: prob}
	l.Mu = make([][]float64, m)
	for c := range l.Mu {
		l.Mu[c] = make([]float64, k)
		for a := range l.Mu[c] {
			l.Mu[c][a] = 0.05 + 0.9*float64((c*7+a*3)%11)/10
		}
	}
	for i := 0; i < n; i++ {
		c, a := rng.IntN(m), rng.IntN(k)
		var y float64
		if rng.Float64() < l.Mu[c][a] {
			y = 1
		}
		l.Ctx, l.Logged, l.Rew = append(l.Ctx, c), append(l.Logged, a), append(l.Rew, y)
	}
	return l
}

// NewSynthLogLogged is NewSynthLog with a known, non-uniform logging policy:
// in context c (uniform over the M types) arm a is logged with probability
// logging[c][a] (rows sum to 1).
func NewSynthLogLogged(n int, mu, logging [][]float64, rng *rand.Rand) *SynthLog {
	l := &SynthLog{K: len(mu[0]), M: len(mu), Mu: mu, Logging: logging}
	for i := 0; i < n; i++ {
		c := rng.IntN(l.M)
		u, a := rng.Float64(), 0
		for a < l.K-1 && u >= logging[c][a] {
			u -= logging[c][a]
			a++
		}
		var y float64
		if rng.Float64() < mu[c][a] {
			y = 1
		}
		l.Ctx, l.Logged, l.Rew = append(l.Ctx, c), append(l.Logged, a), append(l.Rew, y)
	}
	return l
}

func (l *SynthLog) Arms() int { return l.K }
func (l *SynthLog) Dim() int  { return 1 }
func (l *SynthLog) Len() int  { return len(l.Ctx) }
func (l *SynthLog) Event(r *bandit.Round, i int) (int, float64, float64) {
	for a := range r.Actions {
		r.Actions[a] = 0
	}
	r.Actions[0] = float64(l.Ctx[i])
	if l.Logging != nil {
		return l.Logged[i], l.Rew[i], l.Logging[l.Ctx[i]][l.Logged[i]]
	}
	return l.Logged[i], l.Rew[i], l.Prob
}

// Z5 is the two-sided 1 − 1e-5 normal quantile: an assertion |X − μ| ≤ Z5·σ on
// a (nearly) normal X fails spuriously with probability ≈ 1e-5.
const Z5 = 4.417173
