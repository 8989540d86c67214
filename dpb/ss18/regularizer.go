package ss18

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// Regularizer supplies the perturbed statistics of SS18 Algorithm 1 ("LinUCB
// with changing perturbations"):
//
//	V_t = G_t + H_t,   ũ_t = u_t + h_t,   G_t = Σ_{s<t} x_s x_sᵀ,  u_t = Σ_{s<t} y_s x_s
//
// The non-private [Ridge] keeps H_t = λI and h_t = 0; the private tree
// regularizers ([NewRegularizer]: RegWishartTree, RegGaussianTree, RegGaussianCounter…) release G_t and u_t
// through the tree-based mechanism, so H_t and h_t are the tree's noise
// (plus a shift of the identity). LinUCB sees only what StatsTo writes.
type Regularizer interface {
	// Dim returns d.
	Dim() int
	// Add streams round t's observation (x_t, y_t) into the mechanism. The
	// caller (LinUCB) has validated it against DataBound.
	Add(x []float64, y float64)
	// StatsTo writes V_t into v (d×d, row-major) and ũ_t into u (len d).
	StatsTo(v, u []float64)
	// PerturbationTo writes H_t into h (d×d, row-major) and h_t into hv: the
	// part of StatsTo that is not data. It is for checks, never for the policy.
	PerturbationTo(h, hv []float64)
	// Bounds returns ρ_min, ρ_max, γ such that, w.p. ≥ 1 − α/2n per round,
	// ρ_min I ⪯ H_t ⪯ ρ_max I and ‖h_t‖_{H_t⁻¹} ≤ γ (SS18 Proposition 4's
	// hypothesis), and the shift applied.
	Bounds() RegBounds
	// DataBound returns L̃², the bound on ‖x_t‖² + y_t² the mechanism is
	// calibrated for (+Inf when privacy needs none).
	DataBound() float64
}

// Ridge is the non-private regularizer H_t = λI, h_t = 0: LinUCB with Ridge
// is ridge-regression LinUCB (SS18 Figures 2–4 use λ = 1).
type Ridge struct {
	d      int
	lambda float64
	g, u   []float64 // exact G_t (d×d) and u_t
}

// newRidge is [NewRegularizer] for RegRidge: λI in dimension d.
func newRidge(d int, lambda float64) (*Ridge, error) {
	if err := param.CheckDim("dimension", d); err != nil {
		return nil, err
	}
	if err := param.CheckPositive("ridge lambda", lambda); err != nil {
		return nil, err
	}
	return &Ridge{d: d, lambda: lambda, g: make([]float64, d*d), u: make([]float64, d)}, nil
}

// Dim returns d.
func (r *Ridge) Dim() int { return r.d }

// Add adds xxᵀ to G and y·x to u.
func (r *Ridge) Add(x []float64, y float64) {
	d := r.d
	if len(x) != d {
		panic(param.BadDim)
	}
	for i, xi := range x {
		row := r.g[i*d : (i+1)*d]
		for j, xj := range x {
			row[j] += xi * xj
		}
		r.u[i] += y * xi
	}
}

// StatsTo writes G + λI and u.
func (r *Ridge) StatsTo(v, u []float64) {
	d := r.d
	copy(v[:d*d], r.g)
	for i := 0; i < d; i++ {
		v[i*d+i] += r.lambda
	}
	copy(u[:d], r.u)
}

// PerturbationTo writes λI and 0.
func (r *Ridge) PerturbationTo(h, hv []float64) {
	d := r.d
	clear(h[:d*d])
	for i := 0; i < d; i++ {
		h[i*d+i] = r.lambda
	}
	clear(hv[:d])
}

// Bounds returns ρ_min = ρ_max = λ, γ = 0 (they hold with probability 1).
func (r *Ridge) Bounds() RegBounds { return NonPrivateBounds(r.lambda) }

// DataBound returns +Inf: ridge regression needs no bound for privacy.
func (r *Ridge) DataBound() float64 { return math.Inf(1) }

// String describes the regularizer.
func (r *Ridge) String() string { return fmt.Sprintf("Ridge(λ=%g)", r.lambda) }
