package bandit

// The bandit and online-learning loops: one run of a learner against an
// environment or a loss sequence, recording cumulative regret.

// RegretCurve runs pol against env for n rounds and writes the cumulative
// pseudo-regret after each round in rec into out.
func RegretCurve(env Environment, pol Policy, n int, rec []int, out []float64) {
	RegretCurveTick(env, pol, n, rec, out, nil)
}

// TickRounds is the most rounds RegretCurveTick plays between two calls of
// its tick function.
const TickRounds = 1 << 14

// RegretCurveTick is [RegretCurve] that also calls tick (if non-nil) with
// the rounds played since its previous call, at every record point and at
// least every TickRounds rounds, for a progress bar. The results are
// RegretCurve's, bit for bit.
func RegretCurveTick(env Environment, pol Policy, n int, rec []int, out []float64, tick func(rounds int)) {
	r := NewRound(env)
	var regret float64
	k, last := 0, 0
	for t := 1; t <= n; t++ {
		// Play up to the next round that records or ticks, then do that.
		stop := n
		if k < len(rec) && rec[k] >= t && rec[k] < stop {
			stop = rec[k]
		}
		if tick != nil && last+TickRounds < stop {
			stop = last + TickRounds
		}
		regret = PlayRounds(env, pol, r, t, stop, regret)
		t = stop
		at := false
		for k < len(rec) && rec[k] == t {
			out[k] = regret
			k++
			at = true
		}
		if tick != nil && (at || t-last >= TickRounds) {
			tick(t - last)
			last = t
		}
	}
}

// PlayRounds plays rounds start…end of pol against env on the round buffer
// r (one round: draw the decision set, choose, add the pseudo-regret of the
// choice, update on its reward) and returns regret plus their cumulative
// pseudo-regret. The loops above and the experiments that interleave
// policies chunk by chunk share it.
func PlayRounds(env Environment, pol Policy, r *Round, start, end int, regret float64) float64 {
	for t := start; t <= end; t++ {
		env.Next(r, t)
		a := pol.Choose(r)
		regret += env.BestMean(r) - env.Mean(r, a)
		pol.Update(r, a, env.Reward(r, a))
	}
	return regret
}
