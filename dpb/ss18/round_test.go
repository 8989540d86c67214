package ss18

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// The per-round regularizer: its σ is the exact calibration's, its bounds in
// round t follow the formulas of NewGaussianCounterRegRound with the
// counter's VarianceAt(t), its shift moves with them, and LinUCB's radius
// uses the current round's bounds.
func TestGaussianCounterRegRound(t *testing.T) {
	const n = 300
	s := Setting{D: 3, N: n, Epsilon: 1, Delta: 0.1, Lt2: 2}
	cal, err := GaussianCounterCalibration(s, counter.BLT)
	if err != nil {
		t.Fatal(err)
	}
	rAny, err := NewRegularizer(RegularizerConfig{Kind: RegGaussianCounterRound, Setting: s, Counter: counter.BLT, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	r := rAny.(*TreeRegularizer)
	if !r.BoundsChange() {
		t.Fatal("BoundsChange is false")
	}
	if sg := r.Counter().(*counter.ToeplitzCounter); sg == nil {
		t.Fatal("not on the BLT counter")
	}
	hn := 0.0
	for k := 1; k <= n; k++ {
		hn += 1 / float64(k)
	}
	rho := r.RoundBounds(1).RhoMin
	alpha, sd := 1/float64(n), math.Sqrt(3)
	want := func(k int) RegBounds {
		a := alpha / (2 * float64(k) * hn)
		g := 1.0 // the grid point ⌈2^{j/8}⌉ ≥ k, counted here by powers
		for j := 0; math.Ceil(g) < float64(k); j++ {
			g = math.Pow(2, float64(j+1)/8)
		}
		tg := min(n, int(math.Ceil(g)))
		if tg < k || r.Counter().VarianceAt(tg) < r.Counter().VarianceAt(k) {
			t.Fatalf("round %d: grid point %d gives no upper bound", k, tg)
		}
		sv := cal.Sigma * math.Sqrt(r.Counter().VarianceAt(tg))
		ups := sv * (2*sd + 2*math.Sqrt(math.Log(4/a)))
		g0 := sv * (sd + math.Sqrt(2*math.Log(2/a)))
		return RegBounds{RhoMin: rho, RhoMax: rho + 2*ups, Gamma: g0 / math.Sqrt(rho), Shift: rho + ups}
	}
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Abs(b) }
	h := make([]float64, 9)
	hv := make([]float64, 3)
	nz := make([]float64, simd.PackedLen(4))
	x := []float64{0.6, 0, 0.8}
	var prev RegBounds
	for k := 1; k <= n; k++ {
		if k > 1 {
			r.Add(x, 0.5)
		}
		b, w := r.Bounds(), want(k)
		if !(close(b.RhoMin, w.RhoMin) && close(b.RhoMax, w.RhoMax) && close(b.Gamma, w.Gamma) && close(b.Shift, w.Shift)) {
			t.Fatalf("round %d: bounds %+v, want %+v", k, b, w)
		}
		if k > 1 && !(b.RhoMax >= prev.RhoMax && b.RhoMin == prev.RhoMin) {
			t.Fatalf("round %d: ρ_max %v not above %v or ρ_min moved", k, b.RhoMax, prev.RhoMax)
		}
		prev = b
		// H_t's diagonal is the counter's noise plus this round's shift.
		r.PerturbationTo(h, hv)
		r.Counter().NoiseTo(nz)
		if !close(h[0]-nz[0], w.Shift) {
			t.Fatalf("round %d: shift applied %v, want %v", k, h[0]-nz[0], w.Shift)
		}
	}
	// LinUCB reads the current bounds each round.
	p, err := NewPolicy(PolicyConfig{Alg: GaussianBLTRound, Setting: s, Noise: noise.Simulated}, bandit.Stream(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 3, K: 9, Gap: 0.1}, bandit.Stream(1, 3))
	if err != nil {
		t.Fatal(err)
	}
	rd := bandit.NewRound(env)
	for k := 1; k <= 50; k++ {
		env.Next(rd, k)
		arm := p.Choose(rd)
		if got, w := p.Bounds(), want(k); !close(got.RhoMax, w.RhoMax) {
			t.Fatalf("LinUCB round %d: bounds %+v, want %+v", k, got, w)
		}
		if got, w := p.Radius(), BetaLogDet(p.Confidence(), p.Bounds(), p.LogDetV()); !close(got, w) {
			t.Fatalf("LinUCB round %d: β %v, want %v", k, got, w)
		}
		p.Update(rd, arm, env.Reward(rd, arm))
	}
	for _, kind := range []counter.Kind{counter.Tree, counter.Honaker, counter.Smooth} {
		if _, err := NewRegularizer(RegularizerConfig{Kind: RegGaussianCounterRound, Setting: s, Counter: kind, Noise: noise.Simulated}, bandit.Stream(1, 1)); err == nil {
			t.Errorf("%v (variance not monotone) accepted", kind)
		}
	}
	// The constant-bound regularizers do not change.
	gAny, _ := NewRegularizer(RegularizerConfig{Kind: RegGaussianCounter, Setting: s, Counter: counter.BLT, Noise: noise.Simulated}, bandit.Stream(1, 1))
	g, _ := gAny.(*TreeRegularizer) // nil on error
	if g.BoundsChange() || g.RoundBounds(7) != g.Bounds() {
		t.Error("the exact-calibration regularizer reports changing bounds")
	}
}
