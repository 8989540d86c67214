package check

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// The configuration of "as17-exp2-mixture": N arms, horizon T, ε. At N = 4,
// T = 20,000, ε = 1 Theorem 4.1 gives η = 6.1·10⁻⁴ and γ = 0.0118; the
// losses below lower the other arms' log-weights by about η a round, so by
// the end their q_t(i) is ≈ e⁻¹² and their p_t(i) sits on the floor γ/N.
const (
	exp2MixArms = 4
	exp2MixT    = 20_000
	exp2MixEps  = 1.0
	// exp2MixTol is the largest |p_t(i) − p_ref(i)| the row allows: the two
	// computations differ by rounding only (the learner's and the check's
	// logarithms, exponentials and sums, about 10⁻¹⁵ a round on
	// probabilities ≤ 1); the control's defect moves p by ≈ 0.03γ/N.
	exp2MixTol = 1e-9
)

// AS17Exp2Mixture checks private EXP2 as built ([as17.NewPrivateExp2],
// noise.Simulated) against AS17 Algorithm 5 with the η and γ of Theorem 4.1,
// computed here from N, T and ε (as17PrintedExp2, not [as17.Exp2Params],
// which the learner calls): "as17-exp2-mixture". Algorithm 5 plays
//
//	p_t = (1 − γ) q_t + γ/N,   q_{t+1}(i) ∝ q_t(i) exp(−η l̃_t(i)),
//	l̃_t = (ℓ_t / p_t(i_t)) e_{i_t},
//
// so every arm keeps at least γ/N (the uniform exploration μ of Theorem
// 4.1). The row feeds Algorithm 5 inside the built learner (its inner EXP2,
// played and fed directly: Algorithm 4's noise is the subject of
// "as17-exp2-noise-scale", and fed past it the losses are known) the loss 0
// on arm 0 and 1 on the others for T rounds, runs the same recursion in the
// check on the arms the learner draws, and compares p_t with the check's
// every round: exact up to rounding (exp2MixTol). The weights concentrate on
// arm 0, so the floor γ/N binds: a γ off by a factor moves the other arms'
// p_t by that factor, an η off moves q_t. Deterministic given the seed.
// Control: the learner built with γ ×0.97 (Exp2Config.Gamma), the smallest
// scale the catalogue plants for samplers.
func AS17Exp2Mixture(rng *rand.Rand) (Verdicts, error) {
	eta, gamma := as17PrintedExp2(exp2MixArms, exp2MixT, exp2MixEps)
	dev, floor, err := exp2MixtureRun(rng.Uint64(), 0, eta, gamma)
	if err != nil {
		return nil, err
	}
	cdev, _, err := exp2MixtureRun(rng.Uint64(), 0.97*gamma, eta, gamma)
	if err != nil {
		return nil, err
	}
	v := exactRow("as17-exp2-mixture",
		fmt.Sprintf("measured on the built object: private EXP2 plays p_t = (1−γ)q_t + γ/N, q_t the exponential weights at η, η = %.5g and γ = %.5g of Theorem 4.1 (N=%d, T=%d, ε=%g; computed by the check)", eta, gamma, exp2MixArms, exp2MixT, exp2MixEps),
		"AS17 Theorem 4.1 (η, γ as printed, λ = 1/ε) and Algorithm 5 (EXP2 with uniform exploration), in the built private EXP2",
		dev, cdev, exp2MixTol, "the learner built with γ ×0.97",
		fmt.Sprintf("%d rounds, losses 0 on arm 0 and 1 on the others fed to Algorithm 5: largest |p_t(i) − p_ref(i)| = %.3g (tolerance %g, rounding); at the end min_i p_T(i)/(γ/N) = %.5f (the floor binds)", exp2MixT, dev, exp2MixTol, floor))
	return Verdicts{v}, nil
}

// exp2MixtureRun builds private EXP2 (γ from the learner's own default when
// cfgGamma is 0), drives its Algorithm 5 for exp2MixT rounds and returns the
// largest deviation of its p_t from the check's recursion at (eta, gamma)
// and min_i p_T(i)/(γ/N).
func exp2MixtureRun(seed uint64, cfgGamma, eta, gamma float64) (dev, floor float64, err error) {
	const n = exp2MixArms
	l, err := as17.NewPrivateExp2(as17.Exp2Config{Arms: n, Horizon: exp2MixT, Epsilon: exp2MixEps, Gamma: cfgGamma, Noise: noise.Simulated}, bandit.Stream(seed, 0))
	if err != nil {
		return 0, 0, err
	}
	pb, ok := l.(*as17.PrivateBandit)
	if !ok {
		return 0, 0, fmt.Errorf("check: private EXP2 is %T, want Algorithm 4's reduction", l)
	}
	e, ok := pb.Inner().(*as17.Exp2)
	if !ok {
		return 0, 0, fmt.Errorf("check: private EXP2's inner learner is %T, want EXP2", pb.Inner())
	}
	logw := make([]float64, n)
	ref := make([]float64, n)
	x := make([]float64, n)
	refProbs := func() {
		m := math.Inf(-1)
		for _, w := range logw {
			m = math.Max(m, w)
		}
		var z float64
		for i, w := range logw {
			ref[i] = xmath.Exp(w - m)
			z += ref[i]
		}
		for i := range ref {
			ref[i] = float64(float64((1-gamma)*ref[i])/z) + float64(gamma/n)
		}
	}
	compare := func() {
		for i, p := range e.Probs() {
			dev = math.Max(dev, math.Abs(p-ref[i]))
		}
	}
	for range exp2MixT {
		refProbs()
		compare()
		e.Play(x)
		a := e.Arm()
		loss := 1.0
		if a == 0 {
			loss = 0
		}
		if err := e.Feedback(loss); err != nil {
			return 0, 0, err
		}
		logw[a] -= eta * loss / ref[a]
	}
	refProbs()
	compare()
	floor = math.Inf(1)
	for _, p := range e.Probs() {
		floor = math.Min(floor, p/(gamma/n))
	}
	return dev, floor, nil
}

// exactRow is a deterministic verdict: the built object's value deviates
// from the check's own computation by dev, allowed tol (rounding); the
// control, the same run on a planted defect, by cdev. Its slack is dev/tol
// and the control's score cdev/tol (caught iff ≥ 1).
func exactRow(name, claim, ref string, dev, cdev, tol float64, ctlWhat, note string) Verdict {
	fail := func(d float64) int {
		if d > tol || math.IsNaN(d) {
			return 1
		}
		return 0
	}
	v := NewVerdict(name, claim, ref, 0, 0, fail(dev), dev/tol, note)
	v.Tail = v.Slack
	v = withControl(v, NewVerdict("control", "", "", 0, 0, fail(cdev), cdev/tol, ""), ctlWhat)
	v.Detects = fmt.Sprintf("a deviation above %g from the reference computation", tol)
	return v
}
