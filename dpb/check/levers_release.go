package check

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// leverReleaseRuns is the number of runs behind each lever release row: at
// d = 5, n = 128 they give 40·6·128 = 30,720 whitened values of the reward
// column (the corner with it) and 40·15·128 = 76,800 of the Gram block.
const leverReleaseRuns = 40

// LeverReleases measures the release noise of the lever regularizers
// (ss18.NewRegularizer, RegGaussianCounterRound on the BLT with the levers
// of each ss18.LeverAlgs variant, split bound ‖x‖ ≤ 1, |y| ≤ 1) built for
// the setting s, on data at the bounds (unit x, y = ±1), against the law
// the calibration claims and its bounds assume: release t minus the data's
// exact sum — with the y² corner 0 for a split variant, whose corner is
// not released — is Σ_{s≤t} b_{t−s}η_s per packed entry, b the counter's
// impulse response (read by the check's probe), η_s i.i.d. normal with
// variance 2σ_V² on the Gram block's diagonal, σ_V² off it, σ_u² on the
// reward vector and 2σ_u² at the corner (noise.NewSymGaussianSplit; σ_V =
// σ_u unsplit). Each run's releases are whitened by B⁻¹ (forward
// substitution with b), leaving i.i.d. N(0, 1) values under the claim; row
// "ss18-lever-<alg>-release" fails when the mean square of the reward
// column's (with the corner) or of the block's is off 1 by more than
// z√(2/N), z for 10⁻⁵ over the two (two-sided). So a reward vector noised
// with σ_V, a corner carrying y², or a buffer missing from the noise path
// fails it. Control: the releases ×0.97 (3 % under-noise).
func LeverReleases(rng *rand.Rand, s ss18.Setting) (Verdicts, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	var vs Verdicts
	for _, alg := range ss18.LeverAlgs {
		v, err := leverReleaseRow(rng, s, alg)
		if err != nil {
			return nil, err
		}
		c, err := leverBuiltCostRow(rng, s, alg)
		if err != nil {
			return nil, err
		}
		vs = append(vs, v, c)
	}
	return vs, nil
}

// leverBuiltCostRow is "ss18-lever-<alg>-built-cost": the counter the built
// regularizer runs has the cost its σ was calibrated with, i.e. its
// Cost().L2Sq equals the check's C = B⁻¹A cost of the BLT on the β the
// calibration reports (costFromImpulse; exact, 10⁻⁷). The release row's mean
// squares are second-order in a small change of B, so a counter one
// β-grid step off passes it; this row does not. Control: a counter built
// one grid step off (β − 0.01; β + 0.01 at β = ½).
func leverBuiltCostRow(rng *rand.Rand, s ss18.Setting, alg ss18.Alg) (Verdict, error) {
	lv := leverLevers(alg)
	regAny, err := ss18.NewRegularizer(ss18.RegularizerConfig{Kind: ss18.RegGaussianCounterRound, Setting: s, Counter: counter.BLT, Noise: noise.Simulated, Levers: lv}, rng)
	if err != nil {
		return Verdict{}, err
	}
	reg, ok := regAny.(*ss18.TreeRegularizer)
	if !ok {
		return Verdict{}, fmt.Errorf("check: the lever regularizer is a %T, not a *ss18.TreeRegularizer", regAny)
	}
	lc, _ := reg.Levers()
	want := func(beta float64) (float64, error) {
		om, la, err := counter.BLTParamsBeta(s.N, beta)
		if err != nil {
			return 0, err
		}
		b, _, err := bltImpulseResponse(s.N, om, la)
		if err != nil {
			return 0, err
		}
		return costFromImpulse(b), nil
	}
	w, err := want(lc.Beta)
	if err != nil {
		return Verdict{}, err
	}
	step := -0.01 // one grid step, below (above at β = ½, the grid's end)
	if lc.Beta-0.01 < 0.5 {
		step = 0.01
	}
	om, la, err := counter.BLTParamsBeta(s.N, lc.Beta+step)
	if err != nil {
		return Verdict{}, err
	}
	off, err := counter.New(counter.Config{Kind: counter.BLT, Dim: 1, Horizon: s.N, Noise: noise.ZeroNoise{N: 1}, Omega: om, Lambda: la})
	if err != nil {
		return Verdict{}, err
	}
	got, ctl := reg.Counter().Cost().L2Sq, off.Cost().L2Sq
	note := fmt.Sprintf("n=%d, β=%g: the built regularizer's counter Cost().L2Sq = %.12g, C = B⁻¹A cost at β here %.12g; control (β %+g) %.8g", s.N, lc.Beta, got, w, step, ctl)
	return leverExactRow("ss18-lever-"+alg.String()+"-built-cost", "the built regularizer's counter has the cost of the BLT on the calibrated β (max_s ‖C_·s‖², C = B⁻¹A by the check)",
		"ss18/levers.go, round.go (newLeverReg); issue 55", got, w, ctl, "the counter built one β-grid step off (β ∓ 0.01)", note), nil
}

// leverReleaseSums holds the whitened mean squares' sums: [0] the reward
// column with the corner, [1] the Gram block, and their counts.
type leverReleaseSums struct {
	ss [2]float64
	n  [2]int
}

func leverReleaseRow(rng *rand.Rand, s ss18.Setting, alg ss18.Alg) (Verdict, error) {
	lv := leverLevers(alg)
	lc, err := ss18.LeverCalibration(s, counter.BLT, lv)
	if err != nil {
		return Verdict{}, err
	}
	om, la, err := counter.BLTParamsBeta(s.N, lc.Beta)
	if err != nil {
		return Verdict{}, err
	}
	b, _, err := bltImpulseResponse(s.N, om, la)
	if err != nil {
		return Verdict{}, err
	}
	var sums leverReleaseSums
	for range leverReleaseRuns {
		if err := leverReleaseRun(rng, s, lv, lc, b, &sums); err != nil {
			return Verdict{}, err
		}
	}
	z := zTwoSided(PassPValue / 2)
	ratios, ctl, tols := make([]float64, 2), make([]float64, 2), make([]float64, 2)
	for k := range ratios {
		ratios[k] = sums.ss[k] / float64(sums.n[k])
		ctl[k] = ratios[k] * samplerDefect * samplerDefect
		tols[k] = z * math.Sqrt(2/float64(sums.n[k]))
	}
	note := fmt.Sprintf("d=%d n=%d, BLT β=%g, σ_V=%.5g σ_u=%.5g; %d runs: whitened mean square / claim, reward column and corner %.5f (%d values), Gram block %.5f (%d), fail beyond ±%.3g, ±%.3g",
		s.D, s.N, lc.Beta, lc.Sigma, lc.SigmaU, leverReleaseRuns, ratios[0], sums.n[0], ratios[1], sums.n[1], tols[0], tols[1])
	return varianceRow("ss18-lever-"+alg.String()+"-release",
		"measured on the built regularizer: release t − the data's exact sum (corner 0 when split) = Σ_{s≤t} b_{t−s}η_s, η with variance σ_u² on the reward vector (2σ_u² corner), σ_V² off and 2σ_V² on the Gram block's diagonal",
		"ss18/levers.go (LeverCal, split noise), noise.NewSymGaussianSplit, counter.BLTParamsBeta; issue 55",
		ratios, ctl, tols, "the releases ×0.97", note), nil
}

// leverReleaseRun runs one regularizer over n releases on data at the
// bounds and adds its whitened mean squares to sums.
func leverReleaseRun(rng *rand.Rand, s ss18.Setting, lv ss18.Levers, lc ss18.LeverCal, b []float64, sums *leverReleaseSums) error {
	regAny, err := ss18.NewRegularizer(ss18.RegularizerConfig{Kind: ss18.RegGaussianCounterRound, Setting: s, Counter: counter.BLT, Noise: noise.Simulated, Levers: lv}, rng)
	if err != nil {
		return err
	}
	reg, ok := regAny.(*ss18.TreeRegularizer)
	if !ok {
		return fmt.Errorf("check: the lever regularizer is a %T, not a *ss18.TreeRegularizer", regAny)
	}
	ctr := reg.Counter()
	n, n1 := s.N, s.D+1
	p := simd.PackedLen(n1)
	exact, rel, z := make([]float64, p), make([]float64, p), make([]float64, n1)
	y := make([]float64, n*p) // y[t·p + k]: release t+1's noise in entry k
	x := make([]float64, s.D)
	for t := range n {
		if t > 0 { // release 1 is the zero item's
			var nx float64
			for i := range x {
				x[i] = rng.NormFloat64()
				nx += float64(x[i] * x[i])
			}
			for i := range x {
				x[i] /= math.Sqrt(nx)
			}
			yv := 1.0
			if rng.IntN(2) == 0 {
				yv = -1
			}
			reg.Add(x, yv)
			copy(z, x)
			z[s.D] = yv
			for i := range n1 {
				for j := i; j < n1; j++ {
					if lv.Split && i == s.D && j == s.D {
						continue // the corner is not released
					}
					exact[simd.PackedIndex(n1, i, j)] += float64(z[i] * z[j])
				}
			}
		}
		ctr.SumTo(rel)
		for k := range rel {
			y[t*p+k] = rel[k] - exact[k]
		}
	}
	// Whiten: B w = y per entry (B lower triangular Toeplitz, b_0 = 1).
	w := make([]float64, n)
	for i := range n1 {
		for j := i; j < n1; j++ {
			k := simd.PackedIndex(n1, i, j)
			sd, cls := lc.Sigma, 1
			if j == s.D {
				sd, cls = lc.SigmaU, 0
			}
			if i == j {
				sd *= math.Sqrt2
			}
			for t := range n {
				v := y[t*p+k]
				for l := 1; l <= t; l++ {
					v -= float64(b[l] * w[t-l])
				}
				w[t] = v / b[0]
				sums.ss[cls] += float64(w[t]*w[t]) / float64(sd*sd)
			}
			sums.n[cls] += n
		}
	}
	return nil
}
