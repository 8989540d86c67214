package check

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// gaussShiftTrees is the number of fresh Gaussian trees behind
// "ss18-gaussian-shift": each gives d diagonal entries of H_1, N = d·trees
// in all. An entry is 2Υ plus the sum of m diagonal node noises, N(0,
// 2mσ²), a relative s.d. 1/(2(4√d + 2 ln(2n/α))) of 2Υ (1.7 % at d = 5,
// n = 128, the short suite's setting; 1.3 % at n = 1024); at d = 5 the
// mean's relative s.e. is 0.017 % and the row fails beyond ±0.074 %
// (two-sided, 10⁻⁵: the false-failure probability); the control's −1 % is
// 13.5 times that threshold, 54 standard errors beyond it (missed with
// probability far below 10⁻¹⁰).
const gaussShiftTrees = 2000

// gaussShiftControl is the control's shift over 2Υ: the tree built with a
// shift 1 % short (ss18.ShiftGiven), far smaller than the halved shift of
// a lost factor 2 and still caught.
const gaussShiftControl = 0.99

// SS18GaussianShift measures the shift the built Gaussian tree
// ([ss18.NewRegularizer] RegGaussianTree, padded, noise.Simulated) adds to H_t against
// 2Υ, Υ of SS18 §4.2 (Proposition 11) as printed and computed here from d,
// n, α, ε, δ, L̃² and m (ss18PrintedUpsilon, not [ss18.Setting.Upsilon] or
// the tree's Bounds().Shift, which the rows of Proposition 11 read and so
// agree with any error in them): "ss18-gaussian-shift". H_t = N_t + 2ΥI,
// N_t the top-left d×d block of the summed symmetrised node noise, whose
// diagonal entries have mean 0, so the mean of H_1's diagonal over fresh
// trees is the shift: against 2Υ, two-sided at 10⁻⁵ with the sample's
// standard error (Student-t on ≥ 10⁴ entries is normal to 10⁻⁴). Control:
// the tree built with the shift ×0.99 (gaussShiftControl).
func SS18GaussianShift(rng *rand.Rand, s ss18.Setting) (Verdicts, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	ups := ss18PrintedUpsilon(s)
	seed := rng.Uint64()
	mean, se, n, err := gaussShiftMean(seed, s, 0)
	if err != nil {
		return nil, err
	}
	cmean, cse, _, err := gaussShiftMean(seed, s, gaussShiftControl*2*ups)
	if err != nil {
		return nil, err
	}
	ref := 2 * ups
	dev := math.Abs(mean-ref) / (z5two * se)
	cdev := math.Abs(cmean-ref) / (z5two * cse)
	v := NewVerdict("ss18-gaussian-shift",
		fmt.Sprintf("measured on the built object: the Gaussian tree's H_t = N_t + 2ΥI, Υ = σ_noise√(2m)(4√d + 2 ln(2n/α)) = %.6g as printed (d=%d, n=%d, α=%.3g, σ_noise = %.5g, m = %d; computed by the check)", ups, s.D, s.N, 1/float64(s.N), ss18PrintedSigma(s), ss18Levels(s.N)),
		"SS18 §4.2 and Proposition 11 (Υ, the shift 2Υ; the built Gaussian tree)",
		0, 0, boolFail(dev <= 1), dev,
		fmt.Sprintf("%d diagonal entries of H_1 over %d fresh padded trees: mean / 2Υ = %.6f ± %.2g (s.e.), fails beyond ±%.3g (two-sided, 1e-5); control (shift ×%g) mean / 2Υ = %.6f", n, gaussShiftTrees, mean/ref, se/ref, z5two*se/ref, gaussShiftControl, cmean/ref))
	v.Tail = v.Slack
	v = withControl(v, NewVerdict("control", "", "", 0, 0, boolFail(cdev <= 1), cdev, ""), fmt.Sprintf("the tree built with the shift ×%g", gaussShiftControl))
	v.ControlScore = cdev
	v.Detects = fmt.Sprintf("a shift off 2Υ by more than ±%.2g%%", 100*z5two*se/ref)
	return Verdicts{v}, nil
}

// gaussShiftMean builds gaussShiftTrees Gaussian trees (the paper's shift
// when shift is 0, else ss18.ShiftGiven with that value), adds one zero
// round to each and returns the mean of H_1's diagonal entries, its
// standard error and the number of entries.
func gaussShiftMean(seed uint64, s ss18.Setting, shift float64) (mean, se float64, n int, err error) {
	d := s.D
	h, hv, x := make([]float64, d*d), make([]float64, d), make([]float64, d)
	var sum, ss float64
	for i := range gaussShiftTrees {
		cfg := ss18.RegularizerConfig{Kind: ss18.RegGaussianTree, Setting: s, Mode: counter.Padded, Noise: noise.Simulated}
		if shift != 0 {
			cfg.Shift, cfg.ShiftValue = ss18.ShiftGiven, shift
		}
		r, err := ss18.NewRegularizer(cfg, bandit.Stream(seed, uint64(i)))
		if err != nil {
			return 0, 0, 0, err
		}
		r.Add(x, 0)
		r.PerturbationTo(h, hv)
		for j := range d {
			v := h[j*d+j]
			sum += v
			ss += float64(v * v)
			n++
		}
	}
	mean = sum / float64(n)
	variance := (ss - float64(n)*mean*mean) / float64(n-1)
	return mean, math.Sqrt(variance / float64(n)), n, nil
}
