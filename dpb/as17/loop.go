package as17

import (
	"fmt"
)

// OLORegretCurve runs a full-information learner for n rounds on losses and
// writes, after each round in rec, the regret against the best fixed decision
// in hindsight, Σ_{s≤t} ⟨l_s, x_s⟩ − min_{x∈𝒳} ⟨L_t, x⟩, into out.
func OLORegretCurve(l OnlineLearner, set DecisionSet, losses LossSequence, n int, rec []int, out []float64) error {
	d := losses.Dim()
	x, loss, cum := make([]float64, d), make([]float64, d), make([]float64, d)
	var suffered float64
	k := 0
	for t := 1; t <= n; t++ {
		l.Predict(x)
		losses.Next(t, loss)
		for i, v := range loss {
			suffered += float64(v * x[i])
			cum[i] += v
		}
		if err := l.Observe(loss); err != nil {
			return fmt.Errorf("round %d: %w", t, err)
		}
		for k < len(rec) && rec[k] == t {
			out[k] = suffered - set.MinLinear(cum)
			k++
		}
	}
	return nil
}

// BanditRegretCurve is OLORegretCurve for a bandit learner: it feeds back only
// ⟨l_t, x̃_t⟩ and records the realised regret Σ ⟨l_s, x̃_s⟩ − min_{x∈𝒳} ⟨L_t, x⟩.
func BanditRegretCurve(b BanditLearner, set DecisionSet, losses LossSequence, n int, rec []int, out []float64) error {
	d := losses.Dim()
	x, loss, cum := make([]float64, d), make([]float64, d), make([]float64, d)
	var suffered float64
	k := 0
	for t := 1; t <= n; t++ {
		b.Play(x)
		losses.Next(t, loss)
		var v float64
		for i, li := range loss {
			v += float64(li * x[i])
			cum[i] += li
		}
		suffered += v
		if err := b.Feedback(v); err != nil {
			return fmt.Errorf("round %d: %w", t, err)
		}
		for k < len(rec) && rec[k] == t {
			out[k] = suffered - set.MinLinear(cum)
			k++
		}
	}
	return nil
}
