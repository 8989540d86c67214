package mt14

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// The constants of Mishra & Thakurta (MT14), in one place. Logarithms are
// natural throughout: the paper writes "log" without a base, and UCB1's
// sqrt(2 log t / n) (Auer et al. 2002), which Algorithm 1 extends, is natural.

// Gamma returns the confidence relaxation Γ of MT14 Algorithm 1, line 7:
//
//	Γ = k · log²T · log(k·T·log T / γ) / ε
//
// with k arms, horizon T, privacy ε and failure probability γ. (The text
// extraction prints the denominator as "Γ"; it is ε, as the regret of
// Theorem 4 shows.) It panics unless k >= 1, T >= 2, ε > 0 and γ ∈ (0, 1).
func Gamma(k, T int, eps, gamma float64) float64 {
	if k < 1 || T < 2 || !(eps > 0) || !(gamma > 0 && gamma < 1) {
		panic(fmt.Sprintf("mt14: MT14Gamma(k=%d, T=%d, eps=%v, gamma=%v) out of range", k, T, eps, gamma))
	}
	lt := xmath.Log(float64(T))
	return float64(k) * lt * lt * xmath.Log(float64(k)*float64(T)*lt/gamma) / eps
}

// Theorem4Bound returns the regret bound of MT14 Theorem 4 with the
// unspecified O(·) constant set to 1:
//
//	Σ_{a: Δ_a > 0} ( k · log²T · log(k·T/γ) / (ε·Δ_a) + Δ_a )
//
// gaps holds Δ_a for every arm (zeros, the optimal arms, are skipped). It
// holds with probability ≥ 1 − γ over the algorithm's noise. Being an O(·)
// bound, it is compared with measured regret by shape (slope in log T), not
// by level.
func Theorem4Bound(gaps []float64, T int, eps, gamma float64) float64 {
	if T < 2 || !(eps > 0) || !(gamma > 0 && gamma < 1) {
		panic(fmt.Sprintf("mt14: MT14Theorem4Bound(T=%d, eps=%v, gamma=%v) out of range", T, eps, gamma))
	}
	k := float64(len(gaps))
	lt := xmath.Log(float64(T))
	c := k * lt * lt * xmath.Log(k*float64(T)/gamma) / eps
	var s float64
	for _, d := range gaps {
		if d > 0 {
			s += c/d + d
		}
	}
	return s
}

// UCB1Bound returns the non-private UCB1 bound MT14 Theorem 2 cites (Auer et
// al. 2002, Theorem 1, with its constants): Σ_{Δ_a>0} 8 ln T/Δ_a + (1 + π²/3)Δ_a.
func UCB1Bound(gaps []float64, T int) float64 {
	lt := xmath.Log(float64(T))
	var s float64
	for _, d := range gaps {
		if d > 0 {
			s += 8*lt/d + float64((1+math.Pi*math.Pi/3)*d)
		}
	}
	return s
}

// Epsilon0 returns the per-tree privacy ε₀ = 2ε/(d² + 3d) of MT14
// Algorithm 2, line 2: A has d(d+1)/2 entries (i ≤ j) and b has d, so the
// (d² + 3d)/2 trees compose to ε.
func Epsilon0(eps float64, d int) float64 {
	return 2 * eps / float64(d*d+3*d)
}

// EpsilonFromEpsilon0 inverts [Epsilon0]: ε = ε₀(d² + 3d)/2. MT14
// Section 5.2 uses ε₀ = 0.1 at d = 6, that is ε = 2.7.
func EpsilonFromEpsilon0(eps0 float64, d int) float64 {
	return eps0 * float64(d*d+3*d) / 2
}

// TreeCounterScale returns the Laplace scale per tree node that makes a
// binary-mechanism counter over `horizon` rounds eps-DP when each round's
// value changes by at most sens (ℓ1) between neighbours: a value enters one
// node per level, m = [counter.TreeLevels](horizon) = 1 + ⌈log₂ horizon⌉ nodes, so
// the node sums have ℓ1 sensitivity m·sens and Lap(m·sens/eps) per node gives
// eps-DP (Laplace mechanism, Dwork et al. 2006; Chan, Shi & Song 2011).
// MT14 Section 2.1 counts values in [0, 1] (sens = 1) and cites an additive
// error O(log^{1.5} T / ε).
func TreeCounterScale(horizon int, sens, eps float64) float64 {
	return float64(counter.TreeLevels(horizon)) * sens / eps
}
