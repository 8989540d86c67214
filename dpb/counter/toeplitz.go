package counter

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// ToeplitzCounter is a matrix-factorisation counter with lower-triangular
// Toeplitz factors: the prefix-sum matrix A (all ones on and below the
// diagonal) is written A = BC with B, C lower-triangular Toeplitz, and the
// release at round t is S_t + (Bη)_t = S_t + Σ_{j<t} b_j η_{t−j}, η_s
// independent node draws. A record at round s enters the measurements
// (Cz)_r, r ≥ s, with coefficients c_{r−s}, so its cost is Σ_{j<n} c_j² (ℓ2²)
// and Σ_{j<n} |c_j| (ℓ1), largest for s = 1; the noise variance at round t
// is Σ_{j<t} b_j². c is determined by b: Σ_{l≤j} b_{j−l} c_l = 1 for every j.
//
// Two choices of b are provided:
//
//   - [Sqrt]: the square-root factorisation B = C = A^{1/2},
//     b_j = c_j = C(2j, j)/4^j (Henzinger, Upadhyay & Upadhyay 2023;
//     Fichtenberger, Henzinger & Upadhyay 2023), whose max-variance × cost is
//     within 1 + o(1) of optimal among factorisations; it keeps every draw,
//     O(n·dim) memory and O(t·dim) work at round t — for n up to ≈ 10⁵.
//   - [BLT]: a buffered linear Toeplitz B (Dvijotham, McMahan,
//     Pillutla, Steinke & Thakurta 2024): b_0 = 1 and b_j = Σ_i ω_i λ_i^j
//     for j ≥ 1, a sum of K geometric sequences, so (Bη)_t = η_t + Σ_i ω_i S_i
//     with K buffers S_i ← λ_i(S_i + η_{t−1}): O(K·dim) memory and work per
//     round. The ω_i, λ_i discretise 1/√(πj) = (1/π)∫ e^{u/2} e^{−j eᵘ} du by
//     the trapezoid rule on a uniform grid of u (λ_i = exp(−e^{u_i}),
//     ω_i = (Δu/π) e^{u_i/2}), which approximates the square root's
//     b_j ≈ 1/√(πj) with K = O(log n) buffers. The approximation only affects
//     how good the counter is, never its privacy: its exact c, cost and
//     variances are computed from the b it uses.
//
// Cost() and VarianceAt are exact for the b used (c by forward
// substitution, O(n·K) at construction).
//
// Secure noise. On gridded node noise ([noise.Gridded], the exact
// discrete Gaussian of [noise.SecureNoise]) the counter needs a bound on
// its data ([DataBound], [Config].Bound):
// it rounds each record to the grid, computes the measurements (Cw)_t in
// floating point with an a-priori error bound e ([ToeplitzCounter.ErrorBound]),
// rounds them to the grid, adds the discrete draw, and releases B applied
// to these noisy measurements alone. The proof is in counter_grid.go (the
// Toeplitz measurements); the noise must pay for the rounding and for 2e in
// its calibration ([ToeplitzSlack], [noise.NewSecureGaussianNoiseSlack]).
// The square root then costs two convolutions per round instead of one;
// the BLT computes its measurements in double-word arithmetic,
// O(K·dim) per round.
type ToeplitzCounter struct {
	dim, horizon int
	noise        noise.Noise
	name         string

	t     int
	exact []float64
	cur   []float64 // noise of the current release

	// exact square root: every draw, and b.
	draws []float64
	b     []float64

	// BLT: buffers S_i (K·dim), ω, λ, and the previous draw.
	omega, lambda []float64
	buf           []float64
	prev          []float64

	varPrefix []float64 // varPrefix[t] = Σ_{j<t} b_j² for t ≤ n (sqrt only; BLT by closed form)
	cost      Cost
	dsum      float64 // Σ_{j<n} |c_j − c_{j−1}| (c_{−1} = 0): the ℓ1 norm of B⁻¹'s kernel

	sec *toeplitzSecure // secure (gridded) noise, else nil
}

// SqrtCoefficients returns b_j = C(2j, j)/4^j for j < n, the coefficients of
// the square root of the prefix-sum matrix (the Taylor coefficients of
// (1−x)^{−1/2}), by b_0 = 1, b_j = b_{j−1}(2j − 1)/(2j).
func SqrtCoefficients(n int) []float64 {
	b := make([]float64, n)
	if n > 0 {
		b[0] = 1
	}
	for j := 1; j < n; j++ {
		b[j] = b[j-1] * float64(2*j-1) / float64(2*j)
	}
	return b
}

// MaxSqrtHorizon is the largest horizon the square-root counter accepts (its memory
// is horizon·dim floats and its work O(horizon²·dim) in total).
const MaxSqrtHorizon = 1 << 17

// newSqrtCounter returns the exact square-root factorisation counter ([New],
// Kind [Sqrt]) with the data bound that secure noise needs (see [DataBound];
// ignored by simulated noise).
func newSqrtCounter(dim, horizon int, nz noise.Noise, bound DataBound) (*ToeplitzCounter, error) {
	if err := checkCounterArgs(dim, horizon, nz); err != nil {
		return nil, err
	}
	if horizon > MaxSqrtHorizon {
		return nil, fmt.Errorf("counter: horizon %d is above %d for the exact square-root counter (use the BLT counter)", horizon, MaxSqrtHorizon)
	}
	c := &ToeplitzCounter{
		dim: dim, horizon: horizon, noise: nz, name: "sqrt",
		exact: make([]float64, dim), cur: make([]float64, dim),
		draws: make([]float64, horizon*dim), b: SqrtCoefficients(horizon),
	}
	c.varPrefix = make([]float64, horizon+1)
	for j, bj := range c.b {
		c.varPrefix[j+1] = c.varPrefix[j] + bj*bj
	}
	// B = C: the cost is the variance of the last round.
	c.cost = Cost{L2Sq: c.varPrefix[horizon]}
	for j, bj := range c.b {
		c.cost.L1 += bj
		if j == 0 {
			c.dsum += bj
		} else {
			c.dsum += math.Abs(bj - c.b[j-1])
		}
	}
	return c, c.initSecure(bound)
}

// BLTParams returns the default ω and λ of the BLT counter ([Config]) for horizon n: the
// trapezoid nodes u_i = u_max − iΔu, Δu = 1.5, from u_max = ln 10 down to
// u_min = ln(10⁻³/n), λ_i = exp(−e^{u_i}), ω_i = (Δu/π) e^{u_i/2}: K = 16
// buffers at n = 2²⁰, 17 at 2²⁴. The grid was chosen by measuring max
// variance × cost against the exact square root's at n = 2²⁰ over Δu ∈
// [0.6, 1.5] and both ends: every grid reaching u_min ≤ ln(10⁻³/n) is within
// 0.3% of it; coarser lower ends lose 2–40%.
func BLTParams(n int) (omega, lambda []float64) {
	const du = 1.5
	umax, umin := xmath.Log(10), xmath.Log(1e-3/float64(n))
	for u := umax; u >= umin; u -= du {
		lambda = append(lambda, xmath.Exp(-xmath.Exp(u)))
		omega = append(omega, du/math.Pi*xmath.Exp(u/2))
	}
	return omega, lambda
}

// BLTParamsBeta returns ω and λ of a BLT counter whose b approximates the
// coefficients of (1−z)^{−β}, β in [½, 1): the Toeplitz factorisation
// A = BC with B = (1−z)^{−β} and C = (1−z)^{−(1−β)} (β = ½ is the square
// root), which for β > ½ moves noise variance toward the early rounds
// (VarianceAt(t) = Σ_{j<t} b_j² grows like t^{2β−1}) and lowers the cost
// Σ c_j² (c_j ≈ j^{−β}/Γ(1−β) is square-summable). b_j = Γ(j+β)/(Γ(β) j!)
// ≈ j^{β−1}/Γ(β) = (sin πβ/π) ∫ e^{(1−β)u} e^{−j eᵘ} du, discretised as
// [BLTParams] does: λ_i = exp(−e^{u_i}), ω_i = (Δu sin πβ/π) e^{(1−β)u_i}
// on u_i = ln 10 − iΔu, Δu = 1.5, down to u_min = ln(10^{−1.5/(1−β)}/n),
// where the truncated integral is about 10^{−1.5} of b_j at j = n (BLTParams's
// 10⁻³ at β = ½). As for every BLT, the approximation affects only how good
// the counter is: its cost and variances are computed exactly from the b
// it uses. β = ½ returns BLTParams(n) itself.
func BLTParamsBeta(n int, beta float64) (omega, lambda []float64, err error) {
	if !(beta >= 0.5 && beta < 1) {
		return nil, nil, fmt.Errorf("counter: Toeplitz exponent β is %v, must be in [0.5, 1)", beta)
	}
	if n < 1 {
		return nil, nil, fmt.Errorf("counter: horizon is %d, must be >= 1", n)
	}
	if beta == 0.5 {
		omega, lambda = BLTParams(n)
		return omega, lambda, nil
	}
	const du = 1.5
	w := du / math.Pi * sinPi(beta)
	umax, umin := xmath.Log(10), xmath.Log(xmath.Pow(10, -1.5/(1-beta))/float64(n))
	for u := umax; u >= umin; u -= du {
		lambda = append(lambda, xmath.Exp(-xmath.Exp(u)))
		omega = append(omega, float64(w*xmath.Exp(float64((1-beta)*u))))
	}
	return omega, lambda, nil
}

// sinPi returns sin(πβ) for β in [½, 1) as cos(πy), y = β − ½ ∈ [0, ½),
// by its Taylor series summed to convergence, every product rounded before
// its add (float64(…)), so that every build and CPU gets the same bits
// (the standard library's math.Sin may be fused under GOAMD64=v3).
func sinPi(beta float64) float64 {
	y := float64(math.Pi * (beta - 0.5))
	y2 := float64(y * y)
	sum, term := 1.0, 1.0
	for k := 1; k < 30; k++ {
		term = float64(-term*y2) / float64((2*k-1)*(2*k))
		next := sum + term
		if next == sum {
			break
		}
		sum = next
	}
	return sum
}

// newBLTCounter returns a BLT counter ([New], Kind [BLT]) with
// b_j = Σ_i ω_i λ_i^j (j ≥ 1), every λ_i in [0, 1) and every ω_i finite, and
// the data bound that secure noise needs (see [DataBound]; ignored by
// simulated noise).
func newBLTCounter(dim, horizon int, nz noise.Noise, omega, lambda []float64, bound DataBound) (*ToeplitzCounter, error) {
	if err := checkCounterArgs(dim, horizon, nz); err != nil {
		return nil, err
	}
	if len(omega) != len(lambda) || len(omega) == 0 {
		return nil, fmt.Errorf("counter: BLT needs as many ω as λ (%d, %d), at least one", len(omega), len(lambda))
	}
	for i := range omega {
		if !(lambda[i] >= 0 && lambda[i] < 1) {
			return nil, fmt.Errorf("counter: BLT λ[%d] is %v, must be in [0, 1)", i, lambda[i])
		}
		if err := param.CheckFinite(fmt.Sprintf("BLT ω[%d]", i), omega[i]); err != nil {
			return nil, err
		}
	}
	k := len(omega)
	c := &ToeplitzCounter{
		dim: dim, horizon: horizon, noise: nz, name: "blt",
		exact: make([]float64, dim), cur: make([]float64, dim),
		omega: append([]float64(nil), omega...), lambda: append([]float64(nil), lambda...),
		buf: make([]float64, k*dim), prev: make([]float64, dim),
	}
	// c by forward substitution: c_j = 1 − Σ_i ω_i T_i,j with
	// T_i,j = Σ_{l<j} λ_i^{j−l} c_l = λ_i (T_i,j−1 + c_{j−1}).
	tt := make([]float64, k)
	var cprev float64
	for j := 0; j < horizon; j++ {
		cj := 1.0
		for i := range tt {
			if j > 0 {
				tt[i] = lambda[i] * (tt[i] + cprev)
			}
			cj -= omega[i] * tt[i]
		}
		c.cost.L2Sq += cj * cj
		c.cost.L1 += math.Abs(cj)
		c.dsum += math.Abs(cj - cprev) // cprev = 0 at j = 0
		cprev = cj
	}
	return c, c.initSecure(bound)
}

// Dim returns the dimension.
func (c *ToeplitzCounter) Dim() int { return c.dim }

// Horizon returns n.
func (c *ToeplitzCounter) Horizon() int { return c.horizon }

// Rounds returns the number of values added.
func (c *ToeplitzCounter) Rounds() int { return c.t }

// Exact returns the exact prefix sum.
func (c *ToeplitzCounter) Exact() []float64 { return c.exact }

// Buffers returns the number of BLT buffers K (0 for the exact square root).
func (c *ToeplitzCounter) Buffers() int { return len(c.omega) }

// Add appends z as the next round's value and draws the round's noise.
// On secure noise, an entry of z outside the data bound panics (or is
// clipped: [DataBound]).
func (c *ToeplitzCounter) Add(z []float64) {
	if c.sec != nil {
		c.addSecure(z)
		return
	}
	c.t = addRound(z, c.exact, c.t, c.horizon, 0)
	d := c.dim
	if c.omega == nil {
		// draws[(s−1)·d:] holds η_s.
		c.noise.Sample(c.draws[(c.t-1)*d : c.t*d])
		c.convolveB(c.cur, c.draws)
		return
	}
	c.noise.Sample(c.cur)
	c.recurB(c.cur)
}

// convolveB writes (Bv)_t = Σ_{j<t} b_j v_{t−j} into dst, for the sequence
// v_s held in v[(s−1)·d:]: the square-root counter's release of the noise η
// (simulated noise) or of the noisy measurements m (secure noise), and, since
// its C = B, its secure measurement of the rounded records.
func (c *ToeplitzCounter) convolveB(dst, v []float64) {
	d, t := c.dim, c.t
	copy(dst, v[(t-1)*d:t*d])
	for j := 1; j < t; j++ {
		bj := c.b[j]
		vj := v[(t-1-j)*d : (t-j)*d]
		for i := range dst {
			dst[i] += float64(bj * vj[i])
		}
	}
}

// recurB writes (Bv)_t = v_t + Σ_i ω_i R_i,t into cur, R_i,t =
// λ_i(R_i,t−1 + v_{t−1}) = Σ_{s<t} λ_i^{t−s} v_s the BLT's buffers, for the
// sequence v (the noise η on simulated noise, the noisy measurements m on
// secure noise) whose value at t is vt; prev holds v_{t−1} (zero at t = 1)
// on entry and v_t on return. vt may be cur.
func (c *ToeplitzCounter) recurB(vt []float64) {
	d := c.dim
	for i, l := range c.lambda {
		r := c.buf[i*d : (i+1)*d]
		for j := range r {
			r[j] = l * (r[j] + c.prev[j])
		}
	}
	copy(c.prev, vt)
	copy(c.cur, vt)
	for i, om := range c.omega {
		r := c.buf[i*d : (i+1)*d]
		for j := range r {
			c.cur[j] += float64(om * r[j])
		}
	}
}

// NoiseTo writes the noise of the current release.
func (c *ToeplitzCounter) NoiseTo(dst []float64) []float64 {
	dst = param.DstOf(dst, c.dim)
	if c.t == 0 {
		clear(dst)
		return dst
	}
	copy(dst, c.cur)
	if c.sec != nil { // cur is the release: its noise is cur − S_t
		for j := range dst {
			dst[j] -= c.exact[j]
		}
	}
	return dst
}

// SumTo writes the private prefix sum (on secure noise: B applied to the
// noisy measurements, never the exact sum plus noise).
func (c *ToeplitzCounter) SumTo(dst []float64) []float64 {
	dst = param.DstOf(dst, c.dim)
	if c.t == 0 {
		copy(dst, c.exact)
		return dst
	}
	if c.sec != nil {
		copy(dst, c.cur)
		return dst
	}
	for j := range dst {
		dst[j] = c.cur[j] + c.exact[j]
	}
	return dst
}

// VarianceAt returns Σ_{j<t} b_j².
func (c *ToeplitzCounter) VarianceAt(t int) float64 {
	if c.omega == nil {
		return c.varPrefix[t]
	}
	// 1 + Σ_{i,i'} ω_i ω_i' Σ_{j=1}^{t−1} (λ_i λ_i')^j.
	v := 1.0
	for i, wi := range c.omega {
		for k, wk := range c.omega {
			q := c.lambda[i] * c.lambda[k]
			if q == 0 {
				continue
			}
			v += wi * wk * q * (1 - xmath.Pow(q, float64(t-1))) / (1 - q)
		}
	}
	return v
}

// MaxVariance returns VarianceAt(n) (the variance grows with t).
func (c *ToeplitzCounter) MaxVariance() float64 { return c.VarianceAt(c.horizon) }

// Cost returns Σ_{j<n} c_j² and Σ_{j<n} |c_j|.
func (c *ToeplitzCounter) Cost() Cost { return c.cost }

// String names the counter.
func (c *ToeplitzCounter) String() string { return c.name }

var _ Counter = (*ToeplitzCounter)(nil)
