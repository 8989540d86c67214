package audit

import (
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"gonum.org/v1/gonum/mathext"
)

// tail is the one-sided level of each Clopper–Pearson bound: two bounds at
// 1 − tail each hold jointly with probability at least 1 − 2·tail = Confidence.
const tail = (1 - Confidence) / 2

// ClopperPearson returns the exact (Clopper–Pearson) one-sided bounds at
// level 1 − a on a binomial proportion with k successes in n trials:
// lo is the a-quantile of Beta(k, n−k+1) (0 if k = 0) and hi the
// (1−a)-quantile of Beta(k+1, n−k) (1 if k = n).
func ClopperPearson(k, n int, a float64) (lo, hi float64) {
	if n <= 0 || k < 0 || k > n || !(a > 0 && a < 1) {
		panic("audit: ClopperPearson needs 0 <= k <= n, n > 0, 0 < a < 1")
	}
	lo, hi = 0, 1
	if k > 0 {
		lo = mathext.InvRegIncBeta(float64(k), float64(n-k+1), a)
	}
	if k < n {
		hi = mathext.InvRegIncBeta(float64(k+1), float64(n-k), 1-a)
	}
	return lo, hi
}

// EpsBounds is an empirical ε with its confidence interval.
type EpsBounds struct {
	Lower, Estimate, Upper float64
}

// Bounds turns the counts of a region R into ε bounds at δ: in0 of n runs
// on D and in1 of n runs on D′ fell in R. With p0 = P[M(D) ∈ R] and
// p1 = P[M(D′) ∈ R], (ε, δ)-DP implies
//
//	ε ≥ ln((p1 − δ)/p0)   and   ε ≥ ln((1 − p0 − δ)/(1 − p1)),
//
// and Lower is the larger of the two with p1 replaced by its lower and p0 by
// its upper Clopper–Pearson bound (each one-sided at 97.5 %; the second
// expression uses the same two bounds, so Lower holds with probability
// ≥ 95 %), floored at 0. Estimate uses the frequencies and Upper the opposite
// ends (either may be +Inf when a count is 0 or n).
func Bounds(in0, in1, n int, delta float64) EpsBounds {
	p0lo, p0hi := ClopperPearson(in0, n, tail)
	p1lo, p1hi := ClopperPearson(in1, n, tail)
	f0, f1 := float64(in0)/float64(n), float64(in1)/float64(n)
	return EpsBounds{
		Lower:    epsOf(p0hi, p1lo, delta),
		Estimate: epsOf(f0, f1, delta),
		Upper:    epsOf(p0lo, p1hi, delta),
	}
}

// epsOf is max(0, ln((p1−δ)/p0), ln((1−p0−δ)/(1−p1))), with x/0 = +Inf for
// x > 0.
func epsOf(p0, p1, delta float64) float64 {
	e := 0.0
	e = math.Max(e, logRatio(p1-delta, p0))
	e = math.Max(e, logRatio(1-p0-delta, 1-p1))
	return e
}

func logRatio(num, den float64) float64 {
	if !(num > 0) {
		return 0
	}
	if !(den > 0) {
		return math.Inf(1)
	}
	return xmath.Log(num / den)
}
