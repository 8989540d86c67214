package check

import (
	"math"
	"slices"
)

// The exact law of a sum of n independent Lap(b) draws, the release noise
// of a binary tree whose release holds n nodes (popcount(t) for MT14's
// plain tree, m for AS17's padded TreeBasedAgg): S = b(X − Y) with X, Y
// independent Gamma(n, 1), so for x ≥ 0
//
//	P[S > bx] = E_Y[P[X > x + Y]] = e^{−x} Σ_{l=0}^{n−1} (x^l/l!) Σ_{j=0}^{n−1−l} C(n−1+j, j) 2^{−(n+j)},
//
// (expanding P[X > y] = e^{−y} Σ_{i<n} y^i/i! and E[e^{−Y} Y^j] =
// Γ(n+j)/(Γ(n) 2^{n+j})); every term is positive, so the sum loses no
// precision, and S is symmetric. At x = 0 the inner sums add to ½.

// laplaceSum is the law of the sum of n i.i.d. Lap(b) draws.
type laplaceSum struct {
	n int
	b float64
	c []float64 // c[l] = Σ_{j=0}^{n−1−l} C(n−1+j, j) 2^{−(n+j)}
}

func newLaplaceSum(n int, b float64) laplaceSum {
	if n < 1 || !(b > 0) {
		panic("check: a sum of Laplace draws needs n >= 1 and b > 0")
	}
	c := make([]float64, n)
	for l := range n {
		for j := 0; j <= n-1-l; j++ {
			c[l] += math.Exp(lchoose(n-1+j, j) - float64(n+j)*math.Ln2)
		}
	}
	return laplaceSum{n: n, b: b, c: c}
}

// Tail returns P[S > x] for x ≥ 0.
func (d laplaceSum) Tail(x float64) float64 {
	x /= d.b
	term := math.Exp(-x) // x^l e^{−x}/l!
	var s float64
	for l, c := range d.c {
		if l > 0 {
			term *= x / float64(l)
		}
		s += float64(c * term)
	}
	return s
}

// CDF returns P[S ≤ x].
func (d laplaceSum) CDF(x float64) float64 {
	if x < 0 {
		return d.Tail(-x)
	}
	return 1 - d.Tail(x)
}

// AbsQuantile returns q with P[|S| > q] = p (bisection on the exact tail,
// to 1e-12 relative).
func (d laplaceSum) AbsQuantile(p float64) float64 {
	lo, hi := 0.0, d.b
	for 2*d.Tail(hi) > p {
		hi *= 2
	}
	for range 200 {
		mid := (lo + hi) / 2
		if 2*d.Tail(mid) > p {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo <= 1e-12*hi {
			break
		}
	}
	return (lo + hi) / 2
}

func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// ksUniform returns the Kolmogorov–Smirnov distance of the values u
// (sorted in place) to the uniform law on [0, 1].
func ksUniform(u []float64) float64 {
	slices.Sort(u)
	n := float64(len(u))
	var d float64
	for i, x := range u {
		d = math.Max(d, math.Max(float64(i+1)/n-x, x-float64(i)/n))
	}
	return d
}

// ksThreshold is the DKW bound at the pass threshold: a sample of n draws
// from the stated law is farther from it in KS distance with probability
// at most PassPValue.
func ksThreshold(n int) float64 {
	return math.Sqrt(math.Log(2/PassPValue) / (2 * float64(n)))
}
