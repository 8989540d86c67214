package ss18fig

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// TestRegretAnatomy: the decomposition is complete (‖ξ + h − Hθ*‖_{V⁻¹}
// equals the distance ‖θ̃ − θ*‖_V up to rounding, for the ridge and a
// private variant), the distance is within the sum of its parts (triangle
// inequality), and the windows' regret splits into its two parts. Control:
// the same identity with h left out misses by far more than rounding, so a
// missing part would show.
func TestRegretAnatomy(t *testing.T) {
	cfg := AnatomyConfig{Algs: []ss18.Alg{ss18.NonPrivate, ss18.GaussianLevers}, Dim: 3, K: 9, Gap: 0.1, N: 4000, Rounds: 2000,
		Ends: []int{10, 100, 2000}, Epsilon: 1, Delta: 0.1, Seed: 3}
	rows, err := RegretAnatomy(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 6 {
		t.Fatalf("%d rows, want 6", len(rows))
	}
	for _, r := range rows {
		if r.Residual > 1e-9*max(1, r.Distance) {
			t.Errorf("%s (%d, %d]: residual %v of distance %v", r.Alg, r.From, r.To, r.Residual, r.Distance)
		}
		if r.Distance > (r.Data+r.RewardNoise+r.GramNoise+r.Shift)*(1+1e-12) {
			t.Errorf("%s (%d, %d]: distance %v above its parts' sum", r.Alg, r.From, r.To, r.Distance)
		}
		if math.Abs(r.Regret-r.Estimate-r.Bonus) > 1e-9*max(1, r.Regret) {
			t.Errorf("%s: regret %v ≠ %v + %v", r.Alg, r.Regret, r.Estimate, r.Bonus)
		}
	}
	priv := rows[5]
	if !(priv.RewardNoise > 1e3*priv.Residual+1e-6) {
		t.Errorf("control: the reward-noise part %v is not far above the residual %v: leaving it out would not show", priv.RewardNoise, priv.Residual)
	}
	if !(priv.Lambda > 0) || rows[2].Lambda != 0 {
		t.Errorf("λ_t: private %v (want > 0), ridge %v (want 0)", priv.Lambda, rows[2].Lambda)
	}
	if _, err := RegretAnatomy(AnatomyConfig{Algs: cfg.Algs, Dim: 3, K: 9, N: 10, Rounds: 20, Ends: []int{5}}); err == nil {
		t.Error("rounds above n accepted")
	}
}
