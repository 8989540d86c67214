package counter

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// DataBound is the bound on the data that a Toeplitz counter needs on
// secure noise ([Config].Bound): the
// a-priori bound e on the floating-point error of its measurements (Cw)_t
// scales with it (see counter_grid.go). Simulated noise ignores it.
type DataBound struct {
	// Entry is B: every entry of every added value must satisfy |z_j| ≤ B.
	// Required (> 0 and finite) with secure noise; the zero value is no
	// bound, which secure noise refuses.
	Entry float64
	// Clip clamps an entry outside [−B, B] to it. Without Clip such an entry
	// panics in Add (validating the data is the caller's job, as for every
	// Counter). A NaN entry always panics.
	Clip bool
}

// outOfBound is the panic of a secure Toeplitz counter's Add on an entry
// outside its data bound (or NaN).
const outOfBound = "counter: record entry outside the secure Toeplitz counter's data bound (or NaN); set DataBound.Clip to clip"

// toeplitzSecure is the state of a Toeplitz counter on gridded noise.
type toeplitzSecure struct {
	g, bound float64
	clip     bool
	e        float64   // the a-priori bound on |ŷ_t − (Cw)_t|
	w        []float64 // sqrt: the rounded records w_s (n·dim); BLT: this round's (dim)
	meas     []float64 // this round's draw, then its noisy measurement (dim)
	// BLT only: the measurement recursion U_i,t = λ_i(U_i,t−1 + ŷ_{t−1}) and
	// ŷ_{t−1}, both in double-word arithmetic (high and low parts).
	uh, ul []float64
	yh, yl []float64
}

// toeplitzNoise is what a Toeplitz counter reads from gridded noise.
type toeplitzNoise interface {
	Grid() float64
	Slack() float64
	Gaussian() bool
}

// checkBound validates a DataBound.
func checkBound(b DataBound) error {
	if err := param.CheckFinite("data bound", b.Entry); err != nil {
		return err
	}
	if b.Entry < 0 {
		return fmt.Errorf("counter: data bound is %v, must be > 0 (or 0 for none)", b.Entry)
	}
	return nil
}

// initSecure sets up the secure mode when the node noise is gridded: it
// checks the bound, computes e and checks that the noise pays for it.
func (c *ToeplitzCounter) initSecure(bound DataBound) error {
	if err := checkBound(bound); err != nil {
		return err
	}
	gn, ok := c.noise.(noise.Gridded)
	if !ok {
		return nil
	}
	tn, ok := gn.(toeplitzNoise)
	if !ok || !tn.Gaussian() {
		// A refusal of secure noise (noise.ErrNoSecure): with an unset
		// mode, noise.ExplainDefault adds what the unset mode means.
		return noise.NoSecure(fmt.Sprintf("counter: the %s counter has no secure Laplace sampler: it runs on secure discrete Gaussian noise only (the ℓ1 cost of rounding its n measurements grows like n, not √n); for Laplace noise take a node counter (tree, Honaker, smooth, k-ary), or set Noise to noise.Simulated for seeded floating-point noise, not a release-grade guarantee", c.name))
	}
	if bound.Entry == 0 {
		return fmt.Errorf("counter: the %s counter needs a data bound on secure noise (DataBound.Entry: the floating-point error of its measurements (Cz)_t, counted in the sensitivity, scales with the data)", c.name)
	}
	g := gn.Grid()
	e, err := c.errorBound(bound.Entry, g)
	if err != nil {
		return err
	}
	need := c.slack(e, g)
	if !(tn.Slack() >= need) {
		return fmt.Errorf("counter: the secure noise pays for a sensitivity slack of %v, the %s counter needs %v at data bound %v (build it with noise.New, its Config.Slack from counter.ToeplitzSlack)", tn.Slack(), c.name, need, bound.Entry)
	}
	d := c.dim
	s := &toeplitzSecure{g: g, bound: bound.Entry, clip: bound.Clip, e: e, meas: make([]float64, d)}
	if c.omega == nil {
		s.w = make([]float64, c.horizon*d)
	} else {
		k := len(c.omega)
		s.w = make([]float64, d)
		s.uh, s.ul = make([]float64, k*d), make([]float64, k*d)
		s.yh, s.yl = make([]float64, d), make([]float64, d)
	}
	c.sec = s
	return nil
}

// unitRoundoff is u = 2⁻⁵³, the unit roundoff of float64.
const unitRoundoff = 0x1p-53

// errorBound returns e, the a-priori bound on |ŷ_t − (Cw)_t| for every
// round and entry when every |w_s,j| ≤ B + g (counter_grid.go derives it),
// or an error when the horizon and bound are too large for the grid.
func (c *ToeplitzCounter) errorBound(bound, g float64) (float64, error) {
	const u = unitRoundoff
	n := float64(c.horizon)
	bp := bound + g              // |w| ≤ B + g/2 after rounding
	y := float64(bp * c.cost.L1) // |(Cw)_t| ≤ Y
	const under = 0x1p-1073      // absolute error of one operation that underflows
	var e float64
	if c.omega == nil {
		// Recursive summation of t ≤ n products: γ_n·B′·Σ|c_j| (Higham
		// 2002, Eq. 3.5), plus one underflow per product; ×2 covers
		// γ_n/(nu) and the rounding of this bound.
		e = 2 * (float64(float64(n*u)*y) + float64(n*under))
	} else {
		// Double-word recursion: every operation has relative error ≤ κ.
		const kappa = 4 * u * u
		k := float64(len(c.omega))
		var wg, wgg, gmax float64
		for i, l := range c.lambda {
			gb := math.Min(n, 1/(1-l)) // ≥ Σ_{j<n} λ^j
			gmax = math.Max(gmax, gb)
			wg += float64(math.Abs(c.omega[i]) * gb)
			wgg += float64(float64(math.Abs(c.omega[i])*gb) * (gb + 1))
		}
		if 6*kappa*(gmax+1) > 0.5 {
			return 0, fmt.Errorf("counter: the BLT counter's horizon %d is too long for its secure measurement bound", c.horizon)
		}
		alpha := float64(6 * kappa * y * wgg)                                    // Σ_i |ω_i| Σ_s λ_i^{t−s}|α_i,s|
		beta := float64(2 * (k + 1) * kappa * (float64(n*bp) + float64(2*y*wg))) // the measurement's sum
		uf := float64((float64(4*wg) + float64(4*(k+1))) * under)                // underflows
		r := alpha + beta + uf
		ebar := float64(2 * c.dsum * r)
		if !(ebar <= y/2) {
			return 0, fmt.Errorf("counter: the BLT counter's secure measurement bound %v is above half its data scale %v", ebar, y)
		}
		e = ebar + float64(2*u*(y+ebar)) // ŷ's high part
	}
	// Every measurement, rounded, and every noisy measurement must be an
	// exact grid multiple; the BLT's exact sum S_t too.
	if !(float64(n*bp)/g <= 0x1p51) || !((y+e)/g <= 0x1p51) {
		return 0, fmt.Errorf("counter: data bound %v over horizon %d is too large for the secure grid %v (the measurements must stay below 2^51 grid steps)", bound, c.horizon, g)
	}
	return e, nil
}

// slack returns the sensitivity slack per unit of ‖c‖₂ that the rounding
// of the n measurements and their error bound e cost in ℓ2:
// √(dim·n)·(2e + g)/‖c‖₂ (counter_grid.go).
func (c *ToeplitzCounter) slack(e, g float64) float64 {
	return math.Sqrt(float64(c.dim)*float64(c.horizon)) * (float64(2*e) + g) / math.Sqrt(c.cost.L2Sq)
}

// ToeplitzSlack returns the sensitivity slack that secure Gaussian noise of
// grid g must pay for ([noise.NewSecureGaussianNoiseSlack]) to run the
// Toeplitz counter kind (Sqrt or BLT, the BLT on its default
// [BLTParams]) over horizon rounds of dim-vectors whose entries are
// bounded by bound.Entry, in the units of the node noise's sensitivity. g
// is [noise.SecureGrid] of the noise's smallest σ.
func ToeplitzSlack(kind Kind, dim, horizon int, bound DataBound, g float64) (float64, error) {
	return ToeplitzSlackFor(Config{Kind: kind, Dim: dim, Horizon: horizon, Bound: bound}, g)
}

// ToeplitzSlackFor is [ToeplitzSlack] for the counter cfg describes, its
// own BLT parameters (Omega, Lambda) included: the error bound e and the
// cost ‖c‖₂ it is counted in are those of that counter. cfg.Noise is
// ignored (the slack sizes the noise); cfg.Bound.Entry is required.
func ToeplitzSlackFor(cfg Config, g float64) (float64, error) {
	if cfg.Kind != Sqrt && cfg.Kind != BLT {
		return 0, fmt.Errorf("counter: %v is not a Toeplitz counter", cfg.Kind)
	}
	if err := param.CheckDim("dimension", cfg.Dim); err != nil {
		return 0, err
	}
	if err := param.CheckPositive("data bound", cfg.Bound.Entry); err != nil {
		return 0, err
	}
	if err := param.CheckPositive("grid", g); err != nil {
		return 0, err
	}
	probe, err := New(Config{Kind: cfg.Kind, Dim: 1, Horizon: cfg.Horizon, Noise: noise.ZeroNoise{N: 1}, Omega: cfg.Omega, Lambda: cfg.Lambda})
	if err != nil {
		return 0, err
	}
	tc := probe.(*ToeplitzCounter)
	e, err := tc.errorBound(cfg.Bound.Entry, g)
	if err != nil {
		return 0, err
	}
	tc.dim = cfg.Dim
	return tc.slack(e, g), nil
}

// ErrorBound returns e, the a-priori bound on the floating-point error of
// every measurement (Cw)_t on secure noise (0 on simulated noise).
func (c *ToeplitzCounter) ErrorBound() float64 {
	if c.sec == nil {
		return 0
	}
	return c.sec.e
}

// Bound returns the data bound of the secure mode (zero on simulated noise).
func (c *ToeplitzCounter) Bound() DataBound {
	if c.sec == nil {
		return DataBound{}
	}
	return DataBound{Entry: c.sec.bound, Clip: c.sec.clip}
}

// roundRecord writes z's entries, clipped (or checked) to the bound and
// rounded to the grid, into w.
func (s *toeplitzSecure) roundRecord(w, z []float64) {
	b := s.bound
	for j, v := range z {
		if !(math.Abs(v) <= b) {
			if !s.clip || math.IsNaN(v) {
				panic(outOfBound)
			}
			v = math.Max(-b, math.Min(b, v))
		}
		w[j] = math.RoundToEven(v/s.g) * s.g // exact: g is a power of two
	}
}

// addSecure is Add on secure noise (counter_grid.go): round the record,
// measure (Cw)_t, round the measurement to the grid, add the discrete
// draw, and release B applied to the noisy measurements.
func (c *ToeplitzCounter) addSecure(z []float64) {
	if len(z) != c.dim {
		panic(param.BadDim)
	}
	if c.t >= c.horizon {
		panic(param.PastHorizon)
	}
	s, d := c.sec, c.dim
	c.t++
	t := c.t
	if c.omega == nil {
		w := s.w[(t-1)*d : t*d]
		s.roundRecord(w, z)
		for j := range w {
			c.exact[j] += w[j] // exact: grid multiples
		}
		// ŷ_t = Σ_{j<t} c_j w_{t−j} (c = b), recursively summed per entry.
		m := c.draws[(t-1)*d : t*d] // draws[(s−1)·d:] holds the noisy m_s
		c.convolveB(m, s.w)
		c.noise.Sample(s.meas)
		for i := range m {
			m[i] = float64(math.RoundToEven(m[i]/s.g)*s.g) + s.meas[i] // exact: grid multiples below 2⁵³g
		}
		c.convolveB(c.cur, c.draws) // the release (Bm)_t: the noisy measurements only
		return
	}
	w := s.w
	s.roundRecord(w, z)
	for j := range w {
		c.exact[j] += w[j] // S_t, exact: grid multiples below 2⁵³g
	}
	// ŷ_t = S_t − Σ_i ω_i U_i,t, U_i,t = λ_i(U_i,t−1 + ŷ_{t−1}): B ŷ = S, so
	// ŷ = B⁻¹A w = C w, in double-word arithmetic.
	for i, l := range c.lambda {
		uh, ul := s.uh[i*d:(i+1)*d], s.ul[i*d:(i+1)*d]
		for j := range uh {
			h, lo := dwAdd(uh[j], ul[j], s.yh[j], s.yl[j])
			uh[j], ul[j] = dwMulF(h, lo, l)
		}
	}
	copy(s.yh, c.exact)
	clear(s.yl)
	for i, om := range c.omega {
		uh, ul := s.uh[i*d:(i+1)*d], s.ul[i*d:(i+1)*d]
		for j := range uh {
			ph, pl := dwMulF(uh[j], ul[j], om)
			s.yh[j], s.yl[j] = dwAdd(s.yh[j], s.yl[j], -ph, -pl)
		}
	}
	c.noise.Sample(s.meas)
	for j := range s.meas {
		s.meas[j] += float64(math.RoundToEven(s.yh[j]/s.g) * s.g) // exact: grid multiples below 2⁵³g
	}
	c.recurB(s.meas) // the release (Bm)_t: the noisy measurements only
}

// Double-word arithmetic (Joldes, Muller & Popescu, "Tight and rigorous
// error bounds for basic building blocks of double-word arithmetic", ACM
// TOMS 2017): a value is an unevaluated sum hi + lo, |lo| ≤ ulp(hi)/2.

// twoSum returns s = fl(a + b) and the exact error e: s + e = a + b (Knuth).
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	a1 := s - b
	b1 := s - a1
	return s, (a - a1) + (b - b1)
}

// fastTwoSum is twoSum for |a| ≥ |b| (or a = 0) (Dekker).
func fastTwoSum(a, b float64) (s, e float64) {
	s = a + b
	return s, b - (s - a)
}

// dwAdd returns (xh + xl) + (yh + yl): AccurateDWPlusDW (JMP17 Alg. 6),
// relative error at most 3u²/(1 − 4u).
func dwAdd(xh, xl, yh, yl float64) (float64, float64) {
	sh, sl := twoSum(xh, yh)
	th, tl := twoSum(xl, yl)
	vh, vl := fastTwoSum(sh, sl+th)
	return fastTwoSum(vh, tl+vl)
}

// dwMulF returns (xh + xl)·y: DWTimesFP3 (JMP17 Alg. 9, with FMA), relative
// error at most 2u².
func dwMulF(xh, xl, y float64) (float64, float64) {
	ch := float64(xh * y)
	cl1 := math.FMA(xh, y, -ch)
	cl3 := math.FMA(xl, y, cl1)
	return fastTwoSum(ch, cl3)
}
