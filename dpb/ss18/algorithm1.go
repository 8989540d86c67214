package ss18

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/linalg"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// algorithm1 is SS18 Algorithm 1, LinUCB with changing perturbations, stated
// plainly: the reference [LinUCB] is held to (TestReferenceMatchesFastPath).
// Round t:
//
//  1. the regularizer releases V_t = G_t + H_t and ũ_t = u_t + h_t
//     (Regularizer.StatsTo) and this round's bounds ρ_min, ρ_max, γ;
//  2. V_t = L Lᵀ (Cholesky), θ̃_t = V_t⁻¹ ũ_t by two triangular solves;
//  3. β_t by Proposition 4 (as [BetaLogDet], or [BetaBar] in closed form);
//  4. play x_t = argmax_{x ∈ D_t} ⟨θ̃_t, x⟩ + β_t ‖x‖_{V_t⁻¹}, with
//     ‖x‖_{V_t⁻¹} = ‖L⁻¹x‖ (the first action on ties);
//  5. observe y_t and add (x_t, y_t) to the regularizer, after checking
//     ‖x_t‖² + y_t² ≤ L̃² (or clipping onto it).
//
// Plain loops over row-major slices, allocating as it goes; no kernel, no
// lockstep. It shares with LinUCB only its validated configuration and
// the rule for a V_t that is not positive definite (possible for the
// unshifted Wishart): the smallest jitter j·I, doubling from
// 1e-9·(|tr V_t|/d + 1) (plus −min V_ii when that is negative), that
// makes the factorisation succeed. RadiusMinEig, a post-processing of the
// released V_t with its own tests (radius_mineig_test.go), is refused.
type algorithm1 struct {
	cfg LinUCBConfig
	t   int // rounds completed
}

// newAlgorithm1 returns the reference for the configuration NewLinUCB
// takes, with the same validation and defaults.
func newAlgorithm1(cfg LinUCBConfig) (*algorithm1, error) {
	cfg, _, err := cfg.check()
	if err != nil {
		return nil, err
	}
	if cfg.Radius == RadiusMinEig {
		return nil, fmt.Errorf("ss18: the Algorithm 1 reference has Proposition 4's radii only, not %v", cfg.Radius)
	}
	return &algorithm1{cfg: cfg}, nil
}

// a1Round is one round of Algorithm 1: V_t's factor L (lower triangle,
// row-major), θ̃_t, ln det V_t, β_t and the jitter added to V_t.
type a1Round struct {
	l            []float64
	theta        []float64
	logDet, beta float64
	jitter       float64
}

// round forms round t = a.t+1 from the regularizer's current release.
func (a *algorithm1) round() a1Round {
	d, reg := a.cfg.Dim, a.cfg.Regularizer
	v, u := make([]float64, d*d), make([]float64, d)
	reg.StatsTo(v, u)
	l := append([]float64(nil), v...)
	var jit float64
	if !linalg.Cholesky(l, d) {
		var tr float64
		minDiag := math.Inf(1)
		for i := 0; i < d; i++ {
			tr += math.Abs(v[i*d+i])
			minDiag = min(minDiag, v[i*d+i])
		}
		jit = float64(1e-9 * (tr/float64(d) + 1))
		if minDiag < 0 {
			jit += -minDiag
		}
		for {
			copy(l, v)
			for i := 0; i < d; i++ {
				l[i*d+i] += jit
			}
			if linalg.Cholesky(l, d) {
				break
			}
			jit *= 2
			if math.IsInf(jit, 0) || math.IsNaN(jit) {
				panic("ss18: V_t cannot be made positive definite (non-finite statistics)")
			}
		}
	}
	theta := append([]float64(nil), u...)
	linalg.ForwardSolve(l, d, theta) // L w = ũ
	linalg.BackSolve(l, d, theta)    // Lᵀ θ̃ = w
	logDet := linalg.LogDetChol(l, d)
	// β_t = σ·sqrt(2 ln(2/α) + ln det V_t − d ln ρ_min) + S·sqrt(ρ_max) + γ
	// (Proposition 4; the root of 0 when a jittered V_t makes the argument
	// negative), or its closed form β̄_t.
	b, c := reg.Bounds(), a.cfg
	beta := c.Sigma*math.Sqrt(max(0, 2*xmath.Log(2/c.Alpha)+logDet-float64(d)*xmath.Log(b.RhoMin))) + c.S*math.Sqrt(b.RhoMax) + b.Gamma
	if c.Radius == RadiusClosedForm {
		beta = BetaBar(ConfidenceParams{D: d, Sigma: c.Sigma, S: c.S, L: c.L, Alpha: c.Alpha}, b, a.t+1)
	}
	return a1Round{l: l, theta: theta, logDet: logDet, beta: beta, jitter: jit}
}

// scores returns every action's upper confidence bound
// ⟨θ̃_t, x⟩ + β_t ‖L⁻¹x‖ for round rd.
func (a *algorithm1) scores(rd a1Round, r *bandit.Round) []float64 {
	d := a.cfg.Dim
	sc := make([]float64, r.K)
	for k := range sc {
		x := r.Action(k)
		w := append([]float64(nil), x...)
		linalg.ForwardSolve(rd.l, d, w)
		var lin, q float64
		for i := 0; i < d; i++ {
			lin += rd.theta[i] * x[i]
			q += float64(w[i] * w[i])
		}
		sc[k] = lin + rd.beta*math.Sqrt(q)
	}
	return sc
}

// Choose plays Algorithm 1's action for round r.
func (a *algorithm1) Choose(r *bandit.Round) int {
	sc := a.scores(a.round(), r)
	best := 0
	for k, s := range sc {
		if s > sc[best] {
			best = k
		}
	}
	return best
}

// Update adds the observation (x_t, y_t) of the arm played, refusing data
// that is not finite or beyond the bound L̃² (with a tolerance of one part
// in 10¹², as LinUCB), clipping it onto the bound when the configuration
// says Clip.
func (a *algorithm1) Update(r *bandit.Round, arm int, y float64) error {
	x := append([]float64(nil), r.Action(arm)...)
	n2 := y * y
	for _, v := range x {
		n2 += float64(v * v)
	}
	if math.IsNaN(n2) || math.IsInf(n2, 0) {
		return fmt.Errorf("ss18: observation (x, y) not finite")
	}
	x, y, err := boundOf(a.cfg.Regularizer).admit(x, y, n2, a.cfg.Clip, x)
	if err != nil {
		return err
	}
	a.cfg.Regularizer.Add(x, y)
	a.t++
	return nil
}
