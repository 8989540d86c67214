package accounting

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// KOVDelta returns the smallest δ at which the adaptive m-fold composition
// of mechanisms that are each (ε₀, δ₀)-DP is (ε, δ)-DP: the optimal
// composition theorem of Kairouz, Oh & Viswanath (2015, Thm 3.3), in the
// form of Murtagh & Vadhan (2016, Thm 1.5) valid at every ε:
//
//	δ = 1 − (1 − δ₀)^m (1 − δ_RR),
//	δ_RR = (1 + e^{ε₀})^{−m} Σ_{l=0}^{m} C(m, l) max(0, e^{(m−l)ε₀} − e^{ε} e^{lε₀}).
//
// δ_RR is the hockey-stick divergence of m independent randomized
// responses with parameter ε₀, which dominate every (ε₀, 0)-DP mechanism.
// No bound can be smaller for every such composition (the theorem's
// optimality), so this is the tight value for mechanisms known only by
// their per-mechanism (ε₀, δ₀). Valid for m ≥ 1, ε, ε₀ ≥ 0, δ₀ ∈ [0, 1).
func KOVDelta(m int, eps0, delta0, eps float64) float64 {
	mf := float64(m)
	norm := mf * softplus(eps0) // ln (1 + e^{ε₀})^m
	var s float64
	for l := 0; l <= m; l++ {
		lf := float64(l)
		if (mf-lf)*eps0 <= eps+float64(lf*eps0) {
			break // terms decrease in l; the rest are 0
		}
		lc := lgammaInt(m+1) - lgammaInt(l+1) - lgammaInt(m-l+1)
		s += xmath.Exp(lc+float64((mf-lf)*eps0)-norm) - xmath.Exp(lc+eps+float64(lf*eps0)-norm)
	}
	return 1 - xmath.Pow(1-delta0, mf)*(1-s)
}

func softplus(x float64) float64 {
	if x > 30 {
		return x + xmath.Exp(-x)
	}
	return math.Log1p(xmath.Exp(x))
}

func lgammaInt(n int) float64 {
	v, _ := math.Lgamma(float64(n))
	return v
}

// KOVEpsilon0 returns the largest per-mechanism ε₀ such that m-fold
// composition of (ε₀, δ₀)-DP mechanisms is (ε, δ)-DP by [KOVDelta], or 0
// if δ₀ leaves no room (1 − (1−δ₀)^m ≥ δ).
func KOVEpsilon0(m int, delta0, eps, delta float64) float64 {
	if KOVDelta(m, 0, delta0, eps) > delta {
		return 0
	}
	return bisect(0, eps, func(e0 float64) bool { return KOVDelta(m, e0, delta0, eps) <= delta })
}

// AdvancedComposition returns ε′ of the m-fold adaptive composition of
// ε₀-DP mechanisms at slack δ′ (Dwork, Rothblum & Vadhan 2010; Dwork & Roth
// 2014, Thm 3.20): ε′ = √(2m ln(1/δ′)) ε₀ + m ε₀ (e^{ε₀} − 1). With
// per-mechanism δ₀ the composition is (ε′, mδ₀ + δ′)-DP. [KOVDelta] is
// never larger.
func AdvancedComposition(m int, eps0, deltaPrime float64) float64 {
	mf := float64(m)
	return float64(math.Sqrt(2*mf*xmath.Log(1/deltaPrime))*eps0) + float64(mf*eps0*math.Expm1(eps0))
}

// WishartEps0 inverts SS18 Theorem 8 (Sheffet 2015): a Wishart node
// W_{d+1}(L̃²I, k₀) is (ε₀, δ₀)-DP when k₀ ≥ d + 1 + 28 ε₀⁻² ln(4/δ₀); the ε₀
// that k₀ degrees of freedom give is √(28 ln(4/δ₀)/(k₀ − d − 1)). It
// returns +Inf when k₀ ≤ d + 1.
func WishartEps0(k, d int, delta0 float64) float64 {
	if k <= d+1 {
		return math.Inf(1)
	}
	return math.Sqrt(28 * xmath.Log(4/delta0) / float64(k-d-1))
}

// WishartK is the result of [WishartKOV].
type WishartK struct {
	K      int     `json:"k"`      // degrees of freedom per node
	Eps0   float64 `json:"eps0"`   // per-node ε₀ that K gives by Theorem 8
	Delta0 float64 `json:"delta0"` // per-node δ₀
	// Delta is the δ at the target ε that KOV composition gives for K: ≤ the target.
	Delta float64 `json:"delta"`
}

// WishartKOV returns the smallest Wishart degrees of freedom k per node of
// SS18 §4.1 (d-dimensional contexts, node matrices of size d+1, m nodes per
// record) for which the tree is (ε, δ)-DP by SS18 Theorem 8 per node and the
// optimal composition theorem ([KOVDelta]) over the m nodes. It scans the
// per-node δ₀ = f·δ/m over a log grid of f in (0, 1), takes for each the
// largest ε₀ by [KOVEpsilon0] and k = d + 1 + ⌈28 ln(4/δ₀)/ε₀²⌉, and keeps the
// smallest k. The returned K is certified: Delta, recomputed from K's own
// ε₀, is ≤ δ.
func WishartKOV(d, m int, eps, delta float64) (WishartK, error) {
	if err := checkCount("dimension d", d); err != nil {
		return WishartK{}, err
	}
	if err := checkCount("nodes per record m", m); err != nil {
		return WishartK{}, err
	}
	if err := checkTarget(eps, delta); err != nil {
		return WishartK{}, err
	}
	best := WishartK{K: math.MaxInt}
	mf := float64(m)
	for i := 1; i < 400; i++ {
		f := xmath.Pow(10, -4+4*float64(i)/400) // 1e-4 … 1
		d0 := f * delta / mf
		e0 := KOVEpsilon0(m, d0, eps, delta)
		if !(e0 > 0) {
			continue
		}
		kf := float64(d+1) + math.Ceil(28*xmath.Log(4/d0)/(e0*e0))
		if kf >= float64(math.MaxInt32) {
			continue
		}
		if k := int(kf); k < best.K {
			best = WishartK{K: k, Delta0: d0}
		}
	}
	if best.K == math.MaxInt {
		return WishartK{}, fmt.Errorf("accounting: no Wishart k below 2³¹ reaches (ε=%g, δ=%g) over m=%d nodes", eps, delta, m)
	}
	best.Eps0 = WishartEps0(best.K, d, best.Delta0)
	best.Delta = KOVDelta(m, best.Eps0, best.Delta0, eps)
	if !(best.Delta <= delta) {
		return WishartK{}, fmt.Errorf("accounting: internal: Wishart k=%d gives δ=%g > %g", best.K, best.Delta, delta)
	}
	return best, nil
}
