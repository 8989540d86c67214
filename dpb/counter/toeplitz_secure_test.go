package counter

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/noise"
)

// toeplitzReplay is a gridded replay that pays any slack (the Toeplitz
// counters read Slack and Gaussian from their secure noise).
type toeplitzReplay struct{ griddedReplay }

func (r *toeplitzReplay) Slack() float64 { return math.Inf(1) }
func (r *toeplitzReplay) Gaussian() bool { return true }

// toeplitzRecord records the draws of secure noise.
type toeplitzRecord struct{ griddedRecord }

func (r *toeplitzRecord) Slack() float64 { return r.Noise.(*noise.SecureNoise).Slack() }
func (r *toeplitzRecord) Gaussian() bool { return true }

// lastMeasurement returns the noisy measurement m_t of the round just added.
func lastMeasurement(c *ToeplitzCounter) []float64 {
	if c.omega == nil {
		return append([]float64(nil), c.draws[(c.t-1)*c.dim:c.t*c.dim]...)
	}
	return append([]float64(nil), c.prev...)
}

func newSecureToeplitz(t *testing.T, kind Kind, dim, n int, sigma, bound float64) *noise.SecureNoise {
	t.Helper()
	sig := make([]float64, dim)
	for i := range sig {
		sig[i] = sigma
	}
	slack, err := ToeplitzSlack(kind, dim, n, DataBound{Entry: bound}, noise.SecureGrid(sigma))
	if err != nil {
		t.Fatal(err)
	}
	snAny, err := noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Secure, Sigmas: sig, Sensitivity: 1, Slack: slack}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sn := snAny.(*noise.SecureNoise)
	return sn
}

// TestToeplitzSecureReleaseIsPostProcessing checks step 5 of the Toeplitz
// measurements (counter_grid.go): two different streams z, z′ whose draws
// are shifted so that every noisy measurement m_t = ⌊ŷ_t⌉_g + g·k_t is the
// same must give bit-identical releases in secure mode, whatever the data.
// The negative control runs the same pair on non-gridded replays of the
// same draws (the simulated path, S_t + (Bη)_t): the releases differ — a
// release computed from the exact data would.
func TestToeplitzSecureReleaseIsPostProcessing(t *testing.T) {
	const n, dim = 200, 3
	rng := rand.New(rand.NewPCG(38, 3))
	z, z2 := make([][]float64, n), make([][]float64, n)
	for s := range z {
		z[s], z2[s] = make([]float64, dim), make([]float64, dim)
		for j := range dim {
			z[s][j], z2[s][j] = 2*rng.Float64()-1, 2*rng.Float64()-1
		}
	}
	bound := DataBound{Entry: 1}
	for _, kind := range []Kind{Sqrt, BLT} {
		sec := newSecureToeplitz(t, kind, dim, n, 3, 1)
		sec.SetEntropy(noise.RandReader{R: rand.New(rand.NewPCG(38, 4))})
		g := sec.Grid()
		rec := &toeplitzRecord{griddedRecord{recordNoise{Noise: sec}}}
		mk := func(nz noise.Noise) *ToeplitzCounter {
			c, err := New(Config{Kind: kind, Dim: dim, Horizon: n, Noise: nz, Bound: bound})
			if err != nil {
				t.Fatalf("%v: %v", kind, err)
			}
			return c.(*ToeplitzCounter)
		}
		// m_t on z, and ⌊ŷ′_t⌉ on z′ (zero draws).
		c1 := mk(rec)
		zero := make([][]float64, n)
		for s := range zero {
			zero[s] = make([]float64, dim)
		}
		c0 := mk(&toeplitzReplay{griddedReplay{replayNoise{g: g, draws: zero}}})
		rel1 := make([][]float64, n)
		d2 := make([][]float64, n)
		for s := range n {
			c1.Add(z[s])
			rel1[s] = c1.SumTo(nil)
			c0.Add(z2[s])
			m, q2 := lastMeasurement(c1), lastMeasurement(c0)
			d2[s] = make([]float64, dim)
			for j := range d2[s] {
				d2[s][j] = m[j] - q2[j] // exact: grid multiples
			}
		}
		run := func(nz noise.Noise) int {
			c2 := mk(nz)
			diffs := 0
			rel := make([]float64, dim)
			for s := range n {
				c2.Add(z2[s])
				c2.SumTo(rel)
				for j := range dim {
					if rel[j] != rel1[s][j] {
						diffs++
					}
				}
			}
			return diffs
		}
		if d := run(&toeplitzReplay{griddedReplay{replayNoise{g: g, draws: d2}}}); d != 0 {
			t.Errorf("%v secure: %d release entries differ between streams with equal noisy measurements", kind, d)
		}
		if d := run(&replayNoise{draws: d2}); d == 0 {
			t.Errorf("%v simulated control: every release equal; the test cannot fail", kind)
		}
	}
}

// TestToeplitzSecureRefusals: secure noise without a data bound, secure
// Laplace noise, invalid bounds, and secure noise whose slack leaves out
// the measurement error 2e (the calibration with e omitted) are refused;
// the same counter with the slack of ToeplitzSlack is accepted (the
// positive control).
func TestToeplitzSecureRefusals(t *testing.T) {
	const n, dim = 1000, 2
	lap, _ := noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: noise.Secure, Dim: dim, Scale: 1, Sensitivity: 1}, nil)
	for _, kind := range []Kind{Sqrt, BLT} {
		good := newSecureToeplitz(t, kind, dim, n, 1, 1e4)
		if _, err := New(Config{Kind: kind, Dim: dim, Horizon: n, Noise: good}); err == nil || !strings.Contains(err.Error(), "data bound") {
			t.Errorf("%v without a bound: error %v", kind, err)
		}
		if _, err := New(Config{Kind: kind, Dim: dim, Horizon: n, Noise: lap, Bound: DataBound{Entry: 1}}); err == nil || !strings.Contains(err.Error(), "Gaussian") {
			t.Errorf("%v on secure Laplace: error %v", kind, err)
		}
		for _, b := range []float64{math.NaN(), -1, math.Inf(1)} {
			if _, err := New(Config{Kind: kind, Dim: dim, Horizon: n, Noise: good, Bound: DataBound{Entry: b}}); err == nil {
				t.Errorf("%v: bound %v accepted", kind, b)
			}
		}
		c, err := New(Config{Kind: kind, Dim: dim, Horizon: n, Noise: good, Bound: DataBound{Entry: 1e4}})
		if err != nil {
			t.Fatalf("%v: the slack of ToeplitzSlack refused: %v", kind, err)
		}
		e := c.(*ToeplitzCounter).ErrorBound()
		if !(e > 0) {
			t.Fatalf("%v: error bound %v", kind, e)
		}
		// e omitted: the slack of the rounding alone.
		tc := c.(*ToeplitzCounter)
		noE := tc.slack(0, good.Grid())
		short, _ := noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Secure, Sigmas: []float64{1, 1}, Sensitivity: 1, Slack: noE}, nil)
		if _, err := New(Config{Kind: kind, Dim: dim, Horizon: n, Noise: short, Bound: DataBound{Entry: 1e4}}); err == nil || !strings.Contains(err.Error(), "slack") {
			t.Errorf("%v: noise without 2e in its slack accepted (error %v)", kind, err)
		}
		// A larger bound than the noise was calibrated for is refused too.
		if _, err := New(Config{Kind: kind, Dim: dim, Horizon: n, Noise: good, Bound: DataBound{Entry: 1e6}}); err == nil {
			t.Errorf("%v: a bound above the calibration's accepted", kind)
		}
		// A bound too large for the grid.
		if _, err := ToeplitzSlack(kind, dim, n, DataBound{Entry: 1e30}, good.Grid()); err == nil {
			t.Errorf("%v: a bound of 1e30 at grid %g accepted", kind, good.Grid())
		}
	}
}

// TestToeplitzSecureDataBound: an entry above the bound panics without
// Clip and is clipped with it; NaN panics either way; simulated noise
// ignores the bound.
func TestToeplitzSecureDataBound(t *testing.T) {
	panics := func(f func()) (p bool) {
		defer func() { p = recover() != nil }()
		f()
		return false
	}
	for _, kind := range []Kind{Sqrt, BLT} {
		for _, clip := range []bool{false, true} {
			c, err := New(Config{Kind: kind, Dim: 1, Horizon: 8, Noise: newSecureToeplitz(t, kind, 1, 8, 1, 2), Bound: DataBound{Entry: 2, Clip: clip}})
			if err != nil {
				t.Fatal(err)
			}
			c.Add([]float64{2}) // on the bound
			if p := panics(func() { c.Add([]float64{2.5}) }); p == clip {
				t.Errorf("%v clip=%v: entry above the bound panicked=%v", kind, clip, p)
			}
			if clip && c.Exact()[0] != 4 {
				t.Errorf("%v: clipped sum %v, want 4", kind, c.Exact()[0])
			}
			if !panics(func() { c.Add([]float64{math.NaN()}) }) {
				t.Errorf("%v clip=%v: NaN accepted", kind, clip)
			}
		}
		sim, _ := noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Simulated, Dim: 1, Sigma: 1}, rand.New(rand.NewPCG(1, 1)))
		c, err := New(Config{Kind: kind, Dim: 1, Horizon: 8, Noise: sim, Bound: DataBound{Entry: 2}})
		if err != nil {
			t.Fatal(err)
		}
		c.Add([]float64{5})
		if c.Exact()[0] != 5 {
			t.Errorf("%v simulated: the bound was applied", kind)
		}
	}
}

// TestBLTSecureMeasurementError checks the BLT's double-word measurement
// against the exact one (the recursion y = B⁻¹S in 400-bit arithmetic) on
// data at ±B: every computed ŷ_t is within the a-priori e of the proof
// (counter_grid.go, step 2). The negative control is the same recursion in
// plain float64, whose error exceeds e: the bound is tight enough to tell
// them apart, and double-word arithmetic is what makes it hold.
func TestBLTSecureMeasurementError(t *testing.T) {
	const n, bnd = 2000, 1.0
	sec := newSecureToeplitz(t, BLT, 1, n, 1, bnd)
	sec.SetEntropy(noise.RandReader{R: rand.New(rand.NewPCG(38, 5))})
	cc, err := New(Config{Kind: BLT, Dim: 1, Horizon: n, Noise: sec, Bound: DataBound{Entry: bnd}})
	if err != nil {
		t.Fatal(err)
	}
	c := cc.(*ToeplitzCounter)
	e := c.ErrorBound()
	rng := rand.New(rand.NewPCG(38, 6))
	const prec = 400
	k := len(c.omega)
	bf := func(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }
	U := make([]*big.Float, k)
	for i := range U {
		U[i] = bf(0)
	}
	S, yPrev := bf(0), bf(0)
	uf := make([]float64, k) // the plain-float64 recursion (control)
	var yfPrev, sf float64
	var worst, worstPlain float64
	for s := 1; s <= n; s++ {
		z := bnd
		if rng.IntN(2) == 0 {
			z = -bnd
		}
		c.Add([]float64{z})
		S.Add(S, bf(z)) // z is on the grid
		sf += z
		y := new(big.Float).SetPrec(prec).Set(S)
		yf := sf
		for i := range U {
			U[i].Add(U[i], yPrev)
			U[i].Mul(U[i], bf(c.lambda[i]))
			y.Sub(y, new(big.Float).SetPrec(prec).Mul(U[i], bf(c.omega[i])))
			uf[i] = c.lambda[i] * (uf[i] + yfPrev)
			yf -= float64(c.omega[i] * uf[i])
		}
		yPrev, yfPrev = y, yf
		ex, _ := y.Float64()
		worst = math.Max(worst, math.Abs(c.sec.yh[0]-ex))
		worstPlain = math.Max(worstPlain, math.Abs(yf-ex))
	}
	if !(worst <= e) {
		t.Errorf("double-word measurement error %g above the bound e = %g", worst, e)
	}
	if !(worstPlain > e) {
		t.Errorf("plain float64 control: error %g within e = %g; the test cannot fail", worstPlain, e)
	}
	if g := sec.Grid(); !(e < g/1000) {
		t.Errorf("e = %g is not negligible against the grid %g", e, g)
	}
	t.Logf("n = %d, K = %d: e = %.3g, worst double-word error %.3g, plain float64 %.3g, grid %.3g", n, k, e, worst, worstPlain, sec.Grid())
}

// TestToeplitzSlackForOwnParams: the slack of ToeplitzSlackFor is that of
// the BLT counter the Config describes, its own (ω, λ) included: noise
// paying exactly it is accepted by that counter, and noise paying a
// relative 10⁻⁹ less is refused (the counter's own check in initSecure,
// computed from the built counter: the control that the equality is
// exact). The default parameters' slack (ToeplitzSlack, β = ½) differs
// from it: for β = 0.6 it is smaller (the slack is counted in units of
// the cost ‖c‖₂, which β = 0.6 lowers), and a noise sized with it is
// refused.
func TestToeplitzSlackForOwnParams(t *testing.T) {
	const n, dim, sigma, bound = 5000, 3, 2.0, 1.0
	om, la, err := BLTParamsBeta(n, 0.6)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Kind: BLT, Dim: dim, Horizon: n, Bound: DataBound{Entry: bound}, Omega: om, Lambda: la}
	g := noise.SecureGrid(sigma)
	slack, err := ToeplitzSlackFor(cfg, g)
	if err != nil {
		t.Fatal(err)
	}
	build := func(sl float64) error {
		nz, err := noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Secure, Sigmas: []float64{sigma, sigma, sigma}, Sensitivity: 1, Slack: sl}, nil)
		if err != nil {
			t.Fatal(err)
		}
		c := cfg
		c.Noise = nz
		_, err = New(c)
		return err
	}
	if err := build(slack); err != nil {
		t.Errorf("the slack of ToeplitzSlackFor refused: %v", err)
	}
	if err := build(slack * (1 - 1e-9)); err == nil || !strings.Contains(err.Error(), "slack") {
		t.Errorf("a slack 1e-9 short accepted (error %v)", err)
	}
	half, err := ToeplitzSlack(BLT, dim, n, DataBound{Entry: bound}, g)
	if err != nil {
		t.Fatal(err)
	}
	if err := build(half); half >= slack || err == nil {
		t.Errorf("the default parameters' slack %v (β = 0.6's: %v) accepted by the β = 0.6 counter (error %v)", half, slack, err)
	}
}
