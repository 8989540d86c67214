package as17

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// On secure noise Algorithm 4 releases m = ⌊ℓ/‖x̃‖∞⌉_g + g·k, k exact
// discrete Laplace of τ = ⌈λ(1 + g/(2B))/g⌉ grid steps, and feeds the
// learner ‖x̃‖∞·m plus discrete draws for x̃'s other coordinates: for x̃ =
// e_2 (EXP2's plays) every fed loss minus ⌊ℓ⌉_g is a multiple of g whose
// variance is the discrete Laplace's, 2e^{−1/τ}/(1 − e^{−1/τ})²·g²; for x̃ =
// (0.5, −1, 0) the variance is 1.25 times it. Seeded bits (SecureSeeded)
// reproduce, and differ from the simulated run's. z-tests with
// false-failure probability ≈ 1e-5 each (Laplace kurtosis 6).
func TestPrivateBanditSecureLaw(t *testing.T) {
	const lam, draws, loss = 2.0, 20000, 0.7
	for _, x := range [][]float64{{0, 1, 0}, {0.5, -1, 0}} {
		run := func(m noise.Mode, seed uint64) ([]float64, *PrivateBandit) {
			rec := &recorder{x: x}
			pb, err := NewPrivateBandit(rec, PrivateBanditConfig{Dim: 3, Lambda: lam, Bound: 1, Noise: m}, bandit.Stream(seed, 1))
			if err != nil {
				t.Fatal(err)
			}
			buf := make([]float64, 3)
			for range draws {
				pb.Play(buf)
				if err := pb.Feedback(loss); err != nil {
					t.Fatal(err)
				}
			}
			return rec.got, pb
		}
		got, pb := run(noise.SecureSeeded, 56)
		again, _ := run(noise.SecureSeeded, 56)
		sim, _ := run(noise.Simulated, 56)
		g, tau := pb.sec.Grid(), float64(pb.sec.Tau())
		q := math.RoundToEven(loss/g) * g
		same, differs := true, false
		var m, v float64
		for i, l := range got {
			same = same && l == again[i]
			differs = differs || l != sim[i]
			if x[0] == 0 {
				if k := (l - q) / g; k != math.Trunc(k) {
					t.Fatalf("x̃ = %v: fed loss %v is not ⌊ℓ⌉_g plus a grid multiple (g = %v)", x, l, g)
				}
			}
			m += l - q
		}
		m /= draws
		for _, l := range got {
			v += (l - q - m) * (l - q - m)
		}
		v /= draws - 1
		r := math.Exp(-1 / tau)
		want := 2 * r / ((1 - r) * (1 - r)) * g * g
		if x[0] != 0 {
			want *= 1.25
		}
		if !same || !differs {
			t.Errorf("x̃ = %v: seeded runs identical %v, differ from simulated %v", x, same, differs)
		}
		if math.Abs(m) > testkit.Z5*math.Sqrt(want/draws) {
			t.Errorf("x̃ = %v: noise mean %.4g, want 0 ± %.4g", x, m, testkit.Z5*math.Sqrt(want/draws))
		}
		if tol := testkit.Z5 * math.Sqrt(5*want*want/draws); math.Abs(v-want) > tol {
			t.Errorf("x̃ = %v: noise variance %.4g, want %.4g ± %.4g (τ = %v steps)", x, v, want, tol, tau)
		}
		// τ pays for the rounding: (2B + g)/(τg) ≤ 2B/λ, the continuous ε.
		if eps := (2 + g) / (tau * g); eps > 2/lam {
			t.Errorf("discrete ε %v above the continuous 2B/λ = %v", eps, 2/lam)
		}
		if p := pb.Privacy(); p.Noise != "secure-seeded" || p.Epsilon != 2/lam {
			t.Errorf("privacy %s", p)
		}
	}
}
