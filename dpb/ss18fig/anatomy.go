package ss18fig

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// AnatomyConfig configures [RegretAnatomy]: what SS18's regret is made of
// on the Appendix D environment, variant by variant, one run each on the
// same environment and noise stream.
type AnatomyConfig struct {
	// Algs are the variants (NonPrivate among them as the reference).
	// Required.
	Algs []ss18.Alg
	// Dim, K and Gap are the environment's d, actions per round and Δ.
	// Required (Dim, K ≥ 1; Gap ≥ 0).
	Dim, K int
	Gap    float64
	// N is the horizon the private variants are calibrated for (Fig. 4's
	// 5·10⁶ for the paper's noise); Rounds ≤ N are played. Required.
	N, Rounds int
	// Ends are the last rounds of the windows reported, increasing, the last
	// at most Rounds. Required.
	Ends []int
	// Epsilon and Delta are the privacy parameters (Fig. 4: 1 and 0.1).
	Epsilon, Delta float64
	Seed           uint64
}

// AnatomyRow is one variant's window (From, To] of [RegretAnatomy].
type AnatomyRow struct {
	Alg      string `json:"alg"`
	From, To int
	// Regret is the pseudo-regret accrued in the window; Estimate the part
	// of it in rounds where the greedy action argmax ⟨θ̃_t, x⟩ was already
	// suboptimal (the estimate was wrong), Bonus the rest (the greedy action
	// was optimal and the exploration bonus β_t‖x‖_{V_t⁻¹} moved the choice).
	Regret, Estimate, Bonus float64
	// At round To, ‖θ̃_t − θ*‖_{V_t} (Distance) and the V_t⁻¹-norms of its
	// four sources, V_t(θ̃_t − θ*) = ξ_t + h_t − N_tθ* − c_tθ*: the data's
	// reward noise ξ_t = Σ x_s η_s (Data), the release's noise on the reward
	// vector h_t (RewardNoise), the release's noise on the Gram matrix times
	// θ* (GramNoise), and the shift c_t θ* (Shift: the ridge's shrinkage
	// toward 0; λθ* for NonPrivate).
	Distance, Data, RewardNoise, GramNoise, Shift float64
	// Radius is β_t as played, C the shift c_t, Lambda the certified λ_t ≤
	// λ_min(V_t) (RadiusMinEig variants; 0 for the others).
	Radius, C, Lambda float64
	// Residual is |‖ξ + h − Hθ*‖_{V⁻¹} − Distance|, which the identity makes
	// zero up to rounding: a part missing from the decomposition shows here.
	Residual float64 `json:"residual"`
}

// RegretAnatomy plays each variant of cfg for cfg.Rounds rounds on the
// Appendix D environment (the same seed for every variant: the same
// contexts, and the private variants' noise stream is the same) and splits
// its regret and its estimate's error as [AnatomyRow] says.
func RegretAnatomy(cfg AnatomyConfig) ([]AnatomyRow, error) {
	if len(cfg.Algs) == 0 || cfg.Dim < 1 || cfg.K < 1 || !(cfg.Gap >= 0) || cfg.Rounds < 1 || cfg.Rounds > cfg.N || len(cfg.Ends) == 0 {
		return nil, fmt.Errorf("ss18fig: anatomy config %+v: need variants, d, K ≥ 1, Δ ≥ 0, 1 ≤ rounds ≤ n and window ends", cfg)
	}
	for i, e := range cfg.Ends {
		if e < 1 || e > cfg.Rounds || (i > 0 && e <= cfg.Ends[i-1]) {
			return nil, fmt.Errorf("ss18fig: anatomy window ends %v must increase within [1, %d]", cfg.Ends, cfg.Rounds)
		}
	}
	var out []AnatomyRow
	for _, a := range cfg.Algs {
		rows, err := anatomyOne(cfg, a)
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}

func anatomyOne(cfg AnatomyConfig, a ss18.Alg) ([]AnatomyRow, error) {
	d := cfg.Dim
	pc := ss18.PolicyConfig{Alg: a, Setting: ss18.Setting{D: d, N: cfg.N, Epsilon: cfg.Epsilon, Delta: cfg.Delta, Lt2: 2}, Noise: noise.Simulated}
	if lv, ok := a.Levers(); ok && lv.Split {
		pc.XBound, pc.YBound = 1, 1
	}
	pol, err := ss18.NewPolicy(pc, bandit.Stream(cfg.Seed, 1))
	if err != nil {
		return nil, err
	}
	env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: d, K: cfg.K, Gap: cfg.Gap}, bandit.Stream(cfg.Seed, 0))
	if err != nil {
		return nil, err
	}
	theta := env.Theta()
	r := bandit.NewRound(env)
	xi, th, h, hv, w := make([]float64, d), make([]float64, d), make([]float64, d*d), make([]float64, d), make([]float64, d)
	var rows []AnatomyRow
	row := AnatomyRow{Alg: a.String()}
	for t, e := 1, 0; t <= cfg.Rounds; t++ {
		env.Next(r, t)
		arm := pol.Choose(r)
		pol.ThetaTo(th)
		greedy, gv := 0, math.Inf(-1)
		for k := range r.K {
			if v := dot(th, r.Action(k)); v > gv {
				greedy, gv = k, v
			}
		}
		reg := env.BestMean(r) - env.Mean(r, arm)
		row.Regret += reg
		if env.BestMean(r)-env.Mean(r, greedy) > 1e-12 {
			row.Estimate += reg
		} else {
			row.Bonus += reg
		}
		if t == cfg.Ends[e] {
			anatomyParts(&row, pol, theta, xi, h, hv, w)
			row.From, row.To = rowFrom(cfg.Ends, e), t
			rows = append(rows, row)
			row = AnatomyRow{Alg: a.String()}
			e++
		}
		x := r.Action(arm)
		y := env.Reward(r, arm)
		eta := y - dot(theta, x)
		for i := range xi {
			xi[i] += float64(x[i] * eta)
		}
		pol.Update(r, arm, y)
	}
	if err := pol.Err(); err != nil {
		return nil, err
	}
	return rows, nil
}

// anatomyParts fills row's end-of-window fields from the prepared round.
func anatomyParts(row *AnatomyRow, pol *ss18.LinUCB, theta, xi, h, hv, w []float64) {
	d := len(theta)
	pol.Regularizer().PerturbationTo(h, hv)
	c := pol.Bounds().Shift
	if _, ok := pol.Regularizer().(*ss18.Ridge); ok {
		c = h[0] // λI
	}
	row.Distance = pol.ConfidenceDistance(theta)
	row.Data = pol.InvNorm(xi)
	row.RewardNoise = pol.InvNorm(hv)
	for i := range w {
		w[i] = float64(c * theta[i])
	}
	row.Shift = pol.InvNorm(w)
	for i := range w { // (H − cI)θ*
		var s float64
		for j := range d {
			s += float64(h[i*d+j] * theta[j])
		}
		w[i] = s - float64(c*theta[i])
	}
	row.GramNoise = pol.InvNorm(w)
	for i := range w { // ξ + h − Hθ*
		var s float64
		for j := range d {
			s += float64(h[i*d+j] * theta[j])
		}
		w[i] = xi[i] + hv[i] - s
	}
	row.Residual = math.Abs(pol.InvNorm(w) - row.Distance)
	row.Radius, row.C = pol.Radius(), c
	if isMinEig(pol) {
		row.Lambda = pol.MinEigLower()
	}
}

// isMinEig reports whether pol plays the RadiusMinEig radius (its β_t is
// that form's, bit for bit).
func isMinEig(pol *ss18.LinUCB) bool { return pol.Radius() == pol.RadiusMinEig() }

func rowFrom(ends []int, e int) int {
	if e == 0 {
		return 0
	}
	return ends[e-1]
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += float64(a[i] * b[i])
	}
	return s
}
