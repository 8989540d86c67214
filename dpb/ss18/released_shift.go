package ss18

import (
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// releasedShiftGrid is the number of values ρ_t may take: ρ̄·2^{(4−j)/2},
// j = 0, …, 20 (4ρ̄ down to ρ̄/256).
const releasedShiftGrid = 21

// releasedShift is the Shift lever ([Levers]): the regularizer of round t is
// H_t = N_t + (ρ_t + Υ_t) I with ρ_t chosen from released values, instead of
// one ρ_min for every round.
//
// Proof (Proposition 4 with a data-dependent ρ_t). On round t's event
// (‖N_t‖ ≤ Υ_t, ‖h_t‖ ≤ g_t, as for RegGaussianCounterRound),
// ρ_t I ⪯ H_t ⪯ (ρ_t + 2Υ_t) I and ‖h_t‖_{H_t⁻¹} ≤ g_t/√ρ_t whatever ρ_t
// is, so the bias and noise terms keep their bounds with ρ_min = ρ_t. The
// self-normalised term needs V_t ⪰ G_t + ρI for a ρ fixed in advance
// (Abbasi-Yadkori et al. 2011, Thm 1, uniform in t for one λ): ρ_t takes
// one of the K = 21 grid values, and the theorem is applied to each at
// failure probability α/(2K), so that with probability ≥ 1 − α/2 it holds
// for all of them at once and in particular for ρ_t:
//
//	‖ξ_t‖_{V_t⁻¹} ≤ σ √(2 ln(2K/α) + ln det V_t − d ln ρ_t)
//
// (LinUCB adds 2 ln K to its log term: [releasedShift.logGrid]). Privacy:
// ρ_t is a function of the released matrices (post-processing).
//
// The rule. LinUCB reports, after round t's radius, the certified
// λ_t ≤ λ_min(V_t) ([TreeRegularizer.ObserveMinEig]); since V_t =
// M_t + (ρ_t + Υ_t) I with M_t = G_t + N_t the released statistic,
// λ_min(M_t) ≥ λ_t − ρ_t − Υ_t, and on round t's event the data's Gram
// matrix has λ_min(G_{t+1}) ≥ λ_min(G_t) ≥ ℓ = max(0, λ_t − ρ_t − 2Υ_t). Round t+1
// takes the grid value that minimises the radius Proposition 4 and
// RadiusMinEig would give if G_{t+1} were ℓI (σ = S = 1):
//
//	√(2 ln(2K/α) + d ln((ℓ+ρ)/ρ)) + min(√P, P/√(ℓ+ρ)) + g/√(ℓ+ρ),  P = ρ + 2Υ,
//
// with that round's Υ and g: a stated objective computed from the bound and
// released values only (never from regret). Early on ℓ = 0 and the rule
// trades √(ρ + 2Υ) against g/√ρ; once the data's Gram matrix has grown
// past the noise it lowers ρ toward the bottom of the grid. The grid's top
// ρ̄ is the Round calibration's ρ_min (levers.go).
type releasedShift struct {
	grid     [releasedShiftGrid]float64
	logK     float64 // 2 ln K, added to the self-normalised term's log
	logAlpha float64 // 2 ln(2K/α)
	d        float64
	ell      float64 // ℓ for the next round
	cur      RegBounds
}

func newReleasedShift(s Setting, top float64) *releasedShift {
	r := &releasedShift{d: float64(s.D)}
	for j := range r.grid {
		r.grid[j] = top * xmath.Pow(2, float64(4-j)/2)
	}
	k := float64(releasedShiftGrid)
	r.logK = 2 * xmath.Log(k)
	r.logAlpha = 2 * xmath.Log(2*k/s.AlphaOrDefault())
	return r
}

// choose returns ρ_t for a round whose noise bounds are Υ = ups, g = g0.
func (r *releasedShift) choose(ups, g0 float64) float64 {
	best, bv := r.grid[0], math.Inf(1)
	for _, rho := range r.grid {
		lr := r.ell + rho
		p := rho + float64(2*ups)
		v := math.Sqrt(r.logAlpha+float64(r.d*xmath.Log(lr/rho))) + min(math.Sqrt(p), p/math.Sqrt(lr)) + g0/math.Sqrt(lr)
		if v < bv {
			best, bv = rho, v
		}
	}
	return best
}

// observe records round t's certified λ_t ≤ λ_min(V_t) under bounds b
// (ρ_t = b.RhoMin, Υ_t = b.Shift − b.RhoMin): ℓ for round t+1.
func (r *releasedShift) observe(lam float64, b RegBounds) {
	ups := b.Shift - b.RhoMin
	r.ell = max(0, lam-b.Shift-ups)
}
