package as17

import (
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// This file holds every constant and bound of AS17 (Agarwal & Singh 2017) in
// one place. "log" in the paper is read as the natural logarithm; the tree's
// level count m = TreeLevels(T) = 1 + ⌈log₂ T⌉ is what a loss actually enters.

// FTRLLambdaPrinted is λ of Theorem 3.1 / Corollary 3.2 as printed:
//
//	λ = ‖𝒴‖₁ log T / ε      (experts: N log T/ε, sphere: √N log T/ε, cube: log T/ε)
func FTRLLambdaPrinted(set DecisionSet, n, horizon int, eps float64) float64 {
	return set.YNorm1(n) * xmath.Log(float64(horizon)) / eps
}

// FTRLLambda is the privacy-correct Laplace scale of a TreeBasedAgg node:
//
//	λ = 2‖𝒴‖₁ · m / ε,   m = 1 + ⌈log₂ T⌉.
//
// Two corrections to the printed λ: (i) a loss enters m tree nodes, and
// m > ln T for every T (ln T/m → ln 2), so ε/m, not ε/log T, is each node's
// share; (ii) under Definition 2.1 neighbours replace one loss vector, so
// the ℓ1 sensitivity of a node sum is max ‖l − l'‖₁ = 2‖𝒴‖₁, not ‖𝒴‖₁.
// This is the default of [FTRLConfig].
func FTRLLambda(set DecisionSet, n, horizon int, eps float64) float64 {
	return 2 * set.YNorm1(n) * float64(counter.TreeLevels(horizon)) / eps
}

// FTRLDR returns D_R = max_𝒳 R − min_𝒳 R for Corollary 3.2's regulariser:
// log N (entropy on the simplex), 1 (‖x‖² on the ball), N (‖x‖² on the cube).
func FTRLDR(set DecisionSet, n int) float64 {
	switch set {
	case Simplex:
		return xmath.Log(float64(n))
	case Ball:
		return 1
	case Cube:
		return float64(n)
	}
	panic("as17: unknown decision set")
}

// FTRLG2 returns G² = max_{x∈𝒳, l∈𝒴} (‖l‖*_{∇²R(x)})², the squared local dual
// norm of Theorem 3.1: Σ x_i l_i² ≤ 1 for the entropy (∇²R = diag(1/x)), and
// ‖l‖₂²/2 ≤ 1/2 for R = ‖x‖² (∇²R = 2I) with ‖l‖₂ ≤ 1 (sphere) or ‖l‖₁ ≤ 1 (cube).
func FTRLG2(set DecisionSet) float64 {
	if set == Simplex {
		return 1
	}
	return 0.5
}

// FTRLEta is the documented step of [FTRL]: the minimiser of the proof's
// bound D_R/η + η T G² (Theorem 3.4, eqs. 2–4), η = √(D_R/(T G²)):
//
//	experts √(log N / T),  sphere √(2/T),  cube √(2N/T).
func FTRLEta(set DecisionSet, n, horizon int) float64 {
	return math.Sqrt(FTRLDR(set, n) / (float64(horizon) * FTRLG2(set)))
}

// FTRLBound is the regret bound the proof of Theorem 3.4 gives for step η:
//
//	Regret ≤ D_R/η + η T G² + D_Lap.
//
// At η = FTRLEta it equals 2√(D_R T G²) + D_Lap: the printed Theorem 3.1
// ([Theorem31Bound]) omits the factor 2.
func FTRLBound(set DecisionSet, n, horizon int, eta, dLap float64) float64 {
	return FTRLDR(set, n)/eta + float64(eta*float64(horizon)*FTRLG2(set)) + dLap
}

// Theorem31Bound is Theorem 3.1 as printed: √(D_R Σ_t G²) + D_Lap.
func Theorem31Bound(set DecisionSet, n, horizon int, dLap float64) float64 {
	return math.Sqrt(FTRLDR(set, n)*float64(horizon)*FTRLG2(set)) + dLap
}

// Corollary32Bound is the O(·) of Corollary 3.2 (Table 1) with constant 1:
//
//	experts √(T log N) + N log²T log N / ε
//	sphere  √T + N log²T / ε
//	cube    √(NT) + N log²T / ε
//
// ε = +Inf gives the non-private term.
func Corollary32Bound(set DecisionSet, n, horizon int, eps float64) float64 {
	t, nn := float64(horizon), float64(n)
	l2 := xmath.Pow(xmath.Log(t), 2)
	switch set {
	case Simplex:
		return math.Sqrt(t*xmath.Log(nn)) + nn*l2*xmath.Log(nn)/eps
	case Ball:
		return math.Sqrt(t) + nn*l2/eps
	case Cube:
		return math.Sqrt(nn*t) + nn*l2/eps
	}
	panic("as17: unknown decision set")
}

// DLap estimates D_Lap = E[max_𝒳 ⟨Z, x⟩ − min_𝒳 ⟨Z, x⟩] of Theorem 3.1 by
// Monte Carlo, Z a sum of m independent Lap^N(λ) vectors (the law of every
// TreeBasedAgg release, Lemma 3.3). It returns the mean and its standard error.
func DLap(set DecisionSet, n, m int, lambda float64, samples int, rng *rand.Rand) (mean, stderr float64) {
	if rng == nil {
		panic(param.NilRand)
	}
	if samples < 2 || m < 1 || n < 1 {
		panic("as17: DLap needs samples >= 2, m >= 1, n >= 1")
	}
	z := make([]float64, n)
	var s, ss float64
	for range samples {
		clear(z)
		for range m {
			for i := range z {
				z[i] += noise.Laplace(rng, lambda)
			}
		}
		w := set.Width(z)
		s += w
		ss += float64(w * w)
	}
	k := float64(samples)
	mean = s / k
	v := (ss - k*mean*mean) / (k - 1)
	return mean, math.Sqrt(math.Max(v, 0) / k)
}

// FTPLSigma is σ of Theorem 3.5 as printed:
//
//	σ = max{ ‖𝒴‖₂ √(T/(√N log T)),  (√N/ε) log T log(log T/δ) }.
//
// ε = +Inf keeps the first (regret) term only.
func FTPLSigma(set DecisionSet, n, horizon int, eps, delta float64) float64 {
	t, nn := float64(horizon), float64(n)
	lt := xmath.Log(t)
	s := set.YNorm2(n) * math.Sqrt(t/(math.Sqrt(nn)*lt))
	if math.IsInf(eps, 1) {
		return s
	}
	return math.Max(s, math.Sqrt(nn)/eps*lt*xmath.Log(lt/delta))
}

// Theorem35Bound is the O(·) of Theorem 3.5 with constant 1:
//
//	N^{1/4} ‖𝒳‖₂ ‖𝒴‖₂ √T + (N ‖𝒳‖₂/ε) log^{1.5} T log(log T/δ).
func Theorem35Bound(set DecisionSet, n, horizon int, eps, delta float64) float64 {
	t, nn := float64(horizon), float64(n)
	x2, y2 := set.XNorm2(n), set.YNorm2(n)
	b := float64(xmath.Pow(nn, 0.25) * x2 * y2 * math.Sqrt(t))
	if math.IsInf(eps, 1) {
		return b
	}
	lt := xmath.Log(t)
	return b + float64(nn*x2/eps*xmath.Pow(lt, 1.5)*xmath.Log(lt/delta))
}

// Exp2Params returns η and γ of Theorem 4.1 as printed, with λ = 1/ε:
//
//	η = √( log N / (2NT(1 + 2λ² log NT)) ),   γ = ηN √(1 + 2λ² log NT).
//
// ε = +Inf gives λ = 0.
func Exp2Params(arms, horizon int, eps float64) (eta, gamma float64) {
	n, t := float64(arms), float64(horizon)
	lam := 1 / eps
	c := 1 + float64(2*lam*lam*xmath.Log(n*t))
	eta = math.Sqrt(xmath.Log(n) / (2 * n * t * c))
	return eta, eta * n * math.Sqrt(c)
}

// Exp2GammaCorrected is the γ the proof of Theorem 4.1 needs: Lemma 4.4
// requires η|l̃_t(i)| ≤ 1, i.e. ηN(1 + 4λ log NT) ≤ γ under the event F̄, but
// the printed γ = ηN√(1 + 2λ² log NT) is smaller by about 2√(2 log NT) when
// λ is large. This returns γ = ηN(1 + 4λ log NT) (capped at 1).
func Exp2GammaCorrected(arms, horizon int, eps float64) float64 {
	eta, _ := Exp2Params(arms, horizon, eps)
	n, t := float64(arms), float64(horizon)
	return math.Min(1, eta*n*(1+float64(4/eps*xmath.Log(n*t))))
}

// Theorem41Bound is the O(·) of Theorem 4.1 with constant 1:
// √(NT log T log N)/ε (for ε = +Inf, the non-private √(NT log N)).
func Theorem41Bound(arms, horizon int, eps float64) float64 {
	n, t := float64(arms), float64(horizon)
	if math.IsInf(eps, 1) {
		return math.Sqrt(n * t * xmath.Log(n))
	}
	return math.Sqrt(n*t*xmath.Log(t)*xmath.Log(n)) / eps
}

// Exp2ProofBound is the last explicit line of the proof of Theorem 4.1 plus
// the P(F)·T ≤ 1 term:
//
//	log N/η + 2ηTN(1 + λ² log² NT) + 2Tγ + 1.
func Exp2ProofBound(arms, horizon int, eps, eta, gamma float64) float64 {
	n, t := float64(arms), float64(horizon)
	lam := 1 / eps
	l := xmath.Log(n * t)
	return xmath.Log(n)/eta + float64(2*eta*t*n*(1+float64(lam*lam*l*l))) + float64(2*t*gamma) + 1
}

// SCRiBLENu returns ν, the self-concordance parameter of the barrier used on
// 𝒳: 1 for −log(1 − ‖x‖²) on the ball, 2N for −Σ log(1 − x_i²) on the cube.
func SCRiBLENu(set DecisionSet, n int) float64 {
	switch set {
	case Ball:
		return 1
	case Cube:
		return 2 * float64(n)
	}
	panic("as17: SCRiBLE supports the ball and the cube")
}

// SCRiBLELambda is λ = ‖𝒴‖₁/ε of Theorem 4.5 (Lemma 4.2 with B = ‖𝒴‖₁).
// ε = +Inf gives 0.
func SCRiBLELambda(set DecisionSet, n int, eps float64) float64 {
	return set.YNorm1(n) / eps
}

// SCRiBLEEta is η of Theorem 4.5 as printed, with M = max |⟨l, x⟩| = 1 for
// the ball and the cube with their 𝒴:
//
//	η = √( ν log T / (2N²T(M² + λ² N ‖𝒳‖₂²)) ).
func SCRiBLEEta(set DecisionSet, n, horizon int, eps float64) float64 {
	nn, t := float64(n), float64(horizon)
	lam := SCRiBLELambda(set, n, eps)
	x2 := set.XNorm2(n)
	return math.Sqrt(SCRiBLENu(set, n) * xmath.Log(t) / (2 * nn * nn * t * (1 + float64(lam*lam*nn*x2*x2))))
}

// Theorem45Bound is the O(·) of Theorem 4.5 with constant 1 and M = 1:
//
//	√(T log T) · √( N² ν (M² + N ‖𝒳‖₂² ‖𝒴‖₁² / ε²) ).
func Theorem45Bound(set DecisionSet, n, horizon int, eps float64) float64 {
	nn, t := float64(n), float64(horizon)
	x2, y1 := set.XNorm2(n), set.YNorm1(n)
	p := 0.0
	if !math.IsInf(eps, 1) {
		p = nn * x2 * x2 * y1 * y1 / (eps * eps)
	}
	return math.Sqrt(t*xmath.Log(t)) * math.Sqrt(nn*nn*SCRiBLENu(set, n)*(1+p))
}
