package bandit

// The bandit and online-learning loops: one run of a learner against an
// environment or a loss sequence, recording cumulative regret.

// RegretCurve runs pol against env for n rounds and writes the cumulative
// pseudo-regret after each round in rec into out.
func RegretCurve(env Environment, pol Policy, n int, rec []int, out []float64) {
	r := NewRound(env)
	var regret float64
	k := 0
	for t := 1; t <= n; t++ {
		env.Next(r, t)
		a := pol.Choose(r)
		regret += env.BestMean(r) - env.Mean(r, a)
		pol.Update(r, a, env.Reward(r, a))
		for k < len(rec) && rec[k] == t {
			out[k] = regret
			k++
		}
	}
}
