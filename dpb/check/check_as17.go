package check

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/experiment"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"gonum.org/v1/gonum/stat/distuv"
)

// AS17CheckConfig sizes the AS17 proof-check suite ([CheckAS17]).
type AS17CheckConfig struct {
	// Seed seeds every check.
	Seed uint64
	// Short shrinks every default below to a run of a few seconds.
	Short bool
	// Trials is the number of independent trees of the noise-law check.
	// Defaults to 4000 (short: 1000).
	Trials int
	// Reps is the number of runs behind each regret mean. Defaults to 10
	// (short: 4).
	Reps int
	// Horizons of the regret checks. Defaults to {256, 1024, 4096} (short:
	// {256, 1024}).
	Horizons []int
	// Epsilons of the regret checks. Defaults to {1, 0.3}.
	Epsilons []float64
	// Dim is N (experts, arms, dimension). Defaults to 4.
	Dim int
	// Workers is passed to RunTrials. Defaults to GOMAXPROCS.
	Workers int
}

// WithDefaults returns c with every unset field at its default.
func (c AS17CheckConfig) WithDefaults() AS17CheckConfig {
	pick := func(long, short int) int {
		if c.Short {
			return short
		}
		return long
	}
	if c.Trials == 0 {
		c.Trials = pick(4000, 1000)
	}
	if c.Reps == 0 {
		c.Reps = pick(10, 4)
	}
	if c.Horizons == nil {
		c.Horizons = []int{256, 1024, 4096}
		if c.Short {
			c.Horizons = []int{256, 1024}
		}
	}
	if c.Epsilons == nil {
		c.Epsilons = []float64{1, 0.3}
	}
	if c.Dim == 0 {
		c.Dim = 4
	}
	return c
}

func (c AS17CheckConfig) stream(i uint64) *rand.Rand { return bandit.Stream(c.Seed, 3<<40|i) }

// CheckAS17 runs the proof checks of Agarwal & Singh, in this order: the
// noise law of TreeBasedAgg (Lemma 3.3), the privacy calibrations of
// Theorem 3.1 / Corollary 3.2, Lemma 4.2 (Theorem 4.1) and Theorem 4.5 as
// printed (errata) and corrected, Lemma 4.3, then the regret of every row of
// Tables 1 and 2 against its bound over T and ε: DP-FTRL experts, sphere and
// cube (Corollary 3.2 via the explicit bound of Theorem 3.4's proof), DP-FTPL
// (Theorem 3.5), private SCRiBLE on the ball and the cube (Theorem 4.5) and
// private EXP2 (Theorem 4.1's proof). The run is deterministic given the
// config.
func CheckAS17(cfg AS17CheckConfig) (Verdicts, error) {
	c := cfg.WithDefaults()
	if c.Trials < 100 || c.Reps < 2 || len(c.Horizons) == 0 || len(c.Epsilons) == 0 || c.Dim < 2 {
		return nil, fmt.Errorf("dpb: AS17 check config %+v: trials >= 100, reps >= 2, dim >= 2, a horizon and an ε needed", c)
	}
	vs, err := CheckPaddedNoiseLaw(c.stream(1), 1024, 0.05, c.Trials)
	if err != nil {
		return nil, err
	}
	vs = append(vs, CheckAS17Privacy(1<<20, 1, c.Dim)...)
	for i, bandit := range []bool{false, true} {
		r, err := experiment.Lemma43(experiment.Lemma43Config{Bandit: bandit, Arms: c.Dim, Horizon: 1000, Lambda: 1,
			Reps: max(10*c.Reps, 20), Seed: c.Seed + uint64(i), Workers: c.Workers})
		if err != nil {
			return nil, err
		}
		name, who := "as17-lemma4.3-full", "Hedge (full information)"
		if bandit {
			name, who = "as17-lemma4.3-bandit", "EXP2 (bandit)"
		}
		vs = append(vs, NewVerdict(name, "E[regret on l_t] = E[regret on l_t + Z_t] for independent zero-mean Z_t",
			"AS17 Lemma 4.3", 0, 0, boolFail(math.Abs(r.Z) <= z5two), math.Abs(r.Z)/z5two,
			fmt.Sprintf("%s, N=%d, T=1000, Z ~ Lap(1): true %.2f ± %.2f, noisy %.2f ± %.2f, paired difference %.3g ± %.2g (z = %.2f; fails beyond %.3g), %d runs",
				who, c.Dim, r.TrueRegret, r.TrueSE, r.NoisyRegret, r.NoisySE, r.Diff, r.DiffSE, r.Z, z5two, r.Reps)))
	}
	rv, err := checkAS17Regret(c)
	if err != nil {
		return nil, err
	}
	vs = append(vs, rv...)
	cv, err := checkAS17CounterRegret(c)
	if err != nil {
		return nil, err
	}
	return append(vs, cv...), nil
}

// z5two is the two-sided normal quantile of the pass threshold, P[|Z| >
// 4.417] = 1e-5.
const z5two = 4.417

// CheckPaddedNoiseLaw checks the distribution claim of AS17 Lemma 3.3: with
// TreeBasedAgg (Algorithm 2, [counter.Padded]) every release's noise Z_t is the sum
// of m independent draws of D (here Lap(1), m = [counter.TreeLevels](T), the
// nodes a leaf enters; AS17 writes ⌈log T⌉). The law of the sum is tabulated
// by Monte Carlo (2·10⁵ direct sums); each trial draws one padded tree and
// one release round t uniform in [1, T]:
//
//   - "as17-lemma3.3-upper": |Z_t| exceeds the law's (1 − α)-quantile w.p. α;
//   - "as17-lemma3.3-lower": |Z_t| falls below the law's median w.p. ½
//     (MT14's plain tree, whose releases carry popcount(t) ≤ m draws, fails
//     this one: its noise is too small at most t).
func CheckPaddedNoiseLaw(rng *rand.Rand, T int, alpha float64, trials int) (Verdicts, error) {
	return checkNoiseLaw(rng, T, alpha, trials, counter.Padded)
}

// checkNoiseLaw is CheckPaddedNoiseLaw on a tree of the given mode.
func checkNoiseLaw(rng *rand.Rand, T int, alpha float64, trials int, mode counter.ReleaseMode) (Verdicts, error) {
	m := counter.TreeLevels(T)
	const ref = 200_000
	abs := make([]float64, ref)
	for i := range abs {
		var s float64
		for range m {
			s += noise.Laplace(rng, 1)
		}
		abs[i] = math.Abs(s)
	}
	slices.Sort(abs)
	qHi, qLo := abs[int(float64(ref)*(1-alpha))], abs[ref/2]
	lap, err := noise.NewLaplaceNoise(1, 1, rng)
	if err != nil {
		return nil, err
	}
	z := make([]float64, 1)
	var hi, lo []float64
	for range trials {
		tree, err := counter.NewTreeSum(1, T, lap, mode)
		if err != nil {
			return nil, err
		}
		t := 1 + rng.IntN(T)
		for range t {
			z[0] = 0
			tree.Add(z)
		}
		tree.NoiseTo(z)
		a := math.Abs(z[0])
		hi = append(hi, upperRatio(a, qHi))
		lo = append(lo, lowerRatio(a, qLo))
	}
	note := fmt.Sprintf("T=%d, m=%d draws of Lap(1) per release; quantiles of |Z| from %d direct sums: %.3f (median), %.3f (1−α)", T, m, ref, qLo, qHi)
	return Verdicts{
		ratioVerdict("as17-lemma3.3-upper", "padded release noise Z_t ~ Σ_{i=1}^{m} Lap(λ) at every t: P[|Z_t| > q_{1−α}] = α",
			"AS17 Lemma 3.3 (Algorithm 2)", alpha, hi, note),
		ratioVerdict("as17-lemma3.3-lower", "padded release noise Z_t ~ Σ_{i=1}^{m} Lap(λ) at every t: P[|Z_t| < median] = ½",
			"AS17 Lemma 3.3 (Algorithm 2)", 0.5, lo, note),
	}, nil
}

// CheckAS17Privacy checks the Laplace calibrations exactly. Under Definition
// 2.1 neighbours replace one loss vector, so a node sum of TreeBasedAgg moves
// by up to 2‖𝒴‖₁ in ℓ1, and a loss enters m = TreeLevels(T) nodes; the
// Algorithm 4 feedback ⟨l_t + Z_t, x̃_t⟩ moves by up to 2B. Each statement is
// checked as printed (errata: the printed λ = ‖𝒴‖₁ log T/ε of Theorem 3.1 /
// Corollary 3.2 gives 2mε/ln T, the printed λ = B/ε of Lemma 4.2 (Theorems
// 4.1, 4.5) gives 2ε) beside its corrected λ ([as17.FTRLLambda], 2B/ε).
func CheckAS17Privacy(T int, eps float64, n int) Verdicts {
	m := float64(counter.TreeLevels(T))
	y1 := as17.Simplex.YNorm1(n)
	exact := func(name, claim, ref string, loss float64, erratum bool, note string) Verdict {
		v := NewVerdict(name, claim, ref, 0, 0, boolFail(loss <= eps*(1+1e-12)), loss/eps,
			fmt.Sprintf("T=%d, N=%d, ε=%g: privacy loss %.4g; %s", T, n, eps, loss, note))
		if erratum && !v.Pass {
			v.Erratum = true
		}
		return v
	}
	ftrl := 2 * y1 * m / as17.FTRLLambdaPrinted(as17.Simplex, n, T, eps)
	ftrlC := 2 * y1 * m / as17.FTRLLambda(as17.Simplex, n, T, eps)
	eLam := 1 / eps // Exp2Config's default, Lemma 4.2 with B = 1 as printed
	sLam := as17.SCRiBLELambda(as17.Ball, n, eps)
	sB := as17.Ball.YNorm1(n)
	return Verdicts{
		exact("as17-thm3.1-privacy-printed", "DP-FTRL with λ = ‖𝒴‖₁ log T/ε is ε-DP (experts: N log T/ε)",
			"AS17 Theorem 3.1, Corollary 3.2, Lemma 3.3", ftrl, true,
			"a loss enters m = 1+⌈log₂T⌉ > ln T nodes and replacing it moves a node by 2‖𝒴‖₁: loss = 2mε/ln T for every decision set"),
		exact("as17-thm3.1-privacy-corrected", "DP-FTRL with λ = 2‖𝒴‖₁ m/ε is ε-DP", "AS17 Theorem 3.1 (corrected, dpb.FTRLLambda)", ftrlC, false, "the default of dpb.FTRLConfig"),
		exact("as17-lemma4.2-privacy-printed", "private EXP2 with λ = B/ε = 1/ε is ε-DP", "AS17 Lemma 4.2, Theorem 4.1", 2/eLam, true,
			"replacing l_t moves ⟨l_t, e_i⟩ by up to 2: loss 2ε (the default of dpb.Exp2Config, kept as printed)"),
		exact("as17-lemma4.2-privacy-corrected", "private EXP2 with λ = 2/ε is ε-DP", "AS17 Lemma 4.2 (corrected)", 2/(2*eLam), false, "Exp2Config.Lambda = 2/ε"),
		exact("as17-thm4.5-privacy-printed", "private SCRiBLE with λ = ‖𝒴‖₁/ε is ε-DP (ball)", "AS17 Theorem 4.5, Lemma 4.2", 2*sB/sLam, true,
			"B = ‖𝒴‖₁; replacing l_t moves the feedback by up to 2B: loss 2ε (the default of dpb.SCRiBLEConfig)"),
		exact("as17-thm4.5-privacy-corrected", "private SCRiBLE with λ = 2‖𝒴‖₁/ε is ε-DP (ball)", "AS17 Theorem 4.5 (corrected)", 2*sB/(2*sLam), false, "SCRiBLEConfig.Lambda = 2‖𝒴‖₁/ε"),
	}
}

// as17RowVerdicts names the verdict of each row of AS17Table1Rows and
// AS17Table2Rows and the statement it checks.
var as17RowVerdicts = map[string][3]string{
	"experts":   {"as17-cor3.2-experts", "E[regret] of DP-FTRL (entropy) ≤ D_R/η + ηTG² + D_Lap", "AS17 Corollary 3.2.1 via Theorem 3.4's proof"},
	"sphere":    {"as17-cor3.2-sphere", "E[regret] of DP-FTRL (‖x‖², ball) ≤ D_R/η + ηTG² + D_Lap", "AS17 Corollary 3.2.2 via Theorem 3.4's proof"},
	"cube":      {"as17-cor3.2-cube", "E[regret] of DP-FTRL (‖x‖², cube) ≤ D_R/η + ηTG² + D_Lap", "AS17 Corollary 3.2.3 via Theorem 3.4's proof"},
	"ftpl-ball": {"as17-thm3.5-ftpl", "E[regret] of DP-FTPL ≤ N^{1/4}‖𝒳‖₂‖𝒴‖₂√T + (N‖𝒳‖₂/ε) log^{1.5}T log(log T/δ) (O(·), constant 1)", "AS17 Theorem 3.5"},
	"blo-ball":  {"as17-thm4.5-scrible-ball", "E[regret] of private SCRiBLE (ball) ≤ √(T log T)·√(N²ν(M² + N‖𝒳‖₂²‖𝒴‖₁²/ε²)) (O(·), constant 1)", "AS17 Theorem 4.5"},
	"blo-cube":  {"as17-thm4.5-scrible-cube", "E[regret] of private SCRiBLE (cube) ≤ √(T log T)·√(N²ν(M² + N‖𝒳‖₂²‖𝒴‖₁²/ε²)) (O(·), constant 1)", "AS17 Theorem 4.5"},
	"mab":       {"as17-thm4.1-exp2", "E[regret] of private EXP2 ≤ log N/η + 2ηTN(1 + λ² log² NT) + 2Tγ + 1", "AS17 Theorem 4.1 (its proof's bound)"},
}

// checkAS17Regret measures Tables 1 and 2 at the configured horizons and ε
// and checks every row's mean regret against its bound in every cell.
func checkAS17Regret(c AS17CheckConfig) (Verdicts, error) {
	var vs Verdicts
	for table := 1; table <= 2; table++ {
		res, err := experiment.AS17Table(experiment.AS17TableConfig{Table: table, Dim: c.Dim, Horizons: c.Horizons, Epsilons: c.Epsilons,
			Reps: c.Reps, Seed: c.Seed + uint64(100*table), Workers: c.Workers})
		if err != nil {
			return nil, err
		}
		for _, x := range res.T {
			var cells []meanCell
			for e, eps := range x.Epsilons {
				if math.IsInf(eps, 1) {
					continue
				}
				for h, T := range x.Horizons {
					cells = append(cells, meanCell{label: fmt.Sprintf("T=%d ε=%g", T, eps), mean: x.Regret.Mean[e][h], se: x.Regret.StdErr[e][h], bound: x.Bound[e][h]})
				}
			}
			id, ok := as17RowVerdicts[x.Row]
			if !ok {
				return nil, fmt.Errorf("dpb: no verdict for AS17 row %q", x.Row)
			}
			kind := "O(·) read with constant 1"
			if x.Explicit {
				kind = "explicit constants"
			}
			vs = append(vs, meanVerdict(id[0], id[1], id[2], cells, fmt.Sprintf("%s; N=%d, %d runs per cell", kind, c.Dim, c.Reps)))
		}
	}
	return vs, nil
}

// checkAS17CounterRegret checks, for each continual counter, the mean
// regret of DP-FTRL's (ε, δ) variant (Gaussian node noise calibrated by
// [as17.FTRLGaussianSigma], δ = 1/T) against [as17.FTRLCounterBound] in every
// cell (experts, sphere, cube × the configured T and ε), on the runs of
// [experiment.BeyondAS17]. A cell fails when its mean exceeds the bound by
// more than q standard errors, q the (1 − 10⁻⁵)-quantile of Student's t
// with reps − 1 degrees of freedom: if the runs' regrets are normal (each a
// sum of T rounds' losses) and E[regret] ≤ bound, a cell fails with
// probability ≤ 10⁻⁵ whatever the variance (the t statistic).
func checkAS17CounterRegret(c AS17CheckConfig) (Verdicts, error) {
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(c.Reps - 1)}.Quantile(1 - 1e-5)
	cells := map[string][]meanCell{}
	var kinds []string
	for e, eps := range c.Epsilons {
		res, err := experiment.BeyondAS17(experiment.BeyondAS17Config{Dim: c.Dim, Horizons: c.Horizons, Epsilon: eps, Reps: c.Reps,
			Seed: c.Seed + 300 + uint64(e), Workers: c.Workers})
		if err != nil {
			return nil, err
		}
		for _, p := range res.Panels {
			for v, va := range res.Variants {
				if !va.Gaussian {
					continue
				}
				k := va.Counter.String()
				if _, ok := cells[k]; !ok {
					kinds = append(kinds, k)
				}
				for h, T := range c.Horizons {
					m := p.Regret.Mean[v][h]
					if math.IsNaN(m) { // the square root beyond its horizon
						continue
					}
					cells[k] = append(cells[k], meanCell{label: fmt.Sprintf("%s T=%d ε=%g", p.Row, T, eps), mean: m, se: p.Regret.StdErr[v][h], bound: p.Bound[v][h]})
				}
			}
		}
	}
	var vs Verdicts
	for _, k := range kinds {
		fail := 0
		var ratios []float64
		var parts []string
		for _, cl := range cells[k] {
			if cl.mean > cl.bound+float64(q*cl.se) {
				fail++
			}
			ratios = append(ratios, upperRatio(cl.mean, cl.bound))
			parts = append(parts, fmt.Sprintf("%s: %.4g ± %.2g vs %.4g", cl.label, cl.mean, cl.se, cl.bound))
		}
		v := NewVerdict("as17-counter-bound-"+k,
			"E[regret] of DP-FTRL on the "+k+" counter, Gaussian noise at (ε, 1/T) ≤ D_R/η + ηTG² + w·min(U, cηΣ_t s_t)",
			"AS17 Theorem 3.4's proof with per-round variances (dpb.FTRLCounterBound)", 0, len(cells[k]), fail, median(ratios),
			fmt.Sprintf("N=%d, %d runs per cell; fails beyond %.3g s.e. (Student t, %d d.f., 1e-5 per cell); ", c.Dim, c.Reps, q, c.Reps-1)+strings.Join(parts, "; "))
		v.Tail = finiteOr0(quantile(ratios, 1))
		vs = append(vs, v)
	}
	return vs, nil
}
