package ss18

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// PrivateMABLowerBound returns the ε-DP part of the lower bound of
// Shariff & Sheffet (2018), Claim 14 / Corollary 15, with the constants of
// its proof: each sub-optimal arm a is pulled at least log(n)/(100·ε·Δ_a)
// times with probability ≥ ½, so the expected pseudo-regret is at least
//
//	Σ_{a: Δ_a > 0} Δ_a · ½ · log(n)/(100·ε·Δ_a) = (#sub-optimal arms) · log(n) / (200·ε).
//
// The claim holds "for sufficiently large n" and for algorithms whose regret
// is at most n^{3/4}; the non-private Ω(Σ log(n)/Δ_a) term of Corollary 15
// has no explicit constant and is left out.
func PrivateMABLowerBound(gaps []float64, n int, eps float64) float64 {
	if n < 1 || !(eps > 0) {
		panic(fmt.Sprintf("ss18: SS18PrivateMABLowerBound(n=%d, eps=%v) out of range", n, eps))
	}
	sub := 0
	for _, d := range gaps {
		if d > 0 {
			sub++
		}
	}
	return float64(sub) * xmath.Log(float64(n)) / (200 * eps)
}
