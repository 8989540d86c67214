package audit

import (
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// dpucb audits DP-UCB (MT14 Algorithm 1, [mt14.DPUCB]) through its output,
// the arm sequence, with k = 2 arms, T = 16, ε = 1 and Γ = 0
// (NoRelaxation: privacy comes from the trees alone and is unchanged, while
// with the printed Γ the choices hardly depend on the noisy totals at this
// horizon and nothing could be seen).
//
// Neighbours: the reward vectors f_t are all 0 (D), or f₁ = (1, 0) and the
// rest 0 (D′). Rounds 1 and 2 pull arms 1 and 2, so round 1's reward is
// leaf 1 of arm 1's counter, which lies in all m = 5 of its noisy nodes
// (the most any reward does) and moves every later private total of arm 1.
// Test: the number of pulls of arm 1 over rounds 3–16 (a label; the region
// is the set of counts most likely under D′, ranked on the selection half).
// The claim is loose by construction: MT14 splits ε over the k trees
// (ε₀ = ε/k) although a round's reward enters one tree, so the pair's true
// ε is at most ε/k = 0.5 (tightness ≤ 0.5).
func dpucb(name string, nm noise.Mode) *Mechanism {
	const arms, horizon, eps = 2, 16, 1.0
	return &Mechanism{
		Name:        name,
		Mechanism:   describe("MT14 Alg. 1 DP-UCB (k = 2, T = 16, Γ = 0), arm sequence", nm),
		Neighbours:  "rewards all 0 (D) or f₁ = (1, 0) (D′): leaf 1 of arm 1's tree, in all m = 5 nodes",
		Test:        "pulls of arm 1 in rounds 3–16 (histogram likelihood ratio, held out)",
		Epsilon:     eps,
		Trials:      200000,
		ShortTrials: 10000,
		Categorical: true,
		New: func() func(*rand.Rand, int) float64 {
			r := &bandit.Round{K: arms}
			return func(rng *rand.Rand, which int) float64 {
				p, err := mt14.NewDPUCB(mt14.DPUCBConfig{Arms: arms, Horizon: horizon, Epsilon: eps, NoRelaxation: true, Noise: nm}, rng)
				if err != nil {
					panic(err)
				}
				pulls := 0
				for t := 1; t <= horizon; t++ {
					r.T = t
					a := p.Choose(r)
					reward := 0.0
					if t == 1 && which == 1 && a == 0 {
						reward = 1
					}
					p.Update(r, a, reward)
					if t >= 3 && a == 0 {
						pulls++
					}
				}
				return float64(pulls)
			}
		},
	}
}

// ftrl audits DP-FTRL (AS17 Algorithm 1, [as17.FTRL]) through its
// predictions, on the experts problem (simplex, N = 2, T = 8, ε = 1, plain
// tree, λ = 2‖𝒴‖₁m/ε = 16 per node).
//
// Neighbours: the losses are all 0 except round 1's, (1, −1) (D) or (−1, 1)
// (D′): 𝒴 = [−1, 1]², so ‖l − l′‖₁ = 4 = 2‖𝒴‖₁ is the largest change, and
// round 1 is leaf 1, in all m = 4 noisy nodes. Test: Hedge's prediction is
// x_{t+1} ∝ exp(−η L̃_t), so ln(x₁/x₂)/(−η) recovers the difference
// u_t = L̃_{t,1} − L̃_{t,2} of the released cumulative losses; at t = 1, 2, 4,
// 8 these are the four nodes containing round 1, each equal to ±2 plus the
// difference of two i.i.d. Lap(λ) draws, whose density is
// f(z) = (1 + |z|/λ) e^{−|z|/λ}/(4λ); the other predictions are functions of
// these and of nodes that do not depend on the input. The statistic is the
// exact log-likelihood ratio Σ_j ln f(u_j + 2) − ln f(u_j − 2). (The padded
// tree of the default configuration adds data-independent noise to these
// releases: at least as private, and no longer an exact ratio.)
func ftrl(name string, nm noise.Mode) *Mechanism {
	const n, horizon, eps = 2, 8, 1.0
	lambda := as17.FTRLLambda(as17.Simplex, n, horizon, eps)
	logf := func(z float64) float64 { return math.Log1p(math.Abs(z)/lambda) - math.Abs(z)/lambda }
	return &Mechanism{
		Name:        name,
		Mechanism:   describe("AS17 Alg. 1 DP-FTRL (experts, N = 2, T = 8, plain tree), predictions", nm),
		Neighbours:  "losses all 0 except l₁ = (1, −1) (D) or (−1, 1) (D′): ‖Δl‖₁ = 2‖𝒴‖₁ = 4",
		Test:        "exact log-likelihood ratio of the loss differences recovered from the predictions at t = 1, 2, 4, 8",
		Epsilon:     eps,
		Trials:      200000,
		ShortTrials: 10000,
		New: func() func(*rand.Rand, int) float64 {
			zero := make([]float64, n)
			l1 := make([]float64, n)
			x := make([]float64, n)
			return func(rng *rand.Rand, which int) float64 {
				f, err := as17.NewFTRL(as17.FTRLConfig{Set: as17.Simplex, Dim: n, Horizon: horizon, Epsilon: eps, Plain: true, Noise: nm}, rng)
				if err != nil {
					panic(err)
				}
				eta := f.Config().Eta
				l1[0], l1[1] = 1, -1
				if which == 1 {
					l1[0], l1[1] = -1, 1
				}
				llr := 0.0
				for t := 1; t <= horizon; t++ {
					loss := zero
					if t == 1 {
						loss = l1
					}
					if err := f.Observe(loss); err != nil {
						panic(err)
					}
					if t&(t-1) == 0 { // t = 1, 2, 4, 8
						f.Predict(x)
						u := (xmath.Log(x[0]) - xmath.Log(x[1])) / -eta
						llr += logf(u+2) - logf(u-2)
					}
				}
				return roundScore(llr)
			}
		},
	}
}

// linUCB audits jointly private LinUCB (SS18 Algorithm 1 with the Gaussian
// tree, [ss18.NewPolicy]; d = 2, n = 8, ε = 1, δ = 0.1, L̃² = 2) through
// what joint DP protects: the actions shown to every other user.
//
// Neighbours: user 1 is offered the single action x = e₁ (D) or x = −e₁
// (D′) and reports y = 1; users 2–8 are offered {e₁, e₂} and report y = 0
// whatever they choose. v = (x, y) has ‖v‖² = 2 = L̃² in both, and v·v′ = 0,
// so ‖vvᵀ − v′v′ᵀ‖_F = √2·L̃², the largest change (here in ũ's first
// entry, by 2). The output is the action sequence of users 2–8 (a label of
// 7 bits; the region is the set of sequences most likely under D′, ranked
// on the selection half). As for the Gaussian tree alone, the claimed
// δ = 0.1 exceeds what the noise lets any test see, so the expected bound is
// 0; the row guards against gross breaks.
func linUCB(name string, nm noise.Mode) *Mechanism {
	s := ss18.Setting{D: 2, N: 8, Epsilon: 1, Delta: 0.1, Lt2: 2}
	return &Mechanism{
		Name:        name,
		Mechanism:   describe("SS18 Alg. 1 LinUCB, Gaussian tree (d = 2, n = 8), actions of users 2–8", nm),
		Neighbours:  "user 1: x = e₁ (D) or −e₁ (D′), y = 1; others choose in {e₁, e₂}, y = 0",
		Test:        "action sequence of users 2–8 (histogram likelihood ratio, held out)",
		Epsilon:     s.Epsilon,
		Delta:       s.Delta,
		Trials:      100000,
		ShortTrials: 4000,
		Categorical: true,
		New: func() func(*rand.Rand, int) float64 {
			first := &bandit.Round{T: 1, K: 1, Dim: 2, Actions: []float64{1, 0}}
			others := &bandit.Round{K: 2, Dim: 2, Actions: []float64{1, 0, 0, 1}}
			return func(rng *rand.Rand, which int) float64 {
				p, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: s, Mode: counter.Plain, Noise: nm}, rng)
				if err != nil {
					panic(err)
				}
				first.Actions[0] = 1
				if which == 1 {
					first.Actions[0] = -1
				}
				a := p.Choose(first)
				p.Update(first, a, 1)
				label := 0
				for t := 2; t <= s.N; t++ {
					others.T = t
					a := p.Choose(others)
					p.Update(others, a, 0)
					label = label<<1 | a
				}
				if err := p.Err(); err != nil {
					panic(err)
				}
				return float64(label)
			}
		},
	}
}
