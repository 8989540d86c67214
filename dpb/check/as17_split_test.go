package check

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
)

// TestGaussianMaxAbs compares E[max_i |G_i|] with its closed form at n = 1
// (√(2/π)) and with a sample of 200,000 draws at n = 4 (seed fixed; the
// tolerance is 5 standard errors of the sample mean, a false failure
// probability below 6e-7 for a normal mean).
func TestGaussianMaxAbs(t *testing.T) {
	if got, want := gaussianMaxAbs(1), math.Sqrt(2/math.Pi); math.Abs(got-want) > 1e-10 {
		t.Errorf("gaussianMaxAbs(1) = %v, want %v", got, want)
	}
	rng := bandit.Stream(7, 1)
	const draws, n = 200000, 4
	var sum, sum2 float64
	for range draws {
		m := 0.0
		for range n {
			m = math.Max(m, math.Abs(rng.NormFloat64()))
		}
		sum += m
		sum2 += float64(m * m)
	}
	mean := sum / draws
	se := math.Sqrt((sum2/draws - float64(mean*mean)) / draws)
	if got := gaussianMaxAbs(n); math.Abs(got-mean) > 5*se {
		t.Errorf("gaussianMaxAbs(%d) = %.5f, sample mean %.5f ± %.5f", n, got, mean, se)
	}
}

// TestCounterSplitNoise: the split term is FTRLCounterBound's where (a) is
// the smaller (padded tree, smooth, BLT: nothing to split), and on the plain
// tree and Honaker's estimator, where (b) is, it is positive and at least 4
// times below it at the check's short size (N = 4, T = 8192, ε = 30).
func TestCounterSplitNoise(t *testing.T) {
	const n, T, eps = 4, 8192, 30.0
	for _, kind := range []counter.Kind{counter.Tree, counter.TreePadded, counter.Honaker, counter.Smooth, counter.BLT} {
		for _, set := range []as17.DecisionSet{as17.Simplex, as17.Ball, as17.Cube} {
			sigma, err := as17.FTRLGaussianSigma(set, n, T, eps, 1.0/T, kind)
			if err != nil {
				t.Fatal(err)
			}
			eta := as17.FTRLEta(set, n, T)
			q, err := as17.NewFTRLCounterBound(set, n, T, eta, sigma, kind)
			if err != nil {
				t.Fatal(err)
			}
			nt, a, err := counterSplitNoise(set, n, T, eta, sigma, kind, q)
			if err != nil {
				t.Fatal(err)
			}
			switch kind {
			case counter.Tree, counter.Honaker:
				if q.Which != "stability" || !(nt > 0) || !(nt*4 < q.Noise) || !(a > 0 && a <= q.MaxSD) {
					t.Errorf("%v %v: split %.4g at a = %.3g (max s.d. %.3g), FTRLCounterBound's %s term %.4g: want a positive split term 4 times below it", kind, set, nt, a, q.MaxSD, q.Which, q.Noise)
				}
			default:
				if nt != q.Noise || a != 0 {
					t.Errorf("%v %v: split %.4g at a = %.3g, want FTRLCounterBound's %s term %.4g", kind, set, nt, a, q.Which, q.Noise)
				}
			}
		}
	}
}
