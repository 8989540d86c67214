package as17

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// GaussianWidth returns w = E[max_{x∈𝒳} ⟨G, x⟩ − min_{x∈𝒳} ⟨G, x⟩] for
// G ~ N(0, I_n): the D_{D'} of AS17 Theorem 3.4 for D' = N(0, I_n) (scale
// it by the s.d. for N(0, s²I_n)). Exact:
//
//	simplex  E[max_i G_i − min_i G_i] = 2n ∫ x φ(x) Φ(x)^{n−1} dx   (quadrature)
//	ball     E[2‖G‖₂] = 2√2 Γ((n+1)/2)/Γ(n/2)
//	cube     E[2‖G‖₁] = 2n√(2/π)
func GaussianWidth(set DecisionSet, n int) float64 {
	if n < 1 {
		panic("as17: GaussianWidth needs n >= 1")
	}
	nn := float64(n)
	switch set {
	case Simplex:
		if n == 1 {
			return 0
		}
		// Simpson's rule on [−12, 12]: the integrand is below 1e-30
		// outside, and smooth, so 2400 panels are exact to ~1e-12.
		const a, k = 12.0, 2400
		h := 2 * a / k
		f := func(x float64) float64 {
			phi := xmath.Exp(-x*x/2) / math.Sqrt(2*math.Pi)
			return x * phi * xmath.Pow(0.5*math.Erfc(-x/math.Sqrt2), nn-1)
		}
		s := f(-a) + f(a)
		for i := 1; i < k; i++ {
			w := 2.0
			if i%2 == 1 {
				w = 4
			}
			s += float64(w * f(-a+float64(float64(i)*h)))
		}
		return 2 * nn * s * h / 3
	case Ball:
		lg1, _ := math.Lgamma((nn + 1) / 2)
		lg0, _ := math.Lgamma(nn / 2)
		return 2 * math.Sqrt2 * xmath.Exp(lg1-lg0)
	case Cube:
		return 2 * nn * math.Sqrt(2/math.Pi)
	}
	panic("as17: unknown decision set")
}

// FTRLNoiseLipschitz returns c with |⟨l, x(L+z) − x(L)⟩| ≤ c·η·W(z) for
// every l ∈ 𝒴, where x(L) = argmin η⟨x, L⟩ + R(x) is DP-FTRL's
// prediction ([FTRLArgminTo]) and W(z) = max_𝒳⟨z, x⟩ − min_𝒳⟨z, x⟩:
//
//   - simplex (Hedge): d/dτ ⟨l, x(L+τz)⟩ = −η Cov_x(l, z), and
//     |Cov_x(l, z)| ≤ (range l/2)(range z/2) ≤ W(z)/2 for ‖l‖_∞ ≤ 1: c = ½;
//   - ball: x = Π_ball(−ηL/2) is (η/2)-Lipschitz in ℓ2 and ‖l‖₂ ≤ 1, so the
//     change is ≤ η‖z‖₂/2 = η W(z)/4: c = ¼;
//   - cube: x = clip(−ηL/2) moves each coordinate by ≤ η|z_i|/2 and
//     ‖l‖₁ ≤ 1, so the change is ≤ η‖z‖_∞/2 ≤ η‖z‖₁/2 = η W(z)/4: c = ¼.
func FTRLNoiseLipschitz(set DecisionSet) float64 {
	switch set {
	case Simplex:
		return 0.5
	case Ball, Cube:
		return 0.25
	}
	panic("as17: unknown decision set")
}

// FTRLCounterBound is the regret bound of DP-FTRL's (ε, δ) variant on a
// continual counter ([FTRLConfig].Delta, [FTRLGaussianSigma]) and its parts.
//
// AS17 Theorem 3.4 needs every release to have the same noise law D' (its
// eq. (1) replaces the per-round noise Z_{t−1} by one draw Z ~ D'; Lemma
// 3.3's padding makes it so for TreeBasedAgg). A Gaussian counter's release
// noise at round t is N(0, σ²V_t I) (V_t = [Counter].VarianceAt(t)): one law
// per release, but a different variance per round. Write s_t = σ√V_{t−1}
// for the s.d. of the noise in the release x_t uses (s_1 = 0: x_1 uses
// L̃_0 = 0), G ~ N(0, I_N) and w = E[W(G)] ([GaussianWidth]). Two bounds
// hold; Bound is the smaller:
//
// (a) One-shot noise with a moving scale (Theorem 3.4's proof, extended).
// x_t depends on the noise only through Z_{t−1} ~ s_t G, so for losses
// fixed in advance E Σ⟨l_t, x_t⟩ = E Σ⟨l_t, x̂_t⟩ with x̂_t = argmin
// η⟨x, L_{t−1} + s_t G⟩ + R(x) (eq. (1), one G for every t). x̂_t is FTRL
// with the time-varying regulariser ψ_t = R/η + s_t⟨G, ·⟩; with
// F_t = ψ_t + Σ_{s<t}⟨l_s, ·⟩ the FTRL equality (Orabona, "A Modern
// Introduction to Online Learning", Lemma 7.1; ψ_{T+1} := ψ_T) gives for
// every u ∈ 𝒳
//
//	Σ⟨l_t, x̂_t − u⟩ ≤ ψ_{T+1}(u) − min ψ_1 + Σ_t [F_t(x̂_t) − F_{t+1}(x̂_{t+1}) + ⟨l_t, x̂_t⟩].
//
// Split each bracket at y_t = argmin F_t + ⟨l_t, ·⟩: the first part is the
// stability term of one step of FTRL with a fixed regulariser, ≤ η‖l_t‖²_*/(2α)
// ≤ ηG² (α the strong convexity of R: 1 w.r.t. ℓ1 for the entropy on the
// simplex, ‖l‖_∞ ≤ 1; 2 w.r.t. ℓ2 for ‖x‖², ‖l‖₂ ≤ 1; G² of [FTRLG2] is
// AS17's larger local-norm constant), and the second is ≤ (s_t −
// s_{t+1})⟨G, x̂_{t+1}⟩ because F_{t+1} = F_t + l_t + (s_{t+1} − s_t)⟨G, ·⟩.
// With ⟨G, x⟩ = m + a, m = min_𝒳⟨G, ·⟩, a ∈ [0, W(G)], the m's telescope
// and
//
//	Regret ≤ D_R/η + ηTG² + w·U,   U = Σ_{t=1}^{T−1} (s_{t+1} − s_t)⁺,
//
// U the upward variation of the s.d. from s_1 = 0. For a constant s.d.
// (AS17's padded tree, the padded and smooth binary counters) U = s and
// this is Theorem 3.4 with D' = N(0, s²I); for a nondecreasing one (square
// root, BLT) U = s_T = the largest s.d.; for the plain tree and Honaker's
// estimator, whose variance rises and falls with the bits of t, U grows
// linearly in T and (b) is the smaller.
//
// (b) Stability of the prediction in the noise: non-private FTRL has
// regret ≤ D_R/η + ηTG² (the same proof with s ≡ 0), and
// E|⟨l_t, x(L_{t−1} + Z_{t−1}) − x(L_{t−1})⟩| ≤ c η s_t w
// ([FTRLNoiseLipschitz]), so
//
//	Regret ≤ D_R/η + ηTG² + c η w Σ_{t=1}^T s_t.
//
// Both are bounds on the expected regret against the best fixed decision
// for an oblivious loss sequence in 𝒴 (the experiments' losses are drawn
// independently of the learner).
type FTRLCounterBound struct {
	Kind  counter.Kind `json:"kind"`
	Sigma float64      `json:"sigma"` // node σ
	// Base is D_R/η + ηTG², the non-private part.
	Base float64 `json:"base"`
	// Width is w = E[W(G)], G ~ N(0, I_N).
	Width float64 `json:"width"`
	// Variation is U of (a), SumSD is Σ_{t≤T} s_t of (b).
	Variation float64 `json:"variation"`
	SumSD     float64 `json:"sum_sd"`
	// Noise is the privacy term w·min(U, cη Σ s_t); Bound = Base + Noise.
	Noise float64 `json:"noise"`
	Bound float64 `json:"bound"`
	// Which is "variation" (a) or "stability" (b), whichever is smaller.
	Which string `json:"which"`
	// MaxSD and MeanSD are the largest and the mean per-coordinate s.d.
	// σ√V_t of the counter's releases over t = 1..T.
	MaxSD  float64 `json:"max_sd"`
	MeanSD float64 `json:"mean_sd"`
}

// NewFTRLCounterBound computes [FTRLCounterBound] for DP-FTRL on the
// counter kind with node σ sigma at step eta over horizon T in dimension n.
func NewFTRLCounterBound(set DecisionSet, n, horizon int, eta, sigma float64, kind counter.Kind) (FTRLCounterBound, error) {
	b := FTRLCounterBound{Kind: kind, Sigma: sigma}
	if err := checkOLO(set, n, horizon, 1); err != nil {
		return b, err
	}
	if !(eta > 0) || math.IsInf(eta, 1) || !(sigma >= 0) || math.IsInf(sigma, 1) {
		return b, fmt.Errorf("as17: eta %v and sigma %v: want eta > 0 and sigma >= 0, finite", eta, sigma)
	}
	c, err := counter.New(counter.Config{Kind: kind, Dim: 1, Horizon: horizon, Noise: noise.ZeroNoise{N: 1}})
	if err != nil {
		return b, err
	}
	prev := 0.0 // s_1 = 0
	var sumV float64
	for t := 1; t <= horizon; t++ {
		v := c.VarianceAt(t)
		sd := float64(sigma * math.Sqrt(v))
		sumV += sd
		b.MaxSD = math.Max(b.MaxSD, sd)
		if t < horizon { // s_{t+1} = σ√V_t, t+1 ≤ T
			b.Variation += math.Max(sd-prev, 0)
			b.SumSD += sd
			prev = sd
		}
	}
	b.MeanSD = sumV / float64(horizon)
	b.Width = GaussianWidth(set, n)
	b.Base = FTRLBound(set, n, horizon, eta, 0)
	stab := FTRLNoiseLipschitz(set) * eta * b.SumSD
	b.Which = "variation"
	if stab < b.Variation {
		b.Which = "stability"
	}
	b.Noise = b.Width * math.Min(b.Variation, stab)
	b.Bound = b.Base + b.Noise
	return b, nil
}
