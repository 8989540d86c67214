package check

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/experiment"
)

// PrivateMABVerdicts turns a run of [experiment.RunPrivateMAB] into verdicts
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
// ([experiment.PrivateMABResult.Table]), not as verdicts. The regret upper
// bounds of DP-SE, AdaP, DP-KLUCB/DP-IMED and Lazy-DP-TS are O(·) or
// asymptotic statements whose constants are not printed in the versions
// followed here, so they are not checked either.
func PrivateMABVerdicts(res *experiment.PrivateMABResult) Verdicts {
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
	note := fmt.Sprintf("k=%d, means %g/%g, T=%.0f, %d runs", res.Config.Arms, res.Config.Best, res.Config.Best-res.Config.Gap, T, c.Reps)
	var vs Verdicts
	for _, alg := range res.Config.Algorithms {
		var lower, vsUCB []meanCell
		for _, row := range res.Table() {
			if row.Algorithm != alg {
				continue
			}
			lbl := fmt.Sprintf("ε=%g", row.Epsilon)
			lb := row.Regret / row.VsBounds[0]
			lower = append(lower, meanCell{label: lbl, mean: row.Regret, se: row.StdErr, bound: lb, lower: true})
			if d := find("DP-UCB", row.Epsilon); d >= 0 && alg != "DP-UCB" {
				se := math.Hypot(row.StdErr, c.StdErr[d][last])
				vsUCB = append(vsUCB, meanCell{label: lbl, mean: row.Regret, se: se, bound: c.Mean[d][last]})
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
