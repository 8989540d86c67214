package check

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// Checks of SS18 Propositions 9 and 11: the regularizers that the tree-based
// mechanism produces satisfy their (α/2n)-accurate bounds in every round.
//
// The tree sums the (d+1)×(d+1) matrices [x_t; y_t][x_t; y_t]ᵀ in packed
// form; the release's noise N_t gives H_t (its top-left d×d block) and h_t
// (the first d entries of its last column). The bounds concern the noise
// alone, so the checks stream zeros and read the noise (TreeSum.NoiseTo):
// the data do not change H_t or h_t.

// TreeConfig configures [TreeRegularizers].
type TreeConfig struct {
	// Setting gives d, n, ε, δ, L̃² and α. Required (see Setting.Validate).
	Setting ss18.Setting
	// Reps is the number of independent runs of each tree. Required (>= 1).
	Reps int
	// Seed seeds the runs (streams StreamID(rep, 1+series)). Defaults to 0.
	Seed uint64
	// K is the Wishart degrees of freedom of one node. Defaults to
	// Setting.WishartK() (the printed k).
	K int
	// WishartScale is s in the Wishart node noise W_{d+1}(s·I, k). Defaults
	// to L̃² (Theorem 8, Prop. 9); SS18 §4.1 once prints W_{d+1}(L̃ I, k),
	// which this field lets a notebook check.
	WishartScale float64
	// RunOptions: workers, progress bar and plan (see harness.RunOptions).
	harness.RunOptions
	// PerRun selects the per-run test (see TreeRegularizers); it is
	// forced for n > TreeDenseMaxN.
	PerRun bool
}

// TreeDenseMaxN is the largest n at which [TreeRegularizers] keeps
// every round's ratios (n·36 values per run); above it each run keeps, per
// bound, its number of failing rounds, the first, the largest ratio and the
// ratios at TreeSampleRounds log-spaced rounds.
const TreeDenseMaxN = 1 << 16

// TreeSampleRounds is the number of rounds whose ratios the per-run test keeps.
const TreeSampleRounds = 64

// TreeRounds holds the per-round outcome of [TreeRegularizers]: for
// each bound (Names[b], e.g. "wishart/plain/shifted/ρ_min") and round t
// (index t−1), the number of runs in which it failed and the median ratio
// (value/bound for upper bounds, bound/value for lower bounds; > 1 fails).
type TreeRounds struct {
	Names    []string
	Failures [][]int
	Median   [][]float64
	Nodes    [][]int // Nodes[b][t−1]: node noises in the release (popcount(t) or m)
	Reps, N  int
	// AllowedPerRound is α/(2n), the failure probability allowed in a round.
	AllowedPerRound float64
}

// treeSeries are the four trees checked: noise kind × release mode.
var treeSeries = []struct {
	wishart bool
	mode    counter.ReleaseMode
}{{true, counter.Plain}, {true, counter.Padded}, {false, counter.Plain}, {false, counter.Padded}}

// treeBoundNames are the nine bounds checked per tree: three variants ×
// (ρ_max, ρ_min, γ). Wishart: unshifted and shifted (Prop. 9), and shifted
// with the m_t = NodesInRelease() of each round in place of m (the
// correction for the plain tree); Gaussian: printed Υ, corrected Υ_c and
// sharp Υ_s (Prop. 11 with each).
var treeBoundNames = [9]string{"ρ_max", "ρ_min", "γ", "ρ_max", "ρ_min", "γ", "ρ_max", "ρ_min", "γ"}

// TreeRegularizers checks SS18 Propositions 9 and 11 per round: with
// probability ≥ 1 − α/(2n) in each round t,
//
//	‖H_t‖ ≤ ρ_max,   λ_min(H_t) ≥ ρ_min,   ‖h_t‖_{H_t⁻¹} ≤ γ,
//
// for four trees — Wishart node noise W_{d+1}(L̃² I, k) and symmetrised
// Gaussian node noise (σ_noise of §4.2), each in [counter.Plain] and [counter.Padded]
// release mode — and three bound sets each. Wishart: unshifted (H_t = N_t
// block) and shifted by c of Eq. (4) (H′_t = H_t − cI), both from
// [Setting.WishartBounds], and the correction for the plain tree:
// shifted, with Prop. 9 evaluated at the round's node count
// m_t = NodesInRelease() in place of m (its own shift c_t; equal to the
// shifted set for the padded tree). Gaussian: H_t = N_t block + 2ΥI with the
// printed Υ ([Setting.GaussianBounds]), with Υ_c
// ([Setting.UpsilonCorrected]) and with the sharp
// Υ_s = σ√(2m)(2√d + √(2 ln(2n/α))) (see [Upsilon]), each through
// GaussianBoundsShift(Υ, 2Υ).
//
// A verdict counts failures over Reps × n (run, round) pairs; its p-value is
// the Bonferroni-corrected minimum over rounds of the per-round binomial
// tail P[Bin(Reps, α/2n) ≥ failures_t] (rounds of one run are dependent, runs
// are independent).
//
// Per-run test (cfg.PerRun, or n > TreeDenseMaxN, where the per-round
// counts would not fit in memory): by the union bound a run fails in some
// round with probability at most n·α/(2n) = α/2, so a verdict counts the
// runs with at least one failing round against Bin(Reps, α/2). One failing
// run already rejects when Reps·α/2 is small (α = 1/n at the paper's n), so
// a bound that fails in a run with probability q is caught with probability
// 1 − (1 − q)^Reps (at 10 runs: q ≥ 0.26 with probability ≥ 0.95). Slack is
// the median ratio over the runs × TreeSampleRounds log-spaced rounds and
// Tail the largest ratio; TreeRounds is nil.
//
// The plain-tree Wishart verdicts are marked as errata:
// Proposition 9 assumes every release sums exactly m node noises, which only
// the padded tree does.
func TreeRegularizers(cfg TreeConfig) (Verdicts, *TreeRounds, error) {
	s := cfg.Setting
	if err := s.Validate(); err != nil {
		return nil, nil, err
	}
	if cfg.Reps < 1 {
		return nil, nil, fmt.Errorf("check: reps is %d, must be >= 1", cfg.Reps)
	}
	k := cfg.K
	if k == 0 {
		k = s.WishartK()
	}
	if k <= s.D {
		return nil, nil, fmt.Errorf("check: wishart degrees of freedom is %d, must be > d = %d", k, s.D)
	}
	scaleW := cfg.WishartScale
	if scaleW == 0 {
		scaleW = s.Lt2
	}
	if err := param.CheckPositive("wishart scale", scaleW); err != nil {
		return nil, nil, err
	}
	d, n := s.D, s.N
	wu, ws := s.WishartBounds(k)
	ups, upsC := s.Upsilon(), s.UpsilonCorrected()
	gp := s.GaussianBounds()
	gc := s.GaussianBoundsShift(upsC, 2*upsC)
	// Per variant: the shift added to the noise block, and the bounds; a
	// per-round variant has one (shift, bounds) per node count m_t = 1..m.
	type variant struct {
		shift    float64
		b        ss18.RegBounds
		name     string
		perRound []variant
	}
	m := s.Levels()
	// Shifted Wishart bounds for a release of m_t nodes: Prop. 9 with m_t in
	// place of m and the same n/α (a setting with N′ = 2^{m_t−1}, whose
	// Levels() is m_t, and α′ = α N′/N), so the formulas stay in one place.
	perRound := make([]variant, m+1)
	for mt := 1; mt <= m; mt++ {
		st := s
		st.N = 1 << (mt - 1)
		st.Alpha = s.AlphaOrDefault() * float64(st.N) / float64(n)
		_, b := st.WishartBounds(k)
		perRound[mt] = variant{shift: -b.Shift, b: b}
	}
	// The sharp form of Υ (see Upsilon) with Prop. 11's shift 2Υ_s.
	upsS := float64(s.GaussianSigma() * math.Sqrt(2*float64(m)) *
		(2*math.Sqrt(float64(d)) + math.Sqrt(2*xmath.Log(2*float64(n)/s.AlphaOrDefault()))))
	gs := s.GaussianBoundsShift(upsS, float64(2*upsS))
	wishartVariants := [3]variant{{0, wu, "unshifted", nil}, {-ws.Shift, ws, "shifted", nil}, {name: "shifted per-round m_t", perRound: perRound}}
	gaussVariants := [3]variant{{2 * ups, gp, "printed Υ", nil}, {2 * upsC, gc, "corrected Υ_c", nil}, {2 * upsS, gs, "sharp Υ_s", nil}}

	const nb = 9
	perRun := cfg.PerRun || n > TreeDenseMaxN
	// One job is one run of one tree. Dense: out[t·nb+b] is bound b's ratio
	// in round t+1. Per run: out[b·w+·] is (failing rounds, first failing
	// round, largest ratio, the ratios at the sample rounds).
	grid := harness.LogGrid(n, TreeSampleRounds)
	w := 3 + len(grid)
	points := n * nb
	if perRun {
		points = nb * w
	}
	key := struct {
		Setting      ss18.Setting
		K            int
		WishartScale float64
		Seed         uint64
		PerRun       bool
	}{s, k, scaleW, cfg.Seed, perRun}
	out, err := harness.RunTrials(harness.TrialConfig{Reps: cfg.Reps, Series: len(treeSeries), Points: points, RunOptions: harness.RunOptions{Workers: cfg.Workers, Plan: cfg.Plan},
		Label: "ss18-check-tree", Key: key, Rounds: n},
		func(job harness.Job, out []float64) error {
			ratios := out
			if perRun {
				ratios = make([]float64, nb)
				for b := range nb {
					out[b*w], out[b*w+1], out[b*w+2] = 0, 0, 0
				}
			}
			next := 0 // the next sample round's index in grid
			ser := treeSeries[job.Series]
			rng := bandit.Stream(cfg.Seed, bandit.StreamID(job.Rep, 1+job.Series))
			var sampler noise.Noise
			var err error
			variants := gaussVariants
			if ser.wishart {
				variants = wishartVariants
				sampler, err = noise.New(noise.Config{Law: noise.WishartLaw, Mode: noise.Simulated, N: d + 1, Scale: scaleW, DF: float64(k)}, rng)
			} else {
				sampler, err = noise.New(noise.Config{Law: noise.SymGaussianLaw, Mode: noise.Simulated, N: d + 1, Sigma: s.GaussianSigma()}, rng)
			}
			if err != nil {
				return err
			}
			p := simd.PackedLen(d + 1)
			tsAny, err := counter.New(counter.Config{Kind: counter.Tree, Dim: p, Horizon: n, Noise: sampler, Mode: ser.mode})
			if err != nil {
				return err
			}
			ts := tsAny.(*counter.TreeSum)
			zero := make([]float64, p)
			nz := make([]float64, p)
			block := make([]float64, simd.PackedLen(d))
			h := make([]float64, d)
			e := newEigenSym(d)
			for t := range n {
				ts.Add(zero)
				ts.NoiseTo(nz)
				topLeftPacked(block, nz, d)
				lastColumnPacked(h, nz, d)
				r := ratios
				if !perRun {
					r = out[t*nb : (t+1)*nb]
				}
				if !e.factor(block, true, true) {
					for i := range r {
						r[i] = maxRatio
					}
				} else {
					lmin, lmax := e.vals[0], e.vals[d-1]
					for v, vr := range variants {
						if vr.perRound != nil {
							vr = vr.perRound[ts.NodesInRelease()]
						}
						r[3*v+0] = upperRatio(lmax+vr.shift, vr.b.RhoMax)
						r[3*v+1] = lowerRatio(lmin+vr.shift, vr.b.RhoMin)
						r[3*v+2] = upperRatio(math.Sqrt(e.quadInv(h, vr.shift)), vr.b.Gamma)
					}
				}
				if !perRun {
					continue
				}
				sample := next < len(grid) && grid[next] == t+1
				for b, x := range r {
					o := out[b*w : (b+1)*w]
					if x > 1 {
						if o[0] == 0 {
							o[1] = float64(t + 1)
						}
						o[0]++
					}
					o[2] = math.Max(o[2], x)
					if sample {
						o[3+next] = x
					}
				}
				if sample {
					next++
				}
			}
			return nil
		})
	if err != nil {
		return nil, nil, err
	}

	if perRun {
		var vs Verdicts
		for si, ser := range treeSeries {
			variants := gaussVariants
			if ser.wishart {
				variants = wishartVariants
			}
			for b := range nb {
				vr := variants[b/3]
				var pr []ss18.RegBounds
				for _, p := range vr.perRound {
					pr = append(pr, p.b)
				}
				vs = append(vs, perRunVerdict(cfg, out[si], s, k, w, b, ser.wishart, ser.mode, vr.name, vr.perRound == nil, vr.b, pr, scaleW))
			}
		}
		return vs, nil, nil
	}
	alpha := s.AlphaOrDefault() / (2 * float64(n))
	rounds := &TreeRounds{Reps: cfg.Reps, N: n, AllowedPerRound: alpha}
	var vs Verdicts
	for si, ser := range treeSeries {
		kind, variants, ref := "gaussian", gaussVariants, "SS18 Prop. 11 (§4.2)"
		if ser.wishart {
			kind, variants, ref = "wishart", wishartVariants, "SS18 Prop. 9 (§4.1, Eq. 4)"
		}
		for b := range nb {
			vr := variants[b/3]
			name := fmt.Sprintf("%s/%s/%s/%s", kind, ser.mode, vr.name, treeBoundNames[b])
			// Prop. 11's ρ bounds are tested on the noise part alone (see
			// noisePartRatio); the per-round medians (TreeRounds) stay the
			// ratios of H_t to its bound.
			noisePart := !ser.wishart && b%3 != 2
			var pr []ss18.RegBounds
			for _, p := range vr.perRound {
				pr = append(pr, p.b)
			}
			ctlFactor, ctlName := float64(treeControlFactor), treeControl
			if noisePart {
				ctlFactor = noiseControlFactor(vr.b.RhoMax-vr.b.Shift, s.GaussianSigma()*math.Sqrt(float64(m)), d)
				ctlName = noiseControlName(ctlFactor)
			}
			if b%3 == 2 {
				ctlFactor = treeGammaControl(vr.b, pr, ser.wishart, s, k, scaleW)
				ctlName = gammaControlName(fmt.Sprintf("%.3g", ctlFactor))
			}
			fails := make([]int, n)
			med := make([]float64, n)
			nodes := make([]int, n)
			all := make([]float64, 0, n*cfg.Reps)
			col := make([]float64, cfg.Reps)
			stat := make([]float64, cfg.Reps)
			total, badRounds, firstBad := 0, 0, 0
			minP, ctlP := 1.0, 1.0
			for t := range n {
				ctlFails := 0
				for rep := range cfg.Reps {
					x := out[si][rep][t*nb+b]
					col[rep] = x
					if noisePart {
						x = noisePartRatio(x, vr.b, b%3 == 0)
					}
					stat[rep] = x
					if x > 1 {
						fails[t]++
					}
					if x*ctlFactor > 1 {
						ctlFails++
					}
				}
				ctlP = math.Min(ctlP, BinomialTail(cfg.Reps, ctlFails, alpha))
				all = append(all, stat...)
				med[t] = median(col)
				nodes[t] = m
				if ser.mode == counter.Plain {
					nodes[t] = popcount(t + 1)
				}
				total += fails[t]
				if fails[t] > 0 {
					badRounds++
					if firstBad == 0 {
						firstBad = t + 1
					}
				}
				minP = math.Min(minP, BinomialTail(cfg.Reps, fails[t], alpha))
			}
			rounds.Names = append(rounds.Names, name)
			rounds.Failures = append(rounds.Failures, fails)
			rounds.Median = append(rounds.Median, med)
			rounds.Nodes = append(rounds.Nodes, nodes)

			claim := treeClaim(b, ser.wishart, vr.name, ser.mode, d, n, k)
			note := fmt.Sprintf("failed in %d of %d rounds", badRounds, n)
			if badRounds > 0 {
				note += fmt.Sprintf(" (first t=%d)", firstBad)
			}
			v := NewVerdict(name, claim, ref, alpha, n*cfg.Reps, total, median(all), note)
			v.Tail = finiteOr0(quantile(all, 1-alpha))
			v.PValue = math.Min(1, float64(n)*minP)
			v.Pass = v.PValue > PassPValue
			v = withControl(v, pvalueControl(math.Min(1, float64(n)*ctlP)), ctlName)
			if noisePart {
				v.Note += "; noise part: λ_max(N_t)/Υ or −λ_min(N_t)/Υ (slack and control on it)"
			}
			if ser.wishart && ser.mode == counter.Plain && vr.perRound == nil {
				v.Erratum = true
				v.Note += "; Prop. 9 assumes m node noises per release, plain has popcount(t) ≤ m−1: use padded"
			}
			vs = append(vs, v)
		}
	}
	return vs, rounds, nil
}

// perRunVerdict is the per-run test of bound b of one tree (see
// TreeRegularizers): runs[rep] holds, per bound, the failing rounds,
// the first, the largest ratio and the sampled ratios (w values).
func perRunVerdict(cfg TreeConfig, runs [][]float64, s ss18.Setting, k, w, b int, wishart bool, mode counter.ReleaseMode, variant string, fixed bool, bounds ss18.RegBounds, perRound []ss18.RegBounds, scaleW float64) Verdict {
	n := s.N
	kind, ref := "gaussian", "SS18 Prop. 11 (§4.2)"
	if wishart {
		kind, ref = "wishart", "SS18 Prop. 9 (§4.1, Eq. 4)"
	}
	name := fmt.Sprintf("%s/%s/%s/%s", kind, mode, variant, treeBoundNames[b])
	failedRuns, rounds, firstBad, ctlRuns := 0, 0, 0, 0
	var sampled []float64
	tail := 0.0
	// Prop. 11's ρ bounds on the noise part (see TreeRegularizers): the
	// conversion is increasing, so the largest ratio maps to the largest.
	noisePart := !wishart && b%3 != 2
	conv := func(x float64) float64 { return x }
	ctlFactor, ctlName := float64(treeControlFactor), treeControl
	if noisePart {
		conv = func(x float64) float64 { return noisePartRatio(x, bounds, b%3 == 0) }
		ctlFactor = noiseControlFactor(bounds.RhoMax-bounds.Shift, s.GaussianSigma()*math.Sqrt(float64(s.Levels())), s.D)
		ctlName = noiseControlName(ctlFactor)
	}
	if b%3 == 2 {
		ctlFactor = treeGammaControl(bounds, perRound, wishart, s, k, scaleW)
		ctlName = gammaControlName(fmt.Sprintf("%.3g", ctlFactor))
	}
	for _, run := range runs {
		if conv(run[b*w+2])*ctlFactor > 1 {
			ctlRuns++
		}
		o := run[b*w : (b+1)*w]
		if o[0] > 0 {
			failedRuns++
			rounds += int(o[0])
			if firstBad == 0 || int(o[1]) < firstBad {
				firstBad = int(o[1])
			}
		}
		tail = math.Max(tail, conv(o[2]))
		for _, x := range o[3:] {
			sampled = append(sampled, conv(x))
		}
	}
	alpha := s.AlphaOrDefault() / 2 // a run fails in some round with probability ≤ n·α/(2n)
	note := fmt.Sprintf("per-run test: failed in %d of %d runs, %d of %d run-rounds", failedRuns, cfg.Reps, rounds, n*cfg.Reps)
	if firstBad > 0 {
		note += fmt.Sprintf(" (first t=%d)", firstBad)
	}
	v := NewVerdict(name, treeClaim(b, wishart, variant, mode, s.D, n, k), ref, alpha, cfg.Reps, failedRuns, median(sampled), note)
	v.Tail = finiteOr0(tail)
	v = withControl(v, NewVerdict("control", "", "", alpha, cfg.Reps, ctlRuns, 0, ""), ctlName)
	if wishart && mode == counter.Plain && fixed {
		v.Erratum = true
		v.Note += "; Prop. 9 assumes m node noises per release, plain has popcount(t) ≤ m−1: use padded"
	}
	return v
}

// treeControlFactor and treeControl describe the control of the per-round
// regularizer bounds (Props. 9 and 11): every bound divided by the factor,
// checked on the same runs by the same rule.
const (
	treeControlFactor = 2
	treeControl       = "every bound halved"
)

// pvalueControl is a control verdict reduced to its p-value: caught iff
// p ≤ PassPValue; its score, log p over log PassPValue, is ≥ 1 iff caught.
func pvalueControl(p float64) Verdict {
	v := Verdict{PValue: p, Pass: p > PassPValue}
	v.ControlScore = math.Max(0, math.Log(math.Max(p, 1e-300))/math.Log(PassPValue))
	return v
}

func popcount(t int) int {
	c := 0
	for ; t > 0; t &= t - 1 {
		c++
	}
	return c
}

func treeClaim(b int, wishart bool, variant string, mode counter.ReleaseMode, d, n, k int) string {
	h := "H_t"
	switch {
	case wishart && variant == "shifted":
		h = "H′_t = H_t − cI"
	case wishart && variant != "unshifted":
		h = "H′_t = H_t − c_t I"
	}
	var what string
	switch b % 3 {
	case 0:
		what = "‖" + h + "‖ ≤ ρ_max"
	case 1:
		what = "λ_min(" + h + ") ≥ ρ_min"
	default:
		what = "‖h_t‖_{H⁻¹} ≤ γ"
	}
	if wishart {
		return fmt.Sprintf("Wishart tree (%s, k=%d), %s: %s each round, d=%d, n=%d", mode, k, variant, what, d, n)
	}
	switch b % 3 {
	case 0:
		what += " ⟺ λ_max(N_t) ≤ Υ"
	case 1:
		what += " ⟺ −λ_min(N_t) ≤ Υ"
	}
	return fmt.Sprintf("Gaussian tree (%s), %s, H_t = N_t + 2ΥI: %s each round, d=%d, n=%d", mode, variant, what, d, n)
}

// Curves returns the per-round median ratios of the named bounds as Curves
// (X = round t), ratios capped at clip (> 1) so that a plot stays readable.
func (r *TreeRounds) Curves(clip float64, names ...string) (*harness.Curves, error) {
	c := &harness.Curves{Reps: r.Reps}
	for t := range r.N {
		c.X = append(c.X, float64(t+1))
	}
	for _, name := range names {
		i := -1
		for j, nm := range r.Names {
			if nm == name {
				i = j
			}
		}
		if i < 0 {
			return nil, fmt.Errorf("check: no bound named %q (have %v)", name, r.Names)
		}
		m := make([]float64, r.N)
		for t, v := range r.Median[i] {
			m[t] = math.Min(v, clip)
		}
		c.Names = append(c.Names, name)
		c.Mean = append(c.Mean, m)
		c.StdErr = append(c.StdErr, make([]float64, r.N))
	}
	return c, nil
}

// treeGammaControl is the size of a tree's γ control (gammaControlFactor)
// with the bounds b of the variant (those of m nodes, perRound[m], for the
// per-round variant): h_t's entries have standard deviation σ_noise√m
// (Gaussian) or s√(mk) (Wishart W_{d+1}(sI, k) per node), and H_t's
// spectrum is centred at the shift (Gaussian) or smk − c (Wishart).
func treeGammaControl(b ss18.RegBounds, perRound []ss18.RegBounds, wishart bool, s ss18.Setting, k int, scaleW float64) float64 {
	m := float64(s.Levels())
	if perRound != nil {
		b = perRound[s.Levels()]
	}
	if wishart {
		return gammaControlFactor(b.Gamma, scaleW*math.Sqrt(m*float64(k)), scaleW*m*float64(k)-b.Shift, s.D)
	}
	return gammaControlFactor(b.Gamma, s.GaussianSigma()*math.Sqrt(m), b.Shift, s.D)
}
