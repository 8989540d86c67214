package audit

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// TestFTRLE2E: the DP-FTRL (ε, δ) row's pair is exactly as private as its
// calibration (the Hedge view loses nothing: μ_s = μ), and both DP-FTRL
// rows fail their claim as rows when the noise is halved (the -short
// control, run here through Run's verdict rather than as a control). The
// runs are seeded; over seeds, the pairs' true ε at half the noise is 2.9
// (Gaussian, 2μ-GDP at δ = 0.01) and 2 (Laplace), while the 95 % lower
// bound from 5,000 evaluation runs lies within about 0.5 of the estimate,
// so a miss has probability below 10⁻³.
func TestFTRLE2E(t *testing.T) {
	sigma, err := as17.FTRLGaussianSigma(as17.Simplex, 2, ftrlE2EGaussT, ftrlE2EGaussEps, ftrlE2EGaussDelta, counter.Tree)
	if err != nil {
		t.Fatal(err)
	}
	s, _, q := pairWeights(noiseMatrix(counter.Tree, ftrlE2EGaussT), math.Sqrt2*sigma)
	mu := accounting.GDPMu(ftrlE2EGaussEps, ftrlE2EGaussDelta)
	if muPair := 4 * q; s != 1 || math.Abs(muPair/mu-1) > 1e-6 {
		t.Errorf("DP-FTRL (ε, δ) pair: round %d, μ_s = %.6g; want round 1 and the calibrated μ = %.6g", s, muPair, mu)
	}
	for _, m := range []*Mechanism{ftrlE2EGaussian(2, noise.Simulated), ftrlE2ELaplace(2, noise.Simulated)} {
		r, err := Run(m, Options{Trials: 10000, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Failed() {
			t.Errorf("%s at half the noise: verdict %s, ε lower %.3f; want a violation", m.Name, r.Verdict, r.Lower)
		}
	}
}
