package check

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// SS18Config sizes the SS18 proof-check suite ([SS18]).
type SS18Config struct {
	// Seed seeds every check. Defaults to 0 (a valid seed).
	Seed uint64
	// Short shrinks every default below to a run of about a second.
	Short bool
	// D is the dimension. Defaults to 5 (SS18 Appendix D, Fig. 4).
	D int
	// N is the horizon of the tree checks. Defaults to 1024 (short: 128).
	N int
	// Reps is the number of runs of each tree. Defaults to 100 (short: 20).
	Reps int
	// Trials is the number of draws of each Monte-Carlo check. Defaults to
	// 20000 (short: 2000).
	Trials int
	// RunOptions: workers, progress bar and plan; the plan keeps the tree
	// checks' runs in a job store and selects a shard ([SS18Trees]).
	harness.RunOptions
	// PolicyN is the horizon of the Proposition 4 (confidence-set) checks,
	// which run Algorithm 1 itself. Defaults to 2000 (short: 300).
	PolicyN int `json:"policy_n,omitempty"`
}

// WithDefaults returns c with every unset field at its default.
func (c SS18Config) WithDefaults() SS18Config {
	def := func(v *int, long, short int) {
		if *v == 0 {
			*v = long
			if c.Short {
				*v = short
			}
		}
	}
	def(&c.D, 5, 5)
	def(&c.N, 1024, 128)
	def(&c.Reps, 100, 20)
	def(&c.Trials, 20000, 2000)
	return c
}

// SS18CheckSetting is the setting of the tree checks: d and n from the
// config, ε = 1, δ = 0.1, L̃² = 2 (‖x‖ ≤ 1, |y| ≤ 1) and α = 1/n, as in SS18
// Appendix D.
func (c SS18Config) SS18CheckSetting() ss18.Setting {
	c = c.WithDefaults()
	return ss18.Setting{D: c.D, N: c.N, Epsilon: 1, Delta: 0.1, Lt2: 2}
}

// SS18PaperSetting is the setting of SS18 Appendix D.2 (Figure 4): d = 5,
// n = 5·10⁷, ε = 1, δ = 0.1, L̃² = 2, α = 1/n.
var SS18PaperSetting = ss18.Setting{D: 5, N: 50_000_000, Epsilon: 1, Delta: 0.1, Lt2: 2}

// SS18 runs the proof checks of SS18, in this order: [SS18Facts]
// (Claims 17–20, Υ, Lemma 22), [TreeRegularizers] (Propositions 9 and
// 11 per round, plain and padded trees, at [SS18Config.SS18CheckSetting]),
// [CounterRegularizers] (Proposition 11 for the Gaussian regularizer
// on every counter, exactly calibrated), [SS18Privacy] (calibration at
// [SS18PaperSetting]) and [CalibratedPrivacy] (the exactly calibrated
// variants there), then the checks that run Algorithm 1 (Proposition 4 for
// the paper's and the calibrated variants, Theorems 5 and 6, Claim 13). The run
// is deterministic given the config.
func SS18(cfg SS18Config) (Verdicts, error) {
	vs, err := SS18Facts(cfg)
	if err != nil {
		return nil, err
	}
	sv, err := SS18Samplers(cfg)
	if err != nil {
		return nil, err
	}
	vs = append(vs, sv...)
	tv, err := SS18Scaled(cfg)
	if err != nil {
		return nil, err
	}
	vs = append(vs, tv...)
	pv, err := SS18Privacy(cfg)
	if err != nil {
		return nil, err
	}
	vs = append(vs, pv...)
	qv, err := CalibratedPrivacy(SS18PaperSetting)
	if err != nil {
		return nil, err
	}
	vs = append(vs, qv...)
	// The noise levers' calibration (issue 55) at the check setting.
	kv, err := LeverCalibrationRows(cfg.WithDefaults().SS18CheckSetting())
	if err != nil {
		return nil, err
	}
	vs = append(vs, kv...)
	lv, err := checkSS18Policies(cfg.WithDefaults())
	if err != nil {
		return nil, err
	}
	return append(vs, lv...), nil
}

// SS18Trees runs the tree checks of [SS18] alone
// ([TreeRegularizers] at [SS18Config.SS18CheckSetting], under
// cfg.Plan): the part that grows with n and that a cluster runs in shards.
func SS18Trees(cfg SS18Config) (Verdicts, error) {
	c := cfg.WithDefaults()
	vs, _, err := TreeRegularizers(TreeConfig{Setting: c.SS18CheckSetting(), Reps: c.Reps, Seed: c.Seed, RunOptions: harness.RunOptions{Workers: c.Workers, Plan: c.Plan}})
	return vs, err
}

// policyScale returns the default horizon and runs of the checks that run
// Algorithm 1 (2000 rounds × 40 runs; short 300 × 8).
func policyScale(c SS18Config) (n, reps int) {
	if c.Short {
		return 300, 8
	}
	return 2000, 40
}

// prop4Reps returns the runs of each coverage verdict of [SS18Prop4]: 64
// (short) or 80, where a radius whose runs fail with probability 0.4 is
// rejected with probability 0.999 (see [Prop4]). The RadiusMinEig verdicts
// keep policyScale's runs.
func prop4Reps(c SS18Config) int {
	if c.Short {
		return 64
	}
	return 80
}

// SS18Prop4 runs the Proposition 4 checks of [SS18] (α = 0.05, a
// larger α than the paper's 1/n so that a failure rate above α is visible
// in prop4Reps runs): every paper variant on the padded tree, the shifted
// Wishart on the plain tree, and the exactly calibrated variants, at horizon
// cfg.PolicyN (default 2000, short 300), under cfg.Plan (each run of each
// variant is a job), so the confidence-set checks run at the paper's n in
// shards like the tree checks.
func SS18Prop4(cfg SS18Config) (Verdicts, error) {
	c := cfg.WithDefaults()
	n, reps := policyScale(c)
	if c.PolicyN > 0 {
		n = c.PolicyN
	}
	base := LinUCBConfig{D: c.D, K: c.D * c.D, N: n, Reps: prop4Reps(c), Alpha: 0.05, Seed: c.Seed, RunOptions: harness.RunOptions{Workers: c.Workers, Plan: c.Plan}}
	vs, err := Prop4(base)
	if err != nil {
		return nil, err
	}
	plain := counter.Plain
	pc := base
	pc.Mode, pc.Algs = &plain, []ss18.Alg{ss18.Wishart}
	pv, err := Prop4(pc)
	if err != nil {
		return nil, err
	}
	for i := range pv {
		pv[i].Name += "-plain"
	}
	vs = append(vs, pv...)
	// The exactly calibrated variants (ss18.GaussianExact and beyond; padded tree for the
	// tree-based ones), Proposition 4 with their derived bounds.
	nc := base
	nc.Algs = append(append(append([]ss18.Alg(nil), counterVariants...), ss18.WishartTight), sharpVariants...)
	nv, err := Prop4(nc)
	if err != nil {
		return nil, err
	}
	vs = append(vs, nv...)
	// The RadiusMinEig form of β_t (ss18.RadiusMinEig): coverage and its two
	// tightened terms with their negative control, at d = 3, K = 9 and a
	// horizon where the terms bind (λ_min(V_t) above ρ_max or past g₀²/γ²).
	mc := base
	mc.D, mc.K, mc.MinEig, mc.Reps = 3, 9, true, reps
	mc.N = max(n, 5000)
	if c.Short {
		mc.N = max(n, 2000)
	}
	mc.Algs = []ss18.Alg{ss18.NonPrivate, ss18.Gaussian, ss18.GaussianExact, ss18.GaussianBLT, ss18.GaussianBLTRound, ss18.WishartTight}
	mv, err := Prop4(mc)
	if err != nil {
		return nil, err
	}
	for _, v := range mv {
		if strings.Contains(v.Name, "-mineig") {
			vs = append(vs, v)
		}
	}
	lv, err := leverPolicyRows(c, base)
	if err != nil {
		return nil, err
	}
	return append(vs, lv...), nil
}

// leverPolicyRows runs [LeverProp4] for the lever variants at d = 3, K = 9
// (the RadiusMinEig rows' configuration), n = 2000 (5000 by default),
// 64 runs (80), α = 0.05, at gaps 0.1 and 0 (rows named …-gap0; the bias and
// g_t rows, the same at both gaps, at 0.1 only), and GaussianLeversNorms at
// gap 0.1 on the secure sampler (rows named prop4-GaussianLeversNorms-secure-…).
func leverPolicyRows(c SS18Config, base LinUCBConfig) (Verdicts, error) {
	lc := base
	lc.D, lc.K, lc.Algs, lc.N = 3, 9, ss18.LeverAlgs, 5000
	if c.Short {
		lc.N = 2000
	}
	var vs Verdicts
	for _, zero := range []bool{false, true} {
		g := lc
		g.ZeroGap = zero
		v, err := LeverProp4(g)
		if err != nil {
			return nil, err
		}
		for _, r := range v {
			if zero {
				// The bias and g_t rows do not depend on the data's gap
				// (the same noise, the same worst round, t = 1): kept once.
				if strings.HasSuffix(r.Name, "-bias") || strings.HasSuffix(r.Name, "-noise-gt") || strings.HasSuffix(r.Name, "-bounds-def") {
					continue
				}
				r.Name += "-gap0"
			}
			vs = append(vs, r)
		}
	}
	// The combined variant on secure noise: the radius and bounds of the
	// continuous mechanism, the exact discrete Gaussian noise (whose entries
	// are subgaussian, not Gaussian: the bounds' proof does not cover it).
	sec := lc
	sec.Algs, sec.SecureNoise = []ss18.Alg{ss18.GaussianLeversNorms}, true
	v, err := LeverProp4(sec)
	if err != nil {
		return nil, err
	}
	return append(vs, v...), nil
}

// SS18Scaled runs every check of [SS18] whose cost grows with n,
// all under cfg.Plan (so a shard runs its part of each into the store):
// [SS18Trees], the Wishart trees again with the tight k of optimal
// composition (WishartTight; verdicts named wishart-tight-k/…), and
// [CounterRegularizers]. The last keeps every round's ratios, so n is
// limited to TreeDenseMaxN there (an error above it; run SS18Trees at
// larger n).
func SS18Scaled(cfg SS18Config) (Verdicts, error) {
	c := cfg.WithDefaults()
	if c.N > TreeDenseMaxN {
		return nil, fmt.Errorf("check: the counter regularizer checks keep every round: n = %d is above %d (the paper's trees alone scale: SS18Trees)", c.N, TreeDenseMaxN)
	}
	vs, err := SS18Trees(c)
	if err != nil {
		return nil, err
	}
	// Proposition 9 with the tight k of optimal composition (WishartTight).
	kt, err := c.SS18CheckSetting().WishartKTight()
	if err != nil {
		return nil, err
	}
	wv, _, err := TreeRegularizers(TreeConfig{Setting: c.SS18CheckSetting(), Reps: c.Reps, Seed: c.Seed, RunOptions: harness.RunOptions{Workers: c.Workers, Plan: c.Plan}, K: kt})
	if err != nil {
		return nil, err
	}
	for _, v := range wv {
		if strings.HasPrefix(v.Name, "wishart/") {
			v.Name = "wishart-tight-k/" + strings.TrimPrefix(v.Name, "wishart/")
			vs = append(vs, v)
		}
	}
	cv, err := CounterRegularizers(TreeConfig{Setting: c.SS18CheckSetting(), Reps: c.Reps, Seed: c.Seed, RunOptions: harness.RunOptions{Workers: c.Workers, Plan: c.Plan}})
	if err != nil {
		return nil, err
	}
	return append(vs, cv...), nil
}

func (c SS18Config) validate() error {
	if c.D < 1 || c.N < 2 || c.Reps < 1 || c.Trials < 1 {
		return fmt.Errorf("check: SS18 check config d=%d, n=%d, reps=%d, trials=%d: d, reps, trials must be >= 1 and n >= 2", c.D, c.N, c.Reps, c.Trials)
	}
	return nil
}

func (c SS18Config) stream(i uint64) *rand.Rand { return bandit.Stream(c.Seed, 1<<40|i) }

// SS18Facts checks the facts of SS18 Appendix A.3 and the Υ bound at
// level α = 0.01 (Claims 17, 18, 19 with k = 10d and with the printed k of
// the check setting; Υ at per-round failure probability 0.005; Claim 20;
// Lemma 22). The sampled rows of Claims 17–19 and Υ draw at least
// factsMinTrials (cfg.Trials when larger), Short or not.
func SS18Facts(cfg SS18Config) (Verdicts, error) {
	c := cfg.WithDefaults()
	if err := c.validate(); err != nil {
		return nil, err
	}
	const alpha = 0.01
	trials := max(c.Trials, factsMinTrials)
	var vs Verdicts
	vs = append(vs, ChiSquareTails(c.stream(1), c.D, alpha, trials)...)
	vs = append(vs, GaussianSingularValues(c.stream(2), 10*c.D, c.D, alpha, trials)...)
	s := c.SS18CheckSetting()
	for i, k := range []int{10 * c.D, s.WishartK()} {
		v, err := WishartEigenvalues(c.stream(3+uint64(i)), c.D, float64(k), s.Lt2, alpha, trials)
		if err != nil {
			return nil, err
		}
		vs = append(vs, v...)
	}
	// Υ at a per-round failure probability α/(2n) = 0.005 (n = 10, α = 0.1),
	// where a bound that is too small would show.
	u, err := Upsilon(c.stream(5), ss18.Setting{D: c.D, N: 10, Epsilon: 1, Delta: 0.1, Lt2: 2, Alpha: 0.1}, trials)
	if err != nil {
		return nil, err
	}
	vs = append(vs, u...)
	vs = append(vs, Claim20(c.stream(6), c.D, c.Trials/10))
	lemmaN := 200
	if c.Short {
		lemmaN = 50
	}
	return append(vs, EllipticalPotential(c.stream(7), c.D, lemmaN, max(c.Trials/100, 10))...), nil
}

// SS18Samplers measures the samplers of the built SS18 objects at
// [SS18Config.SS18CheckSetting] against the check's own references
// ([SS18NodeSamplers], [SS18CounterReleases], the lever regularizers'
// [LeverReleases]), and dpb/noise's secure
// samplers, SS18's symmetric one among them ([SecureSamplers]). Their sizes do not shrink
// with Short: they are what lets a 3 % under-noise be caught.
func SS18Samplers(cfg SS18Config) (Verdicts, error) {
	c := cfg.WithDefaults()
	if err := c.validate(); err != nil {
		return nil, err
	}
	s := c.SS18CheckSetting()
	vs, err := SS18NodeSamplers(c.stream(9), s)
	if err != nil {
		return nil, err
	}
	cv, err := SS18CounterReleases(c.stream(10), s)
	if err != nil {
		return nil, err
	}
	vs = append(vs, cv...)
	sv, err := SecureSamplers(c.stream(21))
	if err != nil {
		return nil, err
	}
	vs = append(vs, sv...)
	gv, err := SS18GaussianShift(c.stream(22), s)
	if err != nil {
		return nil, err
	}
	vs = append(vs, gv...)
	lv, err := LeverReleases(c.stream(23), s)
	if err != nil {
		return nil, err
	}
	vs = append(vs, lv...)
	ls, err := LeverSecureSensitivity(s)
	if err != nil {
		return nil, err
	}
	return append(vs, ls...), nil
}

// SS18Privacy checks the privacy calibration at [SS18PaperSetting]
// (see [PrivacyCalibration]).
func SS18Privacy(cfg SS18Config) (Verdicts, error) {
	c := cfg.WithDefaults()
	if err := c.validate(); err != nil {
		return nil, err
	}
	vs, _, _, err := PrivacyCalibration(c.stream(8), SS18PaperSetting, max(c.Trials/10, 10))
	return vs, err
}

// checkRegretStep runs [RegretStep] for Theorems 5 and 6's variants. The
// ridge (NonPrivate) at the suite's d, n = 2000 and 16 runs (the step can
// fail once 2β_t‖x_t‖_{V_t⁻¹} falls below the largest regret, which the
// ridge reaches by then; short and default alike). The private variants'
// bound stays above every action's regret at ε = 1 at any n a check can
// run (at d = 5 the smallest 2β_t‖x‖_{V_t⁻¹} is 2.0–3.0 at n = 2000 and
// 2.0–3.0 still at n = 3·10⁴: the tree's noise grows with n as fast as
// ‖x‖_{V_t⁻¹} shrinks), so they run where it binds: ε = 10³ (the step holds
// at any ε; the Wishart's k is then d + 2, its least), d = 2 (K = 4), n =
// 2·10⁴ and 4 runs (the step is exact on the event: one failing round
// rejects, so few runs suffice; the control needs one failing run). The
// Gaussian variant runs again at the suite's d and ε = 10³, n = 2000.
func checkRegretStep(c SS18Config) (Verdicts, error) {
	base := LinUCBConfig{D: c.D, K: c.D * c.D, N: 2000, Reps: 16, Seed: c.Seed, RunOptions: harness.RunOptions{Workers: c.Workers}}
	np := base
	np.Algs = []ss18.Alg{ss18.NonPrivate}
	vs, err := RegretStep(np)
	if err != nil {
		return nil, err
	}
	priv := LinUCBConfig{D: stepPrivateD, K: stepPrivateD * stepPrivateD, N: stepPrivateN, Reps: 4, Epsilon: stepPrivateEpsilon, Seed: c.Seed,
		Algs: []ss18.Alg{ss18.Gaussian, ss18.Wishart, ss18.WishartUnshifted}, RunOptions: harness.RunOptions{Workers: c.Workers}}
	pv, err := RegretStep(priv)
	if err != nil {
		return nil, err
	}
	vs = append(vs, pv...)
	hi := base
	hi.Epsilon, hi.Algs = 1000, []ss18.Alg{ss18.Gaussian}
	hv, err := RegretStep(hi)
	if err != nil {
		return nil, err
	}
	for i := range hv {
		hv[i].Name += "-eps1000"
	}
	return append(vs, hv...), nil
}

// The configuration of the private variants' per-round step rows (see
// checkRegretStep): there the smallest 2β_t‖x‖_{V_t⁻¹} of an action is
// 0.32, 0.81 and 0.94 (Gaussian, unshifted and shifted Wishart, seed 1), below the largest
// regret 1.5, and the control is caught.
const (
	stepPrivateD       = 2
	stepPrivateN       = 20000
	stepPrivateEpsilon = 1000.0
)

// checkSS18Policies runs the checks that need Algorithm 1 itself, on the
// Appendix D environment with K = d² and gap 0.1: Proposition 4 (α = 0.05,
// a larger α than the paper's 1/n so that a failure rate above α would be
// visible in 40 runs) for every variant with the padded tree and for the
// shifted Wishart with the plain tree, Theorems 5 and 6, and Claim 13.
func checkSS18Policies(c SS18Config) (Verdicts, error) {
	vs, err := SS18Prop4(c)
	if err != nil {
		return nil, err
	}
	n, reps := policyScale(c)
	rv, err := RegretBounds(LinUCBConfig{D: c.D, K: c.D * c.D, N: n, Reps: reps / 2, Seed: c.Seed, RunOptions: harness.RunOptions{Workers: c.Workers}})
	if err != nil {
		return nil, err
	}
	vs = append(vs, rv...)
	sv, err := checkRegretStep(c)
	if err != nil {
		return nil, err
	}
	vs = append(vs, sv...)
	cv, err := Claim13(Claim13Config{N: 20000, Reps: max(reps/2, 4), Seed: c.Seed, RunOptions: harness.RunOptions{Workers: c.Workers}})
	if err != nil {
		return nil, err
	}
	vs = append(vs, cv...)
	// Claim 14 at ε = Claim14Epsilon, 40 runs (a run takes a few ms; the
	// binomial test at α = ½ needs 17 runs to be able to fail at all, and
	// rejects at 34 of 40).
	lv, err := Claim14(Claim14Config{Arms: 5, N: 20000, Reps: 40, Seed: c.Seed, RunOptions: harness.RunOptions{Workers: c.Workers}})
	if err != nil {
		return nil, err
	}
	return append(vs, lv...), nil
}
