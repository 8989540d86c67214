package check

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"github.com/dpbandits/dpbandits/dpb/mab"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// The configuration of "privmab-lazydpts-posterior": fresh two-armed
// Lazy-DP-TS policies at ε = 1, arm 0 rewarded 1 and arm 1 rewarded 0.
const (
	lazyPostEps = 1.0
	// lazyPostTrials is the number of fresh policies, one posterior choice
	// each. The score statistic's drift per √trial is 0.048 for the
	// control's Laplace variance ÷2 (computed by simulating the choice
	// probabilities at ε = 1): at 60,000 trials the control sits ≈ 11.7
	// standard deviations from 0, 7.3 beyond the threshold 4.42 (missed
	// with probability < 10⁻¹²; measured −9.3 to −13.6 over 20 seeds, the
	// row's z under the definition within ±3.0, s.d. 1.0). The row fails
	// beyond |z| = 4.42: false failure 10⁻⁵.
	lazyPostTrials = 60_000
	// lazyPostControlEps is the control's ε over the check's: the policy
	// built at √2ε has the Laplace part 2/(εn)² of its posterior variance
	// halved (its releases also carry Lap(1/(√2ε)), which the row reads
	// back and so conditions on).
	lazyPostControlEps = math.Sqrt2
)

// MABLazyDPTSPosterior tests the law of the built Lazy-DP-TS policy's
// posterior draws ([mab.NewLazyDPTS], noise.Simulated) against the
// posterior the check computes from the algorithm's definition (dpb/mab's
// LazyDPTS doc, after Hu & Hegde, UAI 2022, step 2): at an episode start
// θ_a ~ N(clip₀¹(μ̃_a), 1/n_a + 2/(εn_a)²), n_a the rewards behind the
// released mean μ̃_a, and the policy plays argmax_a θ_a:
// "privmab-lazydpts-posterior". A fresh two-armed policy plays its round
// robin (arm 0 rewarded 1, arm 1 rewarded 0: one-reward episodes, n_a = 1,
// μ̃_a read back with PrivateMean), then starts an episode with arm 0 with
// probability
//
//	p = Φ((clip(μ̃_0) − clip(μ̃_1)) / √(v_0 + v_1)),   v_a = 1/n_a + 2/(εn_a)²,
//
// computed here. The row's statistic is the score test for the scale of
// the posterior variance V = v_0 + v_1: S = Σ w_i (y_i − p_i), w_i =
// ∂p_i/∂ln V = −φ(x_i)x_i/2, x_i the argument of Φ, y_i the indicator that
// arm 0 was chosen; Var S = Σ w_i² p_i(1 − p_i) exactly under the
// definition (the trials are independent given the μ̃), and S/√Var S is
// normal to within the Berry–Esseen error of lazyPostTrials bounded
// terms; two-sided at 10⁻⁵ (|z| ≤ 4.42). Control: the policy built at
// √2ε (lazyPostControlEps), its posterior's Laplace part halved.
func MABLazyDPTSPosterior(rng *rand.Rand) (Verdicts, error) {
	seed := rng.Uint64()
	z, err := lazyPostScore(seed, lazyPostEps)
	if err != nil {
		return nil, err
	}
	cz, err := lazyPostScore(seed, lazyPostControlEps*lazyPostEps)
	if err != nil {
		return nil, err
	}
	dev, cdev := math.Abs(z)/z5two, math.Abs(cz)/z5two
	v := NewVerdict("privmab-lazydpts-posterior",
		fmt.Sprintf("measured on the built object: Lazy-DP-TS draws θ_a ~ N(clip₀¹(μ̃_a), 1/n_a + 2/(εn_a)²) and plays argmax θ_a (ε = %g, K = 2, n_a = 1; the posterior computed by the check)", lazyPostEps),
		"Lazy-DP-TS (Hu & Hegde, UAI 2022; the private K-armed bandits after MT14), step 2 of dpb/mab's definition: the posterior's sampling and Laplace variance",
		0, 0, boolFail(dev <= 1), dev,
		fmt.Sprintf("%d fresh policies, one choice each: score z for the posterior variance's scale = %.3g (control, the policy at √2ε: %.3g), fails beyond ±%.3g (two-sided, 1e-5)", lazyPostTrials, z, cz, z5two))
	v.Tail = v.Slack
	v = withControl(v, NewVerdict("control", "", "", 0, 0, boolFail(cdev <= 1), cdev, ""), "the policy built at √2ε (the posterior's Laplace variance ÷2)")
	v.ControlScore = cdev
	v.Detects = "a posterior variance whose scale moves the score test 4.42 standard deviations (the Laplace part ÷2 moves it ≈ 12)"
	return Verdicts{v}, nil
}

// lazyPostScore runs lazyPostTrials fresh two-armed policies built at eps
// and returns the score statistic z of the check's posterior at
// lazyPostEps.
func lazyPostScore(seed uint64, eps float64) (float64, error) {
	round := &bandit.Round{K: 2}
	v := 2 * (1 + 2/(lazyPostEps*lazyPostEps)) // v_0 + v_1 at n_a = 1
	var s, vs float64
	for i := range lazyPostTrials {
		p, err := mab.NewLazyDPTS(mab.LazyDPTSConfig{Arms: 2, Epsilon: eps, Noise: noise.Simulated}, bandit.Stream(seed, uint64(i)))
		if err != nil {
			return 0, err
		}
		for t, r := range [2]float64{1, 0} {
			round.T = t + 1
			if a := p.Choose(round); a != t {
				return 0, fmt.Errorf("check: Lazy-DP-TS chose arm %d in round %d of its round robin", a, t+1)
			}
			p.Update(round, t, r)
		}
		if n := p.Pulls(); n[0] != 1 || n[1] != 1 {
			return 0, fmt.Errorf("check: Lazy-DP-TS has pulls %v after its round robin, want [1 1]", n)
		}
		x := (clip01Ref(p.PrivateMean(0)) - clip01Ref(p.PrivateMean(1))) / math.Sqrt(v)
		pr := phi(x)
		w := -xmath.Exp(-x*x/2) / math.Sqrt(2*math.Pi) * x / 2
		round.T = 3
		y := 0.0
		if p.Choose(round) == 0 {
			y = 1
		}
		s += float64(w * (y - pr))
		vs += float64(w * w * pr * (1 - pr))
	}
	return s / math.Sqrt(vs), nil
}

// clip01Ref clips x into [0, 1] (the clipping of Lazy-DP-TS's posterior
// mean).
func clip01Ref(x float64) float64 { return math.Min(1, math.Max(0, x)) }
