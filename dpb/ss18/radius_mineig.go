package ss18

import (
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/linalg"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// The RadiusMinEig form of β_t (see [RadiusMinEig]): λ_t ≤ λ_min(V_t)
// certified from the round's factor, and the two terms it tightens.

// minEigLower returns λ_t ≤ λ_min(V_t), the largest of ρ_min (on
// Proposition 4's event V_t ⪰ H_t ⪰ ρ_min I) and two candidates computed
// from the round's factor, each less a rigorous bound on its floating-point
// error (u = 2⁻⁵³, γ_k = ku/(1 − ku)):
//
//   - Frobenius: the factor L̂ (Cholesky with reciprocal multiplication, any
//     summation order) satisfies L̂L̂ᵀ = V_t + ΔV, |ΔV| ≤ γ_{d+2}|L̂||L̂ᵀ|
//     (Higham, Accuracy and Stability of Numerical Algorithms, 2002,
//     Thm. 10.3, with one more rounding for the reciprocal), so ‖ΔV‖₂ ≤
//     γ_{d+2}‖L̂‖²_F (|L̂||L̂ᵀ| is positive semidefinite with that trace). M̂,
//     the computed L̂⁻¹, is not L̂⁻¹: with the residual R = I − M̂L̂, bounded
//     entry by entry by the computed one plus γ_{d+2}(|M̂||L̂|)_ij twice
//     over, ‖R‖₂ ≤ ‖R‖_F = r < 1 gives L̂⁻¹ = (I − R)⁻¹M̂ and
//     λ_min(L̂L̂ᵀ) = ‖L̂⁻¹‖₂⁻² ≥ (1 − r)²/‖M̂‖²_F. Hence
//     λ_min(V_t) ≥ (1 − r)²/‖M̂‖²_F − γ_{d+2}‖L̂‖²_F. (It had no margin
//     before issue 56 and overstated λ_min by up to 1.55·10⁻⁴ relative on
//     ill-conditioned matrices.)
//   - Cholesky test: a power iteration on V_t⁻¹ = M̂ᵀM̂ estimates λ̂ ≥ λ_min
//     from above (a Rayleigh quotient of V_t⁻¹ never exceeds its largest
//     eigenvalue), then the largest μ among f·λ̂, f = 0.999, 0.99, 0.95, 0.8,
//     0.5, for which the Cholesky factorisation of fl(L̂L̂ᵀ) − μI runs to
//     completion certifies λ_min(V_t) ≥ μ − c·u·tr(V), c = 4(d+1) for
//     d ≥ 2 and 9 at d = 1: the test's backward error and ΔV (γ_{d+2}·tr
//     each), fl(L̂L̂ᵀ)'s error (γ_d·tr) and the rounding of μ on the
//     diagonal (u·tr) sum to (3d + 5)u·tr plus terms of order u², below the
//     margin, so V_t − μI plus a perturbation of norm below it is positive
//     definite. Inverse iteration alone would err on
//     the unsafe side; the Cholesky test is what certifies.
//
// Every sum the bounds themselves form is rounded in the safe direction
// (relative factors 1 ± 4d²u). When V_t was not positive definite and was
// factored with jitter j·I added, both candidates certify V_t + jI and j is
// subtracted. O(d³) per round.
func (p *LinUCB) minEigLower() float64 {
	d, dp := p.d, p.f.dp
	var f float64
	for j := 0; j < d; j++ {
		for _, m := range p.f.mt[j*dp+j : j*dp+d] {
			f += float64(m * m)
		}
	}
	lam := p.b.RhoMin
	if !(f > 0) || math.IsInf(f, 0) {
		return lam
	}
	const u = 0x1p-53
	safe := float64(4 * float64(d*d) * u)                // relative error of a sum of ≤ d² rounded terms, with room
	g := float64(d+2) * u / (1 - float64(d+2)*u)         // γ_{d+2}
	lam = max(lam, p.frobeniusLower(f, g, safe)-p.f.jit) // −Inf when the residual is not below 1
	v, a, x, y := p.f.eig[:d*d], p.f.eig[d*d:2*d*d], p.f.eig[2*d*d:2*d*d+d], p.f.eig[2*d*d+d:]
	// Power iteration on V⁻¹ = MᵀM (M lower triangular, column j of M at
	// mt[j·dp+j : j·dp+d]) from a vector with every component.
	for i := range x {
		x[i] = 1 + float64(i)/float64(d)
	}
	var rq float64
	for range 16 {
		for i := range y {
			y[i] = p.invFactorRow(i, x) // y = M x
		}
		var ny, nx float64
		for i := range x {
			nx += float64(x[i] * x[i])
			ny += float64(y[i] * y[i])
		}
		rq = ny / nx // xᵀV⁻¹x / xᵀx
		// x = Mᵀ y
		for j := 0; j < d; j++ {
			x[j] = linalg.Dot(p.f.mt[j*dp+j:j*dp+d], y[j:d])
		}
	}
	if !(rq > 0) || math.IsInf(rq, 0) {
		return lam
	}
	hat := 1 / rq
	// V = L Lᵀ (lower triangle) from the factor in p.f.v, and its trace.
	var tr float64
	for i := 0; i < d; i++ {
		for j := 0; j <= i; j++ {
			v[i*d+j] = linalg.Dot(p.f.v[i*d:i*d+j+1], p.f.v[j*d:j*d+j+1])
		}
		tr += v[i*d+i]
	}
	// The margin's constant: above 3d + 5 (two γ_{d+2}·tr terms, γ_d·tr and
	// u·tr) with room for the second-order terms: 4(d+1) for d ≥ 2 (as
	// before issue 56), 9 at d = 1.
	c := float64(max(4*(d+1), 3*d+6))
	margin := float64(float64(c*0x1p-53)*tr) + p.f.jit
	for _, fr := range [...]float64{0.999, 0.99, 0.95, 0.8, 0.5} {
		mu := float64(fr * hat)
		if mu-margin <= lam {
			break
		}
		for i := 0; i < d; i++ { // the lower triangle of V − μI
			copy(a[i*d:i*d+i], v[i*d:i*d+i])
			a[i*d+i] = v[i*d+i] - mu
		}
		if linalg.Cholesky(a, d) {
			return max(lam, mu-margin)
		}
	}
	return lam
}

// frobeniusLower returns minEigLower's Frobenius candidate (1 − r)²/f −
// γ‖L̂‖²_F for f = ‖M̂‖²_F and g = γ_{d+2}, or −Inf when the residual bound
// r of I − M̂L̂ is not below 1; safe is the relative allowance for the
// rounding of its own sums.
func (p *LinUCB) frobeniusLower(f, g, safe float64) float64 {
	d, dp := p.d, p.f.dp
	var lf, rr float64
	for i := 0; i < d; i++ {
		for j := 0; j <= i; j++ {
			l := p.f.v[i*d+j]
			lf += float64(l * l)
			// (M̂L̂)_ij = Σ_{k=j..i} M_ik L_kj, M_ik at mt[k·dp+i].
			var s, a float64
			for k := j; k <= i; k++ {
				ml := float64(p.f.mt[k*dp+i] * p.f.v[k*d+j])
				s += ml
				a += math.Abs(ml)
			}
			r := -s
			if i == j {
				r = 1 - s
			}
			e := float64(math.Abs(r)*(1+4*0x1p-53)) + float64(2*g*a)
			rr += float64(e * e)
		}
	}
	r := float64(math.Sqrt(rr) * (1 + safe))
	if !(r < 1) {
		return math.Inf(-1)
	}
	return float64(float64((1-r)*(1-r))/f*(1-safe)) - float64(g*lf*(1+safe))
}

// minEigTerms returns RadiusMinEig's bias and noise terms,
// S·min(√ρ_max, ρ_max/√λ) + min(γ, g₀/√λ), for a lower bound λ on
// λ_min(V_t).
func (p *LinUCB) minEigTerms(lam float64) float64 {
	bias, noise := p.minEigBounds(lam)
	return bias + noise
}

func (p *LinUCB) minEigBounds(lam float64) (bias, noise float64) {
	b := p.b
	bias = float64(p.cfg.S * min(math.Sqrt(b.RhoMax), b.RhoMax/math.Sqrt(lam)))
	return bias, min(b.Gamma, p.noiseNorm()/math.Sqrt(lam))
}

// noiseNorm returns g₀, the bound on ‖h_t‖ on Proposition 4's event: the
// regularizer's own (NoiseNormBound) when it has one, else γ√ρ_max, which
// holds for any regularizer since ‖h‖₂ ≤ √λ_max(H_t)·‖h‖_{H_t⁻¹}.
func (p *LinUCB) noiseNorm() float64 {
	if g, ok := p.reg.(interface{ NoiseNormBound() float64 }); ok {
		return g.NoiseNormBound()
	}
	return float64(p.b.Gamma * math.Sqrt(p.b.RhoMax))
}

// RadiusMinEig returns β_t of the RadiusMinEig form for the current round,
// whatever form the policy plays with (the proof checks compare the forms
// on one run).
func (p *LinUCB) RadiusMinEig() float64 {
	p.ensure()
	return p.minEigRadius(p.lamT())
}

// lamT returns λ_t for a prepared round, computed once a round.
func (p *LinUCB) lamT() float64 {
	if !p.f.lamOK {
		p.f.lam, p.f.lamOK = p.minEigLower(), true
	}
	return p.f.lam
}

// MinEigRadius returns the RadiusMinEig form of β_t for the current round
// with λ in place of λ_t. Proposition 4's coverage holds for any λ ≤
// λ_min(V_t) (RadiusMinEig's certified one); a larger λ shrinks the radius
// below what the proof allows, and the proof checks use λ_t overstated as
// their negative control.
func (p *LinUCB) MinEigRadius(lam float64) float64 {
	p.ensure()
	return p.minEigRadius(lam)
}

// minEigRadius is MinEigRadius for a prepared round.
func (p *LinUCB) minEigRadius(lam float64) float64 {
	c0 := p.rc.c0
	if p.cfg.Radius == RadiusClosedForm { // c0 is the closed form's there
		c0 = 2*xmath.Log(2/p.cfg.Alpha) - float64(p.d)*xmath.Log(p.b.RhoMin)
	}
	return float64(p.cfg.Sigma*math.Sqrt(max(0, c0+p.logDet))) + p.minEigTerms(lam)
}

// MinEigLower returns RadiusMinEig's λ_t ≤ λ_min(V_t) for the current round:
// the largest of ρ_min (on Proposition 4's event), (1 − 10⁻⁹)/‖L_t⁻¹‖²_F,
// and μ − 4(d+1)u·tr(V_t) for the largest fraction μ of a power-iteration
// estimate at which V_t − μI factors by Cholesky (u = 2⁻⁵³).
func (p *LinUCB) MinEigLower() float64 {
	p.ensure()
	return p.lamT()
}

// MinEigBounds returns RadiusMinEig's two bounds for the current round with
// λ in place of λ_t: bias ≥ ‖H_t θ*‖_{V_t⁻¹} and noise ≥ ‖h_t‖_{V_t⁻¹}, which
// hold on Proposition 4's event for any λ ≤ λ_min(V_t) (for the proof checks,
// term by term).
func (p *LinUCB) MinEigBounds(lam float64) (bias, noise float64) {
	p.ensure()
	return p.minEigBounds(lam)
}
