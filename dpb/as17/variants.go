package as17

import (
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// FTRLVariant is one way of running DP-FTRL (Algorithm 1): non-private, on
// the paper's Laplace tree (TreeBasedAgg, pure ε, λ = [FTRLLambda]) or on a
// continual counter with Gaussian node noise calibrated exactly to (ε, δ)
// ([FTRLGaussianSigma]).
type FTRLVariant struct {
	Name     string       `json:"name"`
	Private  bool         `json:"private"`
	Gaussian bool         `json:"gaussian"`
	Counter  counter.Kind `json:"counter"`
}

// FTRLVariants lists the variants the counter comparisons run, in the order
// of their figure (its series, and so their streams, follow this order).
var FTRLVariants = []FTRLVariant{
	{Name: "non-private"},
	{Name: "AS17 Laplace tree (pure ε)", Private: true},
	{Name: "Gauss tree", Private: true, Gaussian: true, Counter: counter.Tree},
	{Name: "Gauss tree-padded", Private: true, Gaussian: true, Counter: counter.TreePadded},
	{Name: "Gauss Honaker", Private: true, Gaussian: true, Counter: counter.Honaker},
	{Name: "Gauss smooth", Private: true, Gaussian: true, Counter: counter.Smooth},
	{Name: "Gauss sqrt", Private: true, Gaussian: true, Counter: counter.Sqrt},
	{Name: "Gauss BLT", Private: true, Gaussian: true, Counter: counter.BLT},
}

// SqrtMaxHorizon is the largest T at which the counter comparisons run the
// exact square-root counter by default (O(T) work a round, so O(T²) a run;
// the BLT stands in for it beyond).
const SqrtMaxHorizon = 1 << 12

// Config returns the configuration of the variant's learner on set at
// horizon T: privacy ε (private variants) and δ (Gaussian ones), noise
// simulated (the regret experiments' mode).
func (v FTRLVariant) Config(set DecisionSet, dim, T int, eps, delta float64) FTRLConfig {
	fc := FTRLConfig{Set: set, Dim: dim, Horizon: T, Epsilon: math.Inf(1), Noise: noise.Simulated}
	if v.Private {
		fc.Epsilon = eps
	}
	if v.Gaussian {
		fc.Delta, fc.Counter = delta, v.Counter
	}
	return fc
}

// FTRLRegret plays one game of DP-FTRL configured by fc on the losses of
// kind on fc's set, dimension and horizon, drawn from lossRng, the learner
// drawing from rng, and returns its final regret ([OLORegretCurve] at T).
func FTRLRegret(fc FTRLConfig, kind LossKind, lossRng, rng *rand.Rand) (float64, error) {
	losses, err := NewLosses(LossConfig{Set: fc.Set, Dim: fc.Dim, Kind: kind, Horizon: fc.Horizon}, lossRng)
	if err != nil {
		return 0, err
	}
	l, err := NewFTRL(fc, rng)
	if err != nil {
		return 0, err
	}
	out := make([]float64, 1)
	err = OLORegretCurve(l, fc.Set, losses, fc.Horizon, []int{fc.Horizon}, out)
	return out[0], err
}
