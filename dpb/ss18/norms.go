package ss18

import (
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// The Norms lever ([Levers]) replaces the two norm bounds of
// [roundNoise] by sharper ones for the same noise, at the same privacy
// (they are constants computed from public parameters):
//
//   - Υ_t = σ_V√V_t(Ê_d + 2√(ln(4/a_t))): the Gram block's noise is
//     σ_V√V_t·W with W = (G + Gᵀ)/√2 the d×d GOE matrix, λ_max(W) is
//     √2-Lipschitz in the standard normals behind W, so
//     P(λ_max ≥ E λ_max + 2√(ln(4/a))) ≤ a/4 (and the same for −λ_min), as
//     in roundNoise; only E λ_max(W) ≤ 2√d (Sudakov–Fernique) is replaced,
//     by Ê_d, a certified Monte Carlo upper bound ([goeMeanBound]).
//   - g_t = σ_u√V_t·q_d(a_t/2): the reward vector's noise has i.i.d.
//     N(0, σ_u²V_t) entries, so ‖h_t‖/(σ_u√V_t) is χ_d, and q_d(p) is an
//     upper bound on its upper p-quantile from the exact tail
//     ([chiQuantileUpper]) instead of the Lipschitz bound √d + √(2 ln(1/p)).
//
// At d = 5 and the a_t of Fig. 4's early rounds this is about −10 % on Υ_t
// and −20 % on g_t.

// goeMCSamples and goeMCSeed are the Monte Carlo draws behind
// goeLambdaMaxMC: m = 10⁶ GOE matrices from rand.New(rand.NewPCG(goeMCSeed, d)).
const (
	goeMCSamples = 1000000
	goeMCSeed    = 0x5eed60e
)

// goeLambdaMaxMC[d−1] is the sample mean of λ_max(W) over goeMCSamples
// d×d GOE matrices W = (G + Gᵀ)/√2 (off-diagonal entries N(0, 1), diagonal
// N(0, 2)), d = 1..len: written by `go test ./dpb/ss18 -run
// TestGOELambdaMaxTable -args -gen-goe` (norms_test.go, 514 s on a 2-vCPU
// Xeon), whose long form re-derives the entries d ≤ 4 bit for bit. d = 2
// has the closed form E λ_max = √(π/2) = 1.25331 (the table: 1.25268).
var goeLambdaMaxMC = [...]float64{
	-0.001130674610461754, // d = 1
	1.252680819168224,     // d = 2
	2.0744171413263257,    // d = 3
	2.7201357213288433,    // d = 4
	3.2672188699942644,    // d = 5
	3.7486854758043573,    // d = 6
	4.1858928671685245,    // d = 7
	4.589596926171631,     // d = 8
	4.962027313911296,     // d = 9
	5.313501370661357,     // d = 10
	5.646127791553672,     // d = 11
	5.959432259656035,     // d = 12
	6.261499455672676,     // d = 13
	6.549708373583818,     // d = 14
	6.826380765812921,     // d = 15
	7.095952645674577,     // d = 16
}

// normsMCShare is the share of the failure budget α spent on the Monte
// Carlo bound: Ê_d < E λ_max(W) has probability at most α′ = α/100 over
// the table's draw, so the per-round budgets of the Norms lever sum to
// (α − α′)/2 instead of α/2.
const normsMCShare = 0.01

// goeMeanBound returns Ê_d, an upper bound on E λ_max(W) for the d×d GOE
// matrix W that fails with probability at most alphaMC over the Monte
// Carlo draw, and never above Sudakov–Fernique's 2√d: the sample mean of m
// i.i.d. √2-Lipschitz functions of standard normals is sub-Gaussian with
// variance proxy 2/m, so mean + √(4 ln(1/alphaMC)/m) ≥ E λ_max except with
// probability alphaMC. Beyond the table it is 2√d.
func goeMeanBound(d int, alphaMC float64) float64 {
	sf := 2 * math.Sqrt(float64(d))
	if d < 1 || d > len(goeLambdaMaxMC) {
		return sf
	}
	return min(sf, goeLambdaMaxMC[d-1]+math.Sqrt(4*xmath.Log(1/alphaMC)/goeMCSamples))
}

// chiTailUpper returns an upper bound on P(χ²_d > x), x ≥ 0: the exact
// finite sums of the regularised upper incomplete gamma function Q(d/2, x/2)
// (Abramowitz & Stegun 26.4.4–5), with erfc(z) for odd d bounded above by
// 2e^{−z²}/(√π(z + √(z² + 4/π))) (A&S 7.1.13), within 2 % at the tails
// used here.
func chiTailUpper(d int, x float64) float64 {
	h := x / 2
	e := xmath.Exp(-h)
	if d%2 == 0 {
		var s, term float64 = 0, 1
		for j := 0; j < d/2; j++ {
			if j > 0 {
				term = float64(term*h) / float64(j)
			}
			s += term
		}
		return float64(e * s)
	}
	z := math.Sqrt(h)
	erfc := float64(2*e) / float64(math.Sqrt(math.Pi)*(z+math.Sqrt(float64(z*z)+4/math.Pi)))
	// Σ_{j=1}^{(d−1)/2} h^{j−½}/Γ(j + ½), Γ(3/2) = √π/2, Γ(j + 3/2) = (j + ½)Γ(j + ½).
	var s float64
	term := float64(z / (math.Sqrt(math.Pi) / 2))
	for j := 1; j <= (d-1)/2; j++ {
		if j > 1 {
			term = float64(term*h) / (float64(j) - 0.5)
		}
		s += term
	}
	return erfc + float64(e*s)
}

// chiQuantileUpper returns q ≥ the upper p-quantile of χ_d (the norm of d
// standard normals): P(χ_d > q) ≤ p by [chiTailUpper], found by bisection
// below the Lipschitz bound √d + √(2 ln(1/p)) (which satisfies it), to
// relative 10⁻¹².
func chiQuantileUpper(d int, p float64) float64 {
	hi := math.Sqrt(float64(d)) + math.Sqrt(2*xmath.Log(1/p))
	lo := 0.0
	for hi-lo > 1e-12*hi {
		mid := (lo + hi) / 2
		if chiTailUpper(d, float64(mid*mid)) <= p {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// roundNoiseNorms is [roundNoise] with the Norms lever's bounds: Υ =
// σ_V√v(Ê_d + 2√(ln(4/a))) with Ê_d = eBound, and g = σ_u√v·q with
// q = [normsQuantile] of a budget at most a (roundCal.at computes it once per
// grid cell, at the cell's last round, whose budget is the smallest).
func roundNoiseNorms(sigmaV, sigmaU, v, eBound, a, q float64) (ups, g0 float64) {
	sqv := math.Sqrt(v)
	ups = float64(float64(sigmaV*sqv) * (eBound + 2*math.Sqrt(xmath.Log(4/a))))
	g0 = float64(float64(sigmaU*sqv) * q)
	return ups, g0
}

// normsQuantile returns q_d(a/2), the Norms lever's bound on ‖h‖/(σ_u√v)
// at failure budget a/2 (the half of round t's budget a_t that roundNoise
// gives the reward vector).
func normsQuantile(d int, a float64) float64 { return chiQuantileUpper(d, a/2) }

// normsSetup returns what the Norms lever fixes for a setting of dimension
// d and failure budget α: the budget its per-round bounds share,
// α(1 − normsMCShare), and Ê_d at the Monte Carlo bound's share α′ =
// α·normsMCShare. roundCal and the calibration both take it from here.
func normsSetup(alpha float64, d int) (rounds, eBound float64) {
	mc := float64(alpha * normsMCShare)
	return alpha - mc, goeMeanBound(d, mc)
}
