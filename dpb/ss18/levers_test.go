package ss18

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// splitLoss is the split mechanism's μ²·σ_V² for the records (x, y) and
// (x2, y2) with σ_u = rσ_V, computed entry by entry on the packed statistic
// (each entry on and above the diagonal once, the diagonal at variance 2σ²,
// the y² corner not released): the definition LeverCal's closed form bounds.
func splitLoss(x []float64, y float64, x2 []float64, y2, r float64) float64 {
	d := len(x)
	var v, u float64
	for i := range d {
		for j := i; j < d; j++ {
			dv := x[i]*x[j] - x2[i]*x2[j]
			if i == j {
				v += dv * dv / 2
			} else {
				v += dv * dv
			}
		}
		du := x[i]*y - x2[i]*y2
		u += du * du
	}
	return v + u/(r*r)
}

// TestSplitSensitivityBruteForce: no pair of records in the box
// ‖x‖ ≤ L, |y| ≤ B moves the split mechanism by more than the closed form
// SplitFactor² (a random search of 200,000 pairs and a grid over the
// angle and the two norms, for ratios on both sides of κ = 1), and
// SplitWorstNeighbours attains it (so the bound is not loose: a σ_V
// calibrated 3 % lower would be exceeded by that pair, which the last check
// shows).
func TestSplitSensitivityBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(55, 1))
	for _, c := range []struct{ l, b, r float64 }{{1, 1, 1}, {1, 1, 1.54}, {1, 1, 0.6}, {2, 0.5, 1.2}, {0.7, 3, 4}} {
		f := SplitFactor(c.l, c.b, c.r)
		bound := f * f
		var worst float64
		for range 200000 {
			x, x2 := make([]float64, 3), make([]float64, 3)
			for i := range x {
				x[i], x2[i] = rng.NormFloat64(), rng.NormFloat64()
			}
			a, a2 := c.l*math.Sqrt(rng.Float64()), c.l*math.Sqrt(rng.Float64())
			if rng.IntN(4) == 0 {
				a, a2 = c.l, c.l
			}
			scale(x, a)
			scale(x2, a2)
			y, y2 := c.b*(2*rng.Float64()-1), c.b*(2*rng.Float64()-1)
			if rng.IntN(2) == 0 {
				y, y2 = c.b, -c.b
			}
			worst = max(worst, splitLoss(x, y, x2, y2, c.r))
		}
		// A grid over the angle and the norms of x′ at |y| = |y′| = B.
		for i := 0; i <= 400; i++ {
			s := float64(i) / 400
			for j := 0; j <= 40; j++ {
				a2 := c.l * float64(j) / 40
				x := []float64{c.l, 0}
				x2 := []float64{a2 * s, a2 * math.Sqrt(1-s*s)}
				worst = max(worst, splitLoss(x, c.b, x2, -c.b, c.r))
			}
		}
		if worst > bound*(1+1e-12) {
			t.Errorf("L=%g B=%g r=%g: a pair moves μ²σ_V² by %.12g, above the closed form %.12g", c.l, c.b, c.r, worst, bound)
		}
		x, y, x2, y2 := SplitWorstNeighbours(4, c.l, c.b, c.r)
		at := splitLoss(x, y, x2, y2, c.r)
		if math.Abs(at-bound) > 1e-12*bound {
			t.Errorf("L=%g B=%g r=%g: the worst neighbours move μ²σ_V² by %.12g, not the closed form %.12g", c.l, c.b, c.r, at, bound)
		}
		// Control: a closed form 3 % low (σ_V 3 % small) is exceeded.
		if !(at > 0.97*0.97*bound*1.0001) {
			t.Errorf("control: the worst neighbours do not exceed a bound 3 %% low")
		}
	}
}

func scale(x []float64, a float64) {
	var n2 float64
	for _, v := range x {
		n2 += v * v
	}
	c := a / math.Sqrt(n2)
	for i := range x {
		x[i] *= c
	}
}

// TestLeverCalibrationPrivacy: the calibrated σ_V, r and the counter's exact
// cost give μ(ε, δ) exactly (so (ε, δ) by GDP), for each lever; with no
// split σ is the unsplit calibration on the lever's counter; the split at
// r = 1 and L = B reduces to the unsplit σ.
func TestLeverCalibrationPrivacy(t *testing.T) {
	s := Setting{D: 4, N: 1 << 12, Epsilon: 1, Delta: 0.1, Lt2: 2}
	for _, l := range []Levers{{Split: true, XBound: 1, YBound: 1}, {Toeplitz: true}, {Split: true, XBound: 1, YBound: 1, Toeplitz: true}} {
		c, err := LeverCalibration(s, counter.BLT, l)
		if err != nil {
			t.Fatal(err)
		}
		f := SplitFactor(1, 1, c.Ratio)
		if !l.Split {
			f = s.Lt2
		}
		mu := math.Sqrt(c.Cost.L2Sq) * f / c.Sigma
		if want := accounting.GDPMu(s.Epsilon, s.Delta); math.Abs(mu-want) > 1e-6*want {
			t.Errorf("%+v: μ = %.9g, want %.9g", l, mu, want)
		}
		if e := accounting.GDPEpsilon(mu, s.Delta); math.Abs(e-s.Epsilon) > 1e-6 {
			t.Errorf("%+v: ε = %v, want %v", l, e, s.Epsilon)
		}
		if l.Toeplitz != (c.Beta != 0.5) && c.Beta != 0.5 {
			t.Errorf("%+v: β = %v", l, c.Beta)
		}
		if !(c.Objective > 0) || math.IsInf(c.Objective, 0) {
			t.Errorf("%+v: objective %v", l, c.Objective)
		}
	}
	if f := SplitFactor(1, 1, 1); f != 2 {
		t.Errorf("SplitFactor(1, 1, 1) = %v, want L̃² = 2", f)
	}
}

// TestLeversLowerTheObjective: each lever's choice lowers β̄ at ⌈√n⌉
// against no lever (its choice includes the no-lever point: r = 1 is on
// the split's grid within golden-section refinement, β = ½ on the
// Toeplitz grid), and the shift of an early round drops.
func TestLeversLowerTheObjective(t *testing.T) {
	s := Setting{D: 5, N: 1 << 16, Epsilon: 1, Delta: 0.1, Lt2: 2}
	none, err := leverCalibrate(s, counter.BLT, Levers{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []Levers{{Split: true, XBound: 1, YBound: 1}, {Toeplitz: true}, {Split: true, XBound: 1, YBound: 1, Toeplitz: true}} {
		c, err := LeverCalibration(s, counter.BLT, l)
		if err != nil {
			t.Fatal(err)
		}
		if !(c.Objective <= none.Objective) {
			t.Errorf("%+v: β̄ %v above no lever's %v", l, c.Objective, none.Objective)
		}
		r, err := NewRegularizer(RegularizerConfig{Kind: RegGaussianCounterRound, Setting: s, Counter: counter.BLT, Noise: noise.Simulated, Levers: l}, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		base, err := NewRegularizer(RegularizerConfig{Kind: RegGaussianCounterRound, Setting: s, Counter: counter.BLT, Noise: noise.Simulated}, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		tr, tb := r.(*TreeRegularizer), base.(*TreeRegularizer)
		if a, b := tr.RoundBounds(300).Shift, tb.RoundBounds(300).Shift; !(a < b) {
			t.Errorf("%+v: shift at round 300 is %v, not below GaussianBLTRound's %v", l, a, b)
		}
	}
}

// TestBLTParamsBeta: β = ½ is BLTParams bit for bit; for β = 0.6 the BLT's b
// approximates j^{β−1}/Γ(β) (what it discretises: the asymptotic form of
// (1−z)^{−β}'s coefficients, as BLTParams's 1/√(πj) is the square root's)
// within 6 % over the horizon, and the exact coefficients from j = 20 on, its
// cost is below the square root's, and at equal privacy (σ ∝ √cost) its
// noise s.d. is lower in early rounds and higher at the end.
func TestBLTParamsBeta(t *testing.T) {
	const n = 1 << 14
	o1, l1 := counter.BLTParams(n)
	o2, l2, err := counter.BLTParamsBeta(n, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	for i := range o1 {
		if o1[i] != o2[i] || l1[i] != l2[i] {
			t.Fatalf("β = ½: entry %d differs from BLTParams", i)
		}
	}
	for _, bad := range []float64{0.49, 1, math.NaN()} {
		if _, _, err := counter.BLTParamsBeta(n, bad); err == nil {
			t.Errorf("β = %v accepted", bad)
		}
	}
	om, la, err := counter.BLTParamsBeta(n, 0.6)
	if err != nil {
		t.Fatal(err)
	}
	// b_j = Γ(j+β)/(Γ(β) j!) by the recurrence b_j = b_{j−1}(j−1+β)/j.
	exact := 1.0
	g := math.Gamma(0.6)
	for j := 1; j < n; j++ {
		exact *= (float64(j) - 1 + 0.6) / float64(j)
		var b float64
		for i := range om {
			b += om[i] * math.Pow(la[i], float64(j))
		}
		if asym := math.Pow(float64(j), -0.4) / g; math.Abs(b/asym-1) > 0.06 {
			t.Fatalf("b_%d = %v, j^{β−1}/Γ(β) = %v", j, b, asym)
		}
		if j >= 20 && math.Abs(b/exact-1) > 0.06 {
			t.Fatalf("b_%d = %v, exact %v", j, b, exact)
		}
	}
	sq, _ := leverProbe(n, counter.BLT, 0.5)
	bt, _ := leverProbe(n, counter.BLT, 0.6)
	cs, cb := sq.Cost().L2Sq, bt.Cost().L2Sq
	if !(cb < cs) {
		t.Errorf("cost %v not below the square root's %v", cb, cs)
	}
	sd := func(c counter.Counter, cost float64, t int) float64 { return math.Sqrt(cost * c.VarianceAt(t)) }
	if !(sd(bt, cb, 100) < sd(sq, cs, 100)) || !(sd(bt, cb, n) > sd(sq, cs, n)) {
		t.Errorf("s.d. at equal privacy: t=100 %v vs %v, t=n %v vs %v", sd(bt, cb, 100), sd(sq, cs, 100), sd(bt, cb, n), sd(sq, cs, n))
	}
}

// TestSplitNoisePaired: the split noise draws the unsplit noise's normals
// from the same rng, the block unchanged and the last column scaled by
// σ_u/σ_V, exactly.
func TestSplitNoisePaired(t *testing.T) {
	const n, sv, su = 4, 1.5, 2.5
	a, err := noise.New(noise.Config{Law: noise.SymGaussianLaw, Mode: noise.Simulated, N: n, Sigma: sv}, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := noise.New(noise.Config{Law: noise.SymGaussianLaw, Mode: noise.Simulated, N: n, Sigma: sv, SigmaU: su}, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	za, zb := make([]float64, a.Dim()), make([]float64, b.Dim())
	for range 50 {
		a.Sample(za)
		b.Sample(zb)
		k := 0
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				want := za[k]
				if j == n-1 {
					want = za[k] / sv * su
				}
				if math.Abs(zb[k]-want) > 1e-15*math.Abs(want) {
					t.Fatalf("entry (%d,%d): %v, want %v", i, j, zb[k], want)
				}
				k++
			}
		}
	}
}

// TestSplitPolicyBounds: a split variant refuses ‖x‖ > X and |y| > Y with
// an error that names the bound (an observation with ‖x‖² + y² ≤ L̃² but
// ‖x‖ > X included), clips each part separately with Clip, never releases
// y², and the configuration errors are clear.
func TestSplitPolicyBounds(t *testing.T) {
	s := Setting{D: 2, N: 50, Epsilon: 1, Delta: 0.1, Lt2: 2}
	mk := func(clip bool) *LinUCB {
		p, err := NewPolicy(PolicyConfig{Alg: GaussianLevers, Setting: s, Noise: noise.Simulated, XBound: 1, YBound: 1, Clip: clip}, rand.New(rand.NewPCG(5, 6)))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := mk(false)
	for _, c := range []struct {
		x    []float64
		y    float64
		want string
	}{{[]float64{1.2, 0}, 0.1, "‖x‖"}, {[]float64{0.5, 0}, 1.3, "|y|"}, {[]float64{math.NaN(), 0}, 0, "finite"}} {
		err := p.Observe(c.x, c.y)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Observe(%v, %v) = %v, want an error naming %s", c.x, c.y, err, c.want)
		}
	}
	if err := p.Observe([]float64{0.6, 0.8}, -1); err != nil {
		t.Errorf("a record on the bounds refused: %v", err)
	}
	reg := p.reg.(*TreeRegularizer)
	ex := reg.Counter().(interface{ Exact() []float64 }).Exact()
	if ex[len(ex)-1] != 0 {
		t.Errorf("y² entered the counter: corner %v", ex[len(ex)-1])
	}
	q := mk(true)
	if err := q.Observe([]float64{3, 4}, -7); err != nil {
		t.Fatal(err)
	}
	ex = q.reg.(*TreeRegularizer).Counter().(interface{ Exact() []float64 }).Exact()
	// x clipped to (0.6, 0.8), y to −1: packed row 0 is x0², x0x1, x0y.
	for i, want := range []float64{0.36, 0.48, -0.6} {
		if math.Abs(ex[i]-want) > 1e-12 {
			t.Errorf("clipped entry %d: %v, want %v", i, ex[i], want)
		}
	}
	for _, c := range []struct {
		cfg  PolicyConfig
		want string
	}{
		{PolicyConfig{Alg: GaussianSplit, Setting: s, Noise: noise.Simulated}, "XBound"},
		{PolicyConfig{Alg: GaussianSplit, Setting: s, Noise: noise.Simulated, XBound: 1, YBound: -1}, "YBound"},
		{PolicyConfig{Alg: GaussianToeplitz, Setting: s, Noise: noise.Simulated, XBound: 1, YBound: 1}, "no split"},
		{PolicyConfig{Alg: GaussianLevers, Setting: s, Noise: noise.Simulated, XBound: 1, YBound: 1, Radius: RadiusClosedForm}, "RadiusMinEig"},
	} {
		_, err := NewPolicy(c.cfg, rand.New(rand.NewPCG(1, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error naming %s", c.cfg, err, c.want)
		}
	}
	// Noise unset: the secure sampler (it was refused before the levers had one).
	if p, err := NewPolicy(PolicyConfig{Alg: GaussianSplit, Setting: s, XBound: 1, YBound: 1}, rand.New(rand.NewPCG(1, 1))); err != nil || p.Privacy().Noise != "secure" {
		t.Errorf("GaussianSplit with Noise unset: %v", err)
	}
}

// TestLeverVariantsRun: each lever variant plays an Appendix D environment
// without error, reports the split's accounting, and its privacy is the
// setting's (ε, δ).
func TestLeverVariantsRun(t *testing.T) {
	s := Setting{D: 3, N: 400, Epsilon: 1, Delta: 0.1, Lt2: 2}
	for _, a := range LeverAlgs {
		cfg := PolicyConfig{Alg: a, Setting: s, Noise: noise.Simulated}
		if lv, _ := a.Levers(); lv.Split {
			cfg.XBound, cfg.YBound = 1, 1
		}
		p, err := NewPolicy(cfg, rand.New(rand.NewPCG(7, 8)))
		if err != nil {
			t.Fatal(err)
		}
		env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 3, K: 9, Gap: 0.1}, bandit.Stream(55, 1))
		if err != nil {
			t.Fatal(err)
		}
		r := bandit.NewRound(env)
		for tt := 1; tt <= s.N; tt++ {
			env.Next(r, tt)
			arm := p.Choose(r)
			p.Update(r, arm, env.Reward(r, arm))
		}
		if p.Err() != nil {
			t.Errorf("%v: %v", a, p.Err())
		}
		pr := p.Privacy()
		if !pr.Private || pr.Epsilon != 1 || pr.Delta != 0.1 {
			t.Errorf("%v: privacy %+v", a, pr)
		}
		if lv, _ := a.Levers(); lv.Split != strings.Contains(pr.Accounting, "split") {
			t.Errorf("%v: accounting %q", a, pr.Accounting)
		}
		if got, err := ParseAlg(a.String()); err != nil || got != a {
			t.Errorf("ParseAlg(%q) = %v, %v", a.String(), got, err)
		}
	}
}

// TestReleasedShiftSnapshot: a GaussianLeversShift policy restored from a
// snapshot (taken after Choose, when the round is prepared, and after
// Update) continues bit for bit like the one that never stopped: the
// released-shift lever's ℓ and the current round's bounds are part of the
// state. Control: without them (ℓ zeroed in the restored policy) the radius
// differs, so the comparison can fail.
func TestReleasedShiftSnapshot(t *testing.T) {
	s := Setting{D: 3, N: 3000, Epsilon: 1, Delta: 0.1, Lt2: 2}
	mk := func() *LinUCB {
		p, err := NewPolicy(PolicyConfig{Alg: GaussianLeversShift, Setting: s, Noise: noise.Simulated, XBound: 1, YBound: 1}, bandit.Stream(9, 1))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, afterChoose := range []bool{true, false} {
		for _, control := range []bool{false, true} {
			a, b := mk(), mk()
			env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 3, K: 9, Gap: 0}, bandit.Stream(9, 0))
			if err != nil {
				t.Fatal(err)
			}
			r := bandit.NewRound(env)
			const cut = 2000
			differ := false
			for tt := 1; tt <= s.N; tt++ {
				env.Next(r, tt)
				arm := a.Choose(r)
				snapNow := func() {
					data, err := a.AppendBinary(nil)
					if err != nil {
						t.Fatal(err)
					}
					if err := b.UnmarshalBinary(data); err != nil {
						t.Fatal(err)
					}
					if control {
						b.reg.(*TreeRegularizer).round.shift.ell = 0
						b.reg.(*TreeRegularizer).round.last = 0
					}
				}
				if tt == cut && afterChoose {
					snapNow()
				}
				if tt > cut || (tt == cut && afterChoose) {
					if tt > cut {
						if brm := b.Choose(r); brm != arm {
							differ = true
						}
					}
					if a.Radius() != b.Radius() {
						differ = true
					}
					b.Update(r, arm, env.Reward(r, arm))
				}
				a.Update(r, arm, env.Reward(r, arm))
				if tt == cut && !afterChoose {
					snapNow()
				}
			}
			if differ != control {
				t.Errorf("after Choose %v, control %v: restored policy differs: %v", afterChoose, control, differ)
			}
		}
	}
}

// TestReleasedShiftRule: ρ_t is always a grid value; with no released
// information (ℓ = 0) it is the grid minimiser of the stated objective,
// recomputed here from its formula; an ℓ past the noise (400 against
// Υ = 60) moves it down the grid; and
// LinUCB's log-det radius carries the 2 ln K of the union over the grid
// (β_t = BetaLogDet at α/K plus the terms).
func TestReleasedShiftRule(t *testing.T) {
	s := Setting{D: 5, N: 1 << 14, Epsilon: 1, Delta: 0.1, Lt2: 2}
	rs := newReleasedShift(s, 100)
	const ups, g = 60.0, 50.0
	obj := func(rho, ell float64) float64 {
		lr, p := ell+rho, rho+2*ups
		return math.Sqrt(2*math.Log(2*21/s.AlphaOrDefault())+5*math.Log(lr/rho)) + math.Min(math.Sqrt(p), p/math.Sqrt(lr)) + g/math.Sqrt(lr)
	}
	for _, ell := range []float64{0, 50, 400, 1e5} {
		rs.ell = ell
		got := rs.choose(ups, g)
		best, bv := 0.0, math.Inf(1)
		for j := 0; j < 21; j++ {
			rho := 100 * math.Pow(2, float64(4-j)/2)
			if v := obj(rho, ell); v < bv {
				best, bv = rho, v
			}
		}
		if math.Abs(got-best) > 1e-9*best {
			t.Errorf("ℓ = %v: ρ_t = %v, the objective's grid minimiser is %v", ell, got, best)
		}
	}
	rs.ell = 0
	lo := rs.choose(ups, g)
	rs.ell = 400
	if hi := rs.choose(ups, g); !(hi < lo) {
		t.Errorf("ρ_t with ℓ = 400 is %v, not below ℓ = 0's %v", hi, lo)
	}
	p, err := NewPolicy(PolicyConfig{Alg: GaussianShift, Setting: s, Noise: noise.Simulated}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if p.rc.logK != 2*math.Log(21) {
		t.Errorf("LinUCB's self-normalised log adds %v, want 2 ln 21", p.rc.logK)
	}
}

// TestSplitFingerprint: two split configurations that differ only in a data
// bound have different fingerprints (a snapshot of one is refused by the
// other); a configuration without a split keeps its bytes.
func TestSplitFingerprint(t *testing.T) {
	s := Setting{D: 3, N: 100, Epsilon: 1, Delta: 0.1, Lt2: 2}
	a, _ := PolicyConfig{Alg: GaussianLevers, Setting: s, XBound: 1, YBound: 1}.AppendBinary(nil)
	b, _ := PolicyConfig{Alg: GaussianLevers, Setting: s, XBound: 1, YBound: 2}.AppendBinary(nil)
	if string(a) == string(b) {
		t.Error("split configurations with different YBound share a fingerprint")
	}
	c, _ := PolicyConfig{Alg: GaussianToeplitz, Setting: s}.AppendBinary(nil)
	d, _ := PolicyConfig{Alg: GaussianBLTRound, Setting: s}.AppendBinary(nil)
	if len(c) != len(d) {
		t.Errorf("a configuration without a split has %d fingerprint bytes, not %d", len(c), len(d))
	}
}
