package check

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// TestBWSigmaMatchesAccounting: the check's own bisection on Balle–Wang's
// δ(ε) and the accountant the mechanisms use agree (two implementations of
// one formula), and bwEpsilon inverts bwSigma.
func TestBWSigmaMatchesAccounting(t *testing.T) {
	for _, c := range []struct{ eps, delta, sens float64 }{{1, 0.1, 1}, {1, 1.0 / 65536, 2.5}, {0.3, 1e-6, 4}, {3, 1e-3, 1}} {
		want, err := accounting.GaussianSigma(c.eps, c.delta, c.sens)
		if err != nil {
			t.Fatal(err)
		}
		got := bwSigma(c.eps, c.delta, c.sens)
		if math.Abs(got/want-1) > 1e-8 {
			t.Errorf("bwSigma%+v = %.12g, accounting.GaussianSigma = %.12g", c, got, want)
		}
		if e := bwEpsilon(c.sens/got, c.delta); math.Abs(e/c.eps-1) > 1e-8 {
			t.Errorf("bwEpsilon at bwSigma%+v = %.12g, want ε", c, e)
		}
	}
}

// offDiagScaled plants an off-diagonal-only defect in a packed symmetric
// node noise of n×n matrices: the entries off the diagonal scaled by f.
type offDiagScaled struct {
	noise.Noise
	n int
	f float64
}

func (o offDiagScaled) Sample(dst []float64) {
	o.Noise.Sample(dst)
	for i := range o.n {
		for j := i + 1; j < o.n; j++ {
			dst[simd.PackedIndex(o.n, i, j)] *= o.f
		}
	}
}

// diagScaled plants a diagonal-only defect (the diagonal scaled by f).
type diagScaled offDiagScaled

func (o diagScaled) Sample(dst []float64) {
	o.Noise.Sample(dst)
	for i := range o.n {
		dst[simd.PackedIndex(o.n, i, i)] *= o.f
	}
}

// TestSymGaussNodeRowsCatchDefects plants the defects of issue 51 in the
// SS18 Gaussian tree's node noise and runs the rows on each: the true
// sampler passes (false failure ≤ 1e-5 per row), every defect fails the
// scale row, a zero sampler (noise switched off) fails it too.
func TestSymGaussNodeRowsCatchDefects(t *testing.T) {
	s := SS18Config{Short: true}.SS18CheckSetting()
	n1 := s.D + 1
	fresh := func(id uint64) noise.Noise {
		g, err := noise.NewSymGaussianNoise(n1, s.GaussianSigma(), bandit.Stream(1, id))
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	for _, v := range symGaussNodeRows(fresh(1), s) {
		if !v.Pass {
			t.Errorf("true sampler: %s %s (%s)", v.Name, v.Status(), v.Note)
		}
	}
	defects := []struct {
		name string
		nz   noise.Noise
	}{
		{"all ×0.97", scaledNoise{fresh(2), 0.97}},
		{"all ×1.03", scaledNoise{fresh(3), 1.03}},
		{"off-diagonal ×0.97", offDiagScaled{fresh(4), n1, 0.97}},
		{"diagonal ×0.97", diagScaled{fresh(5), n1, 0.97}},
		{"diagonal √2σ → σ", diagScaled{fresh(6), n1, 1 / math.Sqrt2}},
		{"no noise", noise.ZeroNoise{N: simd.PackedLen(n1)}},
	}
	for _, d := range defects {
		v := symGaussNodeRows(d.nz, s)[0]
		if v.Pass || v.Vacuous {
			t.Errorf("%s: %s passes (%s)", d.name, v.Name, v.Note)
		}
	}
}

// TestWishartNodeRowsCatchDefects: k ×0.97 or ×1.03 fails the mean row, the
// off-diagonal ×0.97 the variance row.
func TestWishartNodeRowsCatchDefects(t *testing.T) {
	s := SS18Config{Short: true}.SS18CheckSetting()
	n1, k := s.D+1, s.WishartK()
	rng := bandit.Stream(1, 7)
	w := func(kf float64) noise.Noise {
		nz, err := noise.NewWishartNoise(n1, s.Lt2, kf, rng)
		if err != nil {
			t.Fatal(err)
		}
		return nz
	}
	planted := w(0.97 * float64(k))
	for _, v := range wishartNodeRows(w(float64(k)), planted, rng, s, k) {
		if !v.Pass {
			t.Errorf("true sampler: %s %s (%s)", v.Name, v.Status(), v.Note)
		}
	}
	if v := wishartNodeRows(w(1.03*float64(k)), planted, rng, s, k)[0]; v.Pass {
		t.Errorf("k ×1.03: %s passes (%s)", v.Name, v.Note)
	}
	if v := wishartNodeRows(offDiagScaled{w(float64(k)), n1, 0.97}, planted, rng, s, k)[1]; v.Pass {
		t.Errorf("off-diagonal ×0.97: %s passes (%s)", v.Name, v.Note)
	}
}
