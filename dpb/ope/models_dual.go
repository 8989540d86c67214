package ope

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/linalg"
)

// MaxModelValues bounds the values a linear reward model's system holds
// (2²⁶ float64s, 512 MB, as [MaxRoundValues]): the (Dim+1)² normal
// equations, or on a wide log the events' m×m dual system with the events'
// nonzero features. A fit beyond it is refused before anything is
// allocated.
const MaxModelValues = 1 << 26

// primalModelValues is the size of normal equations above which a log with
// fewer events than unknowns is fit in the dual form (2²⁰ values, 8 MB:
// the dimensions of every log the figures fit stay below it, so their
// models are the primal solve's bits).
const primalModelValues = 1 << 20

// fitDual fits the ridge model of fitLinear on its m events in the dual
// form. With X the events' feature rows, y their rewards and, with an
// intercept, both centred (X̃ = X − 1x̄ᵀ, ỹ = y − ȳ1, which profiles out the
// unpenalised intercept b = ȳ − ⟨θ, x̄⟩),
//
//	θ = X̃ᵀα,   (X̃X̃ᵀ + λI) α = ỹ,
//
// the same minimiser as the primal normal equations (X̃ᵀX̃ + λI)θ = X̃ᵀỹ.
// X̃X̃ᵀ is the Gram matrix G of the rows double-centred,
// G̃_ij = G_ij − ḡ_i − ḡ_j + ḡ (ḡ_i the row means of G, ḡ their mean).
// The rows are kept sparse: a disjoint-layout row of K·d features has d
// nonzeros.
func fitDual(log Log, r *bandit.Round, fit LinearFit, in func(int) bool, lo, hi, m int) (*LinearModel, error) {
	d := log.Dim()
	if m > MaxModelValues/m {
		return nil, fmt.Errorf("ope: a linear model of the log's %d features on %d events needs a %d×%d system in either form, more than %d values (ope.MaxModelValues); use fewer features or events", d, m, min(m, d+1), min(m, d+1), MaxModelValues)
	}
	budget := MaxModelValues - m*m // for the rows' nonzeros
	start := make([]int, 0, m+1)   // row j's nonzeros are idx, val[start[j]:start[j+1]]
	var idx []int32
	var val []float64
	y := make([]float64, 0, m)
	rd := newReader(log)
	for i := lo; i < hi; i++ {
		if !in(i) {
			continue
		}
		arm, reward, _, err := rd.event(r, i)
		if err != nil {
			return nil, err
		}
		start = append(start, len(val))
		for p, v := range r.Action(arm) {
			if v != 0 {
				idx, val = append(idx, int32(p)), append(val, v)
			}
		}
		if len(val) > budget {
			return nil, fmt.Errorf("ope: a linear model of the log's %d features on %d events needs their %d+ nonzero features beside the %d×%d dual system, more than %d values (ope.MaxModelValues); use fewer features or events", d, m, len(val), m, m, MaxModelValues)
		}
		y = append(y, reward)
	}
	start = append(start, len(val))
	row := func(j int) ([]int32, []float64) { return idx[start[j]:start[j+1]], val[start[j]:start[j+1]] }
	g := make([]float64, m*m)
	for a := range m {
		ia, va := row(a)
		for b := 0; b <= a; b++ {
			ib, vb := row(b)
			var s float64
			for p, q := 0, 0; p < len(ia) && q < len(ib); {
				switch {
				case ia[p] < ib[q]:
					p++
				case ia[p] > ib[q]:
					q++
				default:
					s += float64(va[p] * vb[q])
					p++
					q++
				}
			}
			g[a*m+b], g[b*m+a] = s, s
		}
	}
	intercept := !fit.NoIntercept
	fm := float64(m)
	var ybar float64
	if intercept {
		mean := make([]float64, m)
		var all float64
		for a := range m {
			var s float64
			for b := range m {
				s += g[a*m+b]
			}
			mean[a] = s / fm
			all += mean[a]
		}
		all /= fm
		for a := range m {
			for b := range m {
				g[a*m+b] += all - mean[a] - mean[b]
			}
		}
		for _, v := range y {
			ybar += v
		}
		ybar /= fm
		for j := range y {
			y[j] -= ybar
		}
	}
	for a := range m {
		g[a*m+a] += fit.Lambda
	}
	if !linalg.Cholesky(g, m) {
		return nil, fmt.Errorf("ope: ridge system not positive definite")
	}
	linalg.ForwardSolve(g, m, y)
	linalg.BackSolve(g, m, y) // y is α now
	theta := make([]float64, d)
	var asum float64
	for j := range m {
		ij, vj := row(j)
		for p, k := range ij {
			theta[k] += float64(y[j] * vj[p])
		}
		asum += y[j]
	}
	model := &LinearModel{Theta: theta}
	if intercept {
		// θ = Σ α_j (x_j − x̄) and b = ȳ − ⟨θ, x̄⟩, x̄ the rows' mean.
		xbar := make([]float64, d)
		for j := range m {
			ij, vj := row(j)
			for p, k := range ij {
				xbar[k] += vj[p] / fm
			}
		}
		for k := range theta {
			theta[k] -= float64(asum * xbar[k])
		}
		model.Intercept = ybar - linalg.Dot(theta, xbar)
	}
	return model, nil
}
