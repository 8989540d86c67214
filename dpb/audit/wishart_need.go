package audit

import (
	"math"
	"sync"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"gonum.org/v1/gonum/stat/distuv"
)

// wishartNeedRuns is the number of Monte Carlo draws behind
// [wishartDelta]: its estimate of δ(ε) has standard error ≤ 0.5/√runs ≈
// 0.0016. At the end-to-end row's d = 5, m = 6, (ε, δ) = (1, 0.1), δ(1)
// moves by ≈ 0.02 per degree of freedom near δ = 0.1 (0.106 at k = 15,
// 0.088 at k = 16), so the k found is exact, not merely within the Monte
// Carlo error.
const wishartNeedRuns = 100000

// wishartDelta estimates the exact privacy profile δ(ε) of the Wishart
// mechanism of SS18 §4.1 on one user: m independent node matrices
// M_j = W_j + vvᵀ, W_j ~ W_p(I, k) (p = d + 1, L̃² = 1), v = e₁ (D) or e₂
// (D′) (the pair whose ‖Δ(vvᵀ)‖_F = √2 is the largest).
//
// The log-likelihood ratio of D′ to D at M (density ∝
// det(W)^{(k−p−1)/2} e^{−tr W/2}; the traces cancel) is, under D′,
//
//	L = −(k − p − 1)/2 · Σ_j ln det(I₂ + C G_j),   C = diag(−1, 1),
//
// G_j the {1, 2} block of W_j⁻¹ (det(W + UCUᵀ) = det W · det(I + C UᵀW⁻¹U)),
// and G_j⁻¹ is a Schur complement, W₂(I₂, k − p + 2)-distributed: a 2×2
// Wishart by the Bartlett decomposition. L = +∞ where det(I + CG) ≤ 0 (a
// release D cannot produce). δ(ε) = E_{D′}[(1 − e^{ε−L})₊] (the hockey-stick
// divergence; the pair is symmetric, so this is the profile of the pair
// in both directions), estimated over runs draws from one seeded stream.
func wishartDelta(k, p, m int, eps float64, runs int, seed uint64) float64 {
	rng := bandit.Stream(seed, 0)
	kp := float64(k - p + 2)
	c1 := distuv.ChiSquared{K: kp, Src: rng}
	c2 := distuv.ChiSquared{K: kp - 1, Src: rng}
	coef := float64(k-p-1) / 2
	sum := 0.0
	for range runs {
		logdet := 0.0
		impossible := false
		for range m {
			a11 := math.Sqrt(c1.Rand())
			a22 := math.Sqrt(c2.Rand())
			a21 := rng.NormFloat64()
			// S = AAᵀ, G = S⁻¹.
			s11, s12, s22 := a11*a11, a11*a21, float64(a21*a21)+float64(a22*a22)
			det := float64(s11*s22) - float64(s12*s12)
			g11, g12, g22 := s22/det, -s12/det, s11/det
			q := float64((1-g11)*(1+g22)) + float64(g12*g12)
			if !(q > 0) {
				impossible = true
				break
			}
			logdet += xmath.Log(q)
		}
		if impossible {
			sum++
			continue
		}
		l := -coef * logdet
		if l > eps {
			sum += -math.Expm1(eps - l)
		}
	}
	return sum / float64(runs)
}

// wishartKNeeded returns the smallest k (found by bisection over
// [wishartDelta] with fixed seed, so within its Monte Carlo precision) at
// which m released Wishart nodes of size p are (ε, δ)-DP for the pair of
// [wishartDelta]: the degrees of freedom the claim needs, against which
// [ss18.Setting.WishartKTight] (Theorem 8 per node and optimal composition)
// can be compared. It searches [p + 2, hi].
func wishartKNeeded(p, m int, eps, delta float64, hi int) int {
	lo := p + 2
	if wishartDelta(lo, p, m, eps, wishartNeedRuns, 1) <= delta {
		return lo
	}
	// Bracket by doubling (the profile falls fast with k), then bisect.
	found := false
	for next := 2 * lo; next < hi; next *= 2 {
		if wishartDelta(next, p, m, eps, wishartNeedRuns, 1) <= delta {
			hi, found = next, true
			break
		}
		lo = next
	}
	if !found && wishartDelta(hi, p, m, eps, wishartNeedRuns, 1) > delta {
		return hi
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if wishartDelta(mid, p, m, eps, wishartNeedRuns, 1) > delta {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// wishartNeed caches [wishartKNeeded] for the end-to-end Wishart row by
// target δ (about a CPU-second each, computed when the row's control is
// first built).
var wishartNeed struct {
	sync.Mutex
	k map[float64]int
}
