package check

import (
	"fmt"
	"math"
	"runtime"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// LinUCBConfig configures the proof checks that run SS18 Algorithm 1:
// [Prop4] and [RegretBounds].
type LinUCBConfig struct {
	// D, K and N are the dimension, actions per round and horizon of the
	// Appendix D environment. Required.
	D, K, N int
	// Gap is the environment's Δ. Defaults to 0.1 (see ZeroGap).
	Gap float64
	// ZeroGap runs the environment at Δ = 0 (Gap's zero value means 0.1).
	ZeroGap bool
	// Reps is the number of independent runs per variant. Required.
	Reps int
	// Alpha is the α of the statements checked (and of the radii). Defaults
	// to 1/N, the paper's choice; a larger α (e.g. 0.1) makes the coverage
	// check able to see a failure rate above α with few runs.
	Alpha float64
	// Epsilon and Delta of the private variants. Default to 1 and 0.1.
	Epsilon, Delta float64
	// Mode of the private trees. Defaults to Padded (the propositions' setting).
	Mode *counter.ReleaseMode
	// Algs to check. Defaults to Algs.
	Algs []ss18.Alg
	// Seed of the runs.
	Seed uint64
	// RunOptions: workers, progress bar and plan (see harness.RunOptions).
	harness.RunOptions
	// MinEig adds the verdicts of the RadiusMinEig form of β_t (see
	// [Prop4]); the other verdicts are unchanged by it.
	MinEig bool
	// SecureNoise runs the lever variants of [LeverProp4] on the secure
	// sampler fed the runs' seeded streams (the package's [SecureNoise]
	// mode), their rows named …-secure; the other checks ignore it.
	SecureNoise bool
}

func (c *LinUCBConfig) defaults() error {
	if c.D < 1 || c.K < 1 || c.N < 2 || c.Reps < 1 {
		return fmt.Errorf("check: check needs d, K, reps >= 1 and n >= 2; got d=%d K=%d n=%d reps=%d", c.D, c.K, c.N, c.Reps)
	}
	if c.ZeroGap && c.Gap != 0 {
		return fmt.Errorf("check: ZeroGap with Gap %v: set one", c.Gap)
	}
	if c.Gap == 0 && !c.ZeroGap {
		c.Gap = 0.1
	}
	if c.Alpha == 0 {
		c.Alpha = 1 / float64(c.N)
	}
	if c.Epsilon == 0 {
		c.Epsilon = 1
	}
	if c.Delta == 0 {
		c.Delta = 0.1
	}
	if c.Mode == nil {
		m := counter.Padded
		c.Mode = &m
	}
	if c.Algs == nil {
		c.Algs = ss18.Algs
	}
	if c.Workers == 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	return param.CheckProb("alpha", c.Alpha)
}

func (c *LinUCBConfig) policy(alg ss18.Alg, rep, series int) (*dpenv.LinearEnv, *ss18.LinUCB, error) {
	return c.policyForm(alg, rep, series, ss18.RadiusLogDet)
}

// policyForm is policy with the radius form the policy plays.
func (c *LinUCBConfig) policyForm(alg ss18.Alg, rep, series int, form ss18.RadiusForm) (*dpenv.LinearEnv, *ss18.LinUCB, error) {
	env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: c.D, K: c.K, Gap: c.Gap}, bandit.Stream(c.Seed, bandit.StreamID(rep, 0)))
	if err != nil {
		return nil, nil, err
	}
	pol, err := ss18.NewPolicy(ss18.PolicyConfig{
		Alg:     alg,
		Setting: ss18.Setting{D: c.D, N: c.N, Epsilon: c.Epsilon, Delta: c.Delta, Lt2: 2, Alpha: c.Alpha},
		Mode:    *c.Mode,
		Noise:   noise.Simulated,
		Radius:  form,
	}, bandit.Stream(c.Seed, bandit.StreamID(rep, 1+series)))
	return env, pol, err
}

// prop4RadiusControl is the negative control of the coverage verdicts: the
// radius the policy plays, read from it (LinUCB.Radius), scaled by this
// factor. A radius ×0.7 is not a violation of Proposition 4 for most
// variants at the check's setting (d = 5, K = 25, n = 300, α = 0.05): the
// largest ‖θ* − θ̃_t‖_{V_t}/β_t over 64 runs is 0.60–0.71 for every variant
// but Gaussian (0.77) and WishartUnshifted (0.99), because Props. 9 and 11
// bound ρ_max and γ 1.4–2 times above what the noise reaches and β_t adds
// them; the ridge's β_t is about twice ‖θ* − θ̃_t‖_{V_t} (the union over t
// of the self-normalised bound). So no test of the statement can catch ×0.7
// there (measured: 0–3 of 64 runs above 0.7), while ×0.5 makes every
// variant fail the statement in 23–64 of 64 runs: the smallest round factor
// that matters for every variant.
const prop4RadiusControl = 0.5

// Prop4 checks SS18 Proposition 4: with probability ≥ 1 − α,
// ‖θ* − θ̃_t‖_{V_t} ≤ β_t for all t ≤ n simultaneously, for each variant and
// both forms of the radius (β_t with ln det V_t, and its closed-form bound
// β̄_t). The radius is the one the policy plays, read from it
// (LinUCB.Radius), not recomputed: the ln det rows run the policy with
// RadiusLogDet, the closed-form rows a second policy on the same seeds with
// RadiusClosedForm, so that a wrong β in the policy reaches the verdict.
// Each run is one trial; it fails if the inequality fails at any round. The
// slack is the median over runs of max_t ‖θ* − θ̃_t‖_{V_t}/β_t. The
// control is the policy's radius ×prop4RadiusControl, through the same
// rule (the distance of the same runs over the scaled radius: the
// self-normalised bound behind the statement holds for any sequence of
// actions, so a policy playing the smaller radius is covered by it as often).
//
// Power: a trial fails with probability ≤ α = 0.05 for a true statement; at
// 64 runs the verdict rejects from 14 failures (P[Bin(64, 0.05) ≥ 14] ≤
// 10⁻⁵), so a radius whose runs fail with probability 0.3 is rejected with
// probability 0.94, 0.4 with 0.999.
//
// With MinEig set the closed form is not run (its verdicts are the base
// variants', checked without MinEig) and the RadiusMinEig verdicts are added.
func Prop4(cfg LinUCBConfig) (Verdicts, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	key := struct {
		D, K, N        int
		Gap, Alpha     float64
		Epsilon, Delta float64
		Mode           counter.ReleaseMode
		Algs           []ss18.Alg
		Seed           uint64
		ClosedPolicy   bool // the closed form read from a policy playing it (not recomputed)
	}{cfg.D, cfg.K, cfg.N, cfg.Gap, cfg.Alpha, cfg.Epsilon, cfg.Delta, *cfg.Mode, cfg.Algs, cfg.Seed, true}
	points, label := 3, "ss18-check-prop4"
	if cfg.MinEig {
		points, label = 11, "ss18-check-prop4-mineig"
	}
	out, err := harness.RunTrials(harness.TrialConfig{Reps: cfg.Reps, Series: len(cfg.Algs), Points: points, RunOptions: harness.RunOptions{Workers: cfg.Workers, Plan: cfg.Plan},
		Label: label, Key: key, Rounds: cfg.N},
		func(job harness.Job, out []float64) error {
			env, pol, err := cfg.policy(cfg.Algs[job.Series], job.Rep, job.Series)
			if err != nil {
				return err
			}
			theta := env.Theta()
			cp := pol.Confidence()
			r := bandit.NewRound(env)
			var worst, worstBar, worstEig, worstCtl float64
			var worstBias, worstNoise, ctlBias, ctlNoise float64
			var bindBias, bindNoise int
			d := cfg.D
			hm, hv, w := make([]float64, d*d), make([]float64, d), make([]float64, d)
			for t := 1; t <= cfg.N; t++ {
				env.Next(r, t)
				dist := pol.ConfidenceDistance(theta)
				worst = math.Max(worst, dist/pol.Radius())
				if cfg.MinEig {
					lam := pol.MinEigLower()
					worstEig = math.Max(worstEig, dist/pol.MinEigRadius(lam))
					// The control: λ_t overstated controlFactor times.
					worstCtl = math.Max(worstCtl, dist/pol.MinEigRadius(controlFactor*lam))
					// Term by term: ‖H_t θ*‖_{V_t⁻¹} and ‖h_t‖_{V_t⁻¹} against
					// their RadiusMinEig bounds, and against the control's.
					pol.Regularizer().PerturbationTo(hm, hv)
					for i := range w {
						w[i] = 0
						for j := range theta {
							w[i] += float64(hm[i*d+j] * theta[j])
						}
					}
					// Only the rounds where a tightened term binds (is below
					// SS18's: S√ρ_max, γ) test it; elsewhere the term is SS18's
					// own, which the ln det verdict checks. A run where it never
					// binds leaves the ratio at 0 (no evidence either way).
					bias, nz := pol.InvNorm(w), pol.InvNorm(hv)
					b := pol.Bounds()
					bb, nb := pol.MinEigBounds(lam)
					cb, cn := pol.MinEigBounds(controlFactor * lam)
					const tol = 1 + 1e-12 // the bounds are tight at equality (ridge, t = 1): rounding is not a failure
					if bb < float64(cp.S*math.Sqrt(b.RhoMax)) {
						worstBias, ctlBias = math.Max(worstBias, bias/(tol*bb)), math.Max(ctlBias, bias/(tol*cb))
						bindBias++
					}
					if nb < b.Gamma {
						worstNoise, ctlNoise = math.Max(worstNoise, nz/(tol*nb)), math.Max(ctlNoise, nz/(tol*cn))
						bindNoise++
					}
				}
				a := pol.Choose(r)
				pol.Update(r, a, env.Reward(r, a))
			}
			out[0], out[2] = worst, float64(pol.NotPD())
			if cfg.MinEig {
				out[3], out[4] = worstEig, worstCtl
				out[5], out[6], out[7], out[8] = worstBias, worstNoise, ctlBias, ctlNoise
				out[9], out[10] = float64(bindBias), float64(bindNoise)
				return pol.Err()
			}
			if err := pol.Err(); err != nil {
				return err
			}
			// The closed form β̄_t, played by a second policy on the same
			// seeds and read from it.
			env, bar, err := cfg.policyForm(cfg.Algs[job.Series], job.Rep, job.Series, ss18.RadiusClosedForm)
			if err != nil {
				return err
			}
			r = bandit.NewRound(env)
			for t := 1; t <= cfg.N; t++ {
				env.Next(r, t)
				worstBar = math.Max(worstBar, bar.ConfidenceDistance(theta)/bar.Radius())
				a := bar.Choose(r)
				bar.Update(r, a, env.Reward(r, a))
			}
			out[1] = worstBar
			return bar.Err()
		})
	if err != nil {
		return nil, err
	}
	var vs Verdicts
	for s, alg := range cfg.Algs {
		logdet := make([]float64, cfg.Reps)
		closed := make([]float64, cfg.Reps)
		minEig := make([]float64, cfg.Reps)
		control := make([]float64, cfg.Reps)
		var terms [4][]float64
		for k := range terms {
			terms[k] = make([]float64, cfg.Reps)
		}
		notPD := 0.0
		var bindRuns [2]int
		for rep, o := range out[s] {
			logdet[rep], closed[rep] = o[0], o[1]
			notPD += o[2]
			if !cfg.MinEig {
				continue
			}
			minEig[rep], control[rep] = o[3], o[4]
			for k := range terms {
				terms[k][rep] = o[5+k]
			}
			for k := range bindRuns {
				if o[9+k] > 0 {
					bindRuns[k]++
				}
			}
		}
		note := fmt.Sprintf("d=%d K=%d n=%d, %v tree", cfg.D, cfg.K, cfg.N, *cfg.Mode)
		if notPD > 0 {
			note += fmt.Sprintf("; V_t not positive definite in %.0f rounds", notPD)
		}
		claim := "‖θ* − θ̃_t‖_{V_t} ≤ %s for all t ≤ n, w.p. ≥ 1 − α"
		note += fmt.Sprintf("; the radius the policy plays (LinUCB.Radius); %d runs, rejects from %d failing", cfg.Reps, rejectCount(cfg.Reps, cfg.Alpha))
		v1 := ratioVerdict("prop4-"+alg.String()+"-logdet", fmt.Sprintf(claim, "β_t (ln det V_t form)"), "SS18 Proposition 4", cfg.Alpha, logdet, note)
		v1 = scaleControl(v1, logdet, 1/prop4RadiusControl, fmt.Sprintf("the policy's radius β_t ×%g", prop4RadiusControl))
		base := []*Verdict{&v1}
		var v2 Verdict
		if !cfg.MinEig {
			v2 = ratioVerdict("prop4-"+alg.String()+"-closed", fmt.Sprintf(claim, "β̄_t (closed form)"), "SS18 Proposition 4", cfg.Alpha, closed, note)
			v2 = scaleControl(v2, closed, 1/prop4RadiusControl, fmt.Sprintf("the policy's radius β̄_t ×%g", prop4RadiusControl))
			base = append(base, &v2)
		}
		if alg == ss18.Wishart && *cfg.Mode == counter.Plain {
			// Proposition 9's shifted bounds assume every release sums m
			// node noises; the plain tree's early rounds carry one node, so
			// H_t − cI is far from positive definite there (see the
			// regularizer checks). Outside the paper's hypothesis: documented.
			for _, v := range base {
				v.Erratum = !v.Pass && !v.Vacuous
				v.Note += "; plain tree: outside Prop. 9's hypothesis (m nodes per release), use Padded"
			}
		}
		for _, v := range base {
			vs = append(vs, *v)
		}
		if !cfg.MinEig {
			continue
		}
		// RadiusMinEig: coverage, and its two tightened terms, each checked
		// in the rounds where it binds (is below SS18's term) with the
		// control λ_t overstated controlFactor times. The coverage's worst
		// ratio comes from early rounds, where the terms are SS18's own, so
		// its control is reported but cannot show there; a term that never
		// binds in this configuration gets no verdict (the note says so).
		ctl := fmt.Sprintf("λ_t overstated %g×: each tightened term cut %g×", controlFactor, math.Sqrt(controlFactor))
		ref := "SS18 Proposition 4, tightened by λ_min of the released V_t (ss18.RadiusMinEig)"
		v3 := ratioVerdict("prop4-"+alg.String()+"-mineig", fmt.Sprintf(claim, "β_t with λ_min(V_t) (RadiusMinEig)"), ref, cfg.Alpha, minEig, note)
		v3 = withControl(v3, ratioVerdict("control", "", "", cfg.Alpha, control, ""), ctl)
		v3.Detects = detectsRatios(minEig, cfg.Alpha)
		termVs := []struct {
			name, claim string
			ratio, ctl  []float64
			runs        int
		}{
			{"bias", "‖H_t θ*‖_{V_t⁻¹} ≤ S ρ_max/√λ_t in every round where it is below S√ρ_max, t ≤ n, w.p. ≥ 1 − α", terms[0], terms[2], bindRuns[0]},
			{"noise", "‖h_t‖_{V_t⁻¹} ≤ g₀/√λ_t in every round where it is below γ, t ≤ n, w.p. ≥ 1 − α", terms[1], terms[3], bindRuns[1]},
		}
		pv := []*Verdict{&v3}
		if alg == ss18.NonPrivate {
			// The ridge's coverage is SS18's (γ = 0, ρ_min = ρ_max): its
			// slack leaves no room for the control; its bias term is checked.
			pv = nil
		}
		for _, tm := range termVs {
			if alg == ss18.NonPrivate && tm.name == "noise" {
				continue // h_t = 0 without noise
			}
			if tm.runs == 0 {
				v3.Note += "; the " + tm.name + " term never binds here"
				continue
			}
			v := ratioVerdict("prop4-"+alg.String()+"-mineig-"+tm.name, tm.claim, ref, cfg.Alpha, tm.ratio, note)
			v.Note += fmt.Sprintf("; binds in %d of %d runs", tm.runs, cfg.Reps)
			v = withControl(v, ratioVerdict("control", "", "", cfg.Alpha, tm.ctl, ""), ctl)
			v.Detects = detectsRatios(tm.ratio, cfg.Alpha)
			pv = append(pv, &v)
		}
		if alg == ss18.Wishart && *cfg.Mode == counter.Plain {
			for _, v := range pv {
				v.Erratum = !v.Pass && !v.Vacuous
				v.Note += "; plain tree: outside Prop. 9's hypothesis (m nodes per release), use Padded"
			}
		}
		for _, v := range pv {
			vs = append(vs, *v)
		}
	}
	return vs, nil
}

// RegretBounds checks SS18 Theorems 5 and 6: with probability ≥ 1 − α
// the pseudo-regret after n rounds is at most
//
//	Theorem 5:  B · β̄_n · sqrt(8 d n ln(1 + n L²/(d ρ_min)))
//	Theorem 6:  (8B/Δ) · β̄_n² · d · ln(1 + n L²/(d ρ_min))      (gap Δ > 0)
//
// with B = 1 (the theorems need |⟨θ*, x⟩| ≤ B and B ≥ 1; Appendix D's means
// lie in [−0.75, 0.75]). Each run is a trial; the slack is the median of
// regret/bound. At every n a check can run the bounds lie above the regret
// of a learner frozen to one arm (Theorem 5 is 4–8 times it at n = 300), so
// no learner defect can fail them: the rows are KindLoose, their note
// giving the bound over that trivial regret; the proofs' per-round step,
// which can fail, is checked beside them ([RegretStep]).
func RegretBounds(cfg LinUCBConfig) (Verdicts, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	out, err := harness.RunTrials(harness.TrialConfig{Reps: cfg.Reps, Series: len(cfg.Algs), Points: 4, RunOptions: harness.RunOptions{Workers: cfg.Workers}},
		func(job harness.Job, out []float64) error {
			env, pol, err := cfg.policy(cfg.Algs[job.Series], job.Rep, job.Series)
			if err != nil {
				return err
			}
			rec := []float64{0}
			bandit.RegretCurve(env, pol, cfg.N, []int{cfg.N}, rec)
			cp := pol.Confidence()
			const B = 1
			out[0] = rec[0]
			out[1] = ss18.Theorem5Bound(cp, pol.Bounds(), cfg.N, B)
			out[2] = ss18.Theorem6Bound(cp, pol.Bounds(), cfg.N, B, cfg.Gap)
			// The control: a learner frozen to arm 0 on the same contexts
			// (the environment's draws do not depend on the actions).
			fenv, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: cfg.D, K: cfg.K, Gap: cfg.Gap}, bandit.Stream(cfg.Seed, bandit.StreamID(job.Rep, 0)))
			if err != nil {
				return err
			}
			bandit.RegretCurve(fenv, frozenArm(0), cfg.N, []int{cfg.N}, out[3:4])
			return pol.Err()
		})
	if err != nil {
		return nil, err
	}
	var vs Verdicts
	for s, alg := range cfg.Algs {
		r5 := make([]float64, cfg.Reps)
		r6 := make([]float64, cfg.Reps)
		c5 := make([]float64, cfg.Reps)
		c6 := make([]float64, cfg.Reps)
		var b5, b6 float64
		var frozen []float64
		for rep, o := range out[s] {
			r5[rep] = upperRatio(o[0], o[1])
			r6[rep] = upperRatio(o[0], o[2])
			c5[rep] = upperRatio(o[3], o[1])
			c6[rep] = upperRatio(o[3], o[2])
			b5, b6 = o[1], o[2]
			frozen = append(frozen, o[3])
		}
		triv := median(frozen)
		note := fmt.Sprintf("d=%d K=%d n=%d Δ=%g; bound %.4g (Thm 5), %.4g (Thm 6); trivial regret (arm 0 frozen, median) %.4g: bound / trivial %.3g (Thm 5), %.3g (Thm 6)",
			cfg.D, cfg.K, cfg.N, cfg.Gap, b5, b6, triv, b5/triv, b6/triv)
		v5 := ratioVerdict("thm5-"+alg.String(), "R̂_n ≤ B β̄_n √(8dn ln(1 + nL²/(dρ_min))) w.p. ≥ 1 − α", "SS18 Theorem 5", cfg.Alpha, r5, note)
		v6 := ratioVerdict("thm6-"+alg.String(), "R̂_n ≤ (8B/Δ) β̄_n² d ln(1 + nL²/(dρ_min)) w.p. ≥ 1 − α", "SS18 Theorem 6", cfg.Alpha, r6, note)
		v5, v6 = looseOrFrozen(v5, c5, cfg.Alpha), looseOrFrozen(v6, c6, cfg.Alpha)
		v5.Detects, v6.Detects = detectsRatios(r5, cfg.Alpha), detectsRatios(r6, cfg.Alpha)
		vs = append(vs, v5, v6)
	}
	return vs, nil
}

// looseOrFrozen labels a theorem row KindLoose when its bound lies above
// the regret of a learner frozen to arm 0 (frozen[rep] = that regret over
// the bound, median below 1): no learner defect can fail it at this n. A
// bound below that regret keeps the frozen learner as its control.
func looseOrFrozen(v Verdict, frozen []float64, alpha float64) Verdict {
	if m := median(frozen); m < 1 {
		v.Kind = KindLoose
		v.Note += fmt.Sprintf("; loose by design: the bound is %.3g times the regret of a learner frozen to arm 0 (no learner defect can fail it at this n); its per-round step is checked beside it (thm5-step-*)", 1/m)
		return v
	}
	return withControl(v, ratioVerdict("control", "", "", alpha, frozen, ""), "a learner frozen to arm 0, on the same contexts")
}

// frozenArm is the negative control of the regret checks: a learner that
// plays one arm every round and learns nothing (linear regret).
type frozenArm int

func (f frozenArm) Choose(*bandit.Round) int         { return int(f) }
func (frozenArm) Update(*bandit.Round, int, float64) {}

// CoverageCurves returns, for each variant, the mean over runs of
// ‖θ* − θ̃_t‖_{V_t} / β_t at about 40 log-spaced rounds: the quantity
// Proposition 4 keeps below 1. (Same runs as Prop4 with the same seed.)
func CoverageCurves(cfg LinUCBConfig) (*harness.Curves, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	rec := harness.LogGrid(cfg.N, 40)
	out, err := harness.RunTrials(harness.TrialConfig{Reps: cfg.Reps, Series: len(cfg.Algs), Points: len(rec), RunOptions: harness.RunOptions{Workers: cfg.Workers}},
		func(job harness.Job, out []float64) error {
			env, pol, err := cfg.policy(cfg.Algs[job.Series], job.Rep, job.Series)
			if err != nil {
				return err
			}
			theta := env.Theta()
			r := bandit.NewRound(env)
			k := 0
			for t := 1; t <= cfg.N; t++ {
				env.Next(r, t)
				if k < len(rec) && rec[k] == t {
					out[k] = pol.ConfidenceDistance(theta) / pol.Radius()
					k++
				}
				a := pol.Choose(r)
				pol.Update(r, a, env.Reward(r, a))
			}
			return pol.Err()
		})
	if err != nil {
		return nil, err
	}
	return harness.Summarise(algNames(cfg.Algs), gridX(rec), out), nil
}

// RegretAgainstBounds returns, for each variant, the mean cumulative
// pseudo-regret at about 30 log-spaced rounds t beside Theorem 5's bound
// evaluated at horizon t (B = 1): series "<alg>" and "<alg> Thm 5 bound".
func RegretAgainstBounds(cfg LinUCBConfig) (*harness.Curves, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	rec := harness.LogGrid(cfg.N, 30)
	out, err := harness.RunTrials(harness.TrialConfig{Reps: cfg.Reps, Series: len(cfg.Algs), Points: 2 * len(rec), RunOptions: harness.RunOptions{Workers: cfg.Workers}},
		func(job harness.Job, out []float64) error {
			env, pol, err := cfg.policy(cfg.Algs[job.Series], job.Rep, job.Series)
			if err != nil {
				return err
			}
			bandit.RegretCurve(env, pol, cfg.N, rec, out[:len(rec)])
			cp := pol.Confidence()
			for k, t := range rec {
				out[len(rec)+k] = ss18.Theorem5Bound(cp, pol.Bounds(), t, 1)
			}
			return pol.Err()
		})
	if err != nil {
		return nil, err
	}
	// Split each series into (regret, bound).
	var names []string
	var split [][][]float64
	for s, alg := range cfg.Algs {
		reg := make([][]float64, cfg.Reps)
		bnd := make([][]float64, cfg.Reps)
		for rep, o := range out[s] {
			reg[rep], bnd[rep] = o[:len(rec)], o[len(rec):]
		}
		names = append(names, alg.String(), alg.String()+" Thm 5 bound")
		split = append(split, reg, bnd)
	}
	return harness.Summarise(names, gridX(rec), split), nil
}

func algNames(algs []ss18.Alg) []string {
	names := make([]string, len(algs))
	for i, a := range algs {
		names[i] = a.String()
	}
	return names
}

func gridX(rec []int) []float64 {
	x := make([]float64, len(rec))
	for i, t := range rec {
		x[i] = float64(t)
	}
	return x
}

// controlFactor is the RadiusMinEig verdicts' negative control: λ_t taken
// this many times too large, which cuts the two tightened terms by its
// square root (4×). At d = 3, K = 9, n = 2000, 6 runs (the notebook
// beyond_less_noise) the terms' slacks are 0.6–1.0 and the control's
// 1.5–3.9, caught in every run. Chosen when λ_t was the Frobenius bound
// alone, whose terms had about 3× slack and did not catch λ_max(V_t) in
// place of λ_t; with the certified estimate a smaller factor may be caught,
// not re-measured.
const controlFactor = 16.0
