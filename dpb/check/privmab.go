package check

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// PrivateMABRun is a run of the private-MAB figure (mabfig.Run) as
// [PrivateMABVerdicts] reads it: Curves holds UCB1 (series 0), then every
// algorithm at every ε, each series named "<algorithm> ε=<ε>".
type PrivateMABRun struct {
	Curves     *harness.Curves
	Arms       int
	Best, Gap  float64 // arm 0's mean, the others Best − Gap
	Algorithms []string
	Epsilons   []float64
}

// PrivateMABVerdicts turns a run of the private-MAB figure into verdicts
// on every private algorithm, cell by cell over ε at the last record round:
//
//   - "privmab-<alg>-cor15": E[R(T)] ≥ (k−1) ln T/(200ε), SS18 Corollary 15's
//     ε-term, which every ε-DP algorithm must pay (a regret below it would
//     point at a privacy bug);
//   - "privmab-<alg>-vs-dpucb": E[R(T)] below DP-UCB's (MT14 Alg. 1) at the
//     same ε — the improvement the optimal algorithms claim.
//
// The sharper Azize–Basu (2022) and Azize et al. (2025) bounds are
// asymptotic (a liminf of R(T)/ln T), so they are reported as ratios
// (the figure's table), not as verdicts. The regret upper
// bounds of DP-SE, AdaP, DP-KLUCB/DP-IMED and Lazy-DP-TS are O(·) or
// asymptotic statements whose constants are not printed in the versions
// followed here, so they are not checked either.
func PrivateMABVerdicts(res PrivateMABRun) Verdicts {
	c := res.Curves
	last := len(c.X) - 1
	T := c.X[last]
	find := func(alg string, eps float64) int {
		for s, n := range c.Names {
			if n == fmt.Sprintf("%s ε=%g", alg, eps) {
				return s
			}
		}
		return -1
	}
	note := fmt.Sprintf("k=%d, means %g/%g, T=%.0f, %d runs", res.Arms, res.Best, res.Best-res.Gap, T, c.Reps)
	gaps := make([]float64, res.Arms)
	for a := 1; a < res.Arms; a++ {
		gaps[a] = res.Gap
	}
	var vs Verdicts
	for _, alg := range res.Algorithms {
		var lower, vsUCB []meanCell
		for _, eps := range res.Epsilons {
			s := find(alg, eps)
			if s < 0 {
				continue
			}
			lbl := fmt.Sprintf("ε=%g", eps)
			regret, se := c.Mean[s][last], c.StdErr[s][last]
			lb := ss18.PrivateMABLowerBound(gaps, int(T), eps)
			lower = append(lower, meanCell{label: lbl, mean: regret, se: se, bound: lb, lower: true})
			if d := find("DP-UCB", eps); d >= 0 && alg != "DP-UCB" {
				se := math.Hypot(se, c.StdErr[d][last])
				vsUCB = append(vsUCB, meanCell{label: lbl, mean: regret, se: se, bound: c.Mean[d][last]})
			}
		}
		vs = append(vs, meanVerdict("privmab-"+alg+"-cor15", "E[R(T)] ≥ (k−1) ln T/(200ε) for "+alg+" (an ε-DP algorithm)",
			"SS18 Corollary 15", lower, note))
		if len(vsUCB) > 0 {
			vs = append(vs, meanVerdict("privmab-"+alg+"-vs-dpucb", "E[R(T)] of "+alg+" below DP-UCB's at the same ε",
				"MT14 Alg. 1 vs the optimal private algorithms", vsUCB, note))
		}
	}
	return vs
}
