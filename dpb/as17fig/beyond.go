package as17fig

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/harness"
)

// BeyondConfig configures [Beyond].
type BeyondConfig struct {
	// Sets are the decision sets (AS17 Table 1's DP-FTRL rows: experts =
	// simplex, sphere = ball, cube). Defaults to all three.
	Sets []as17.DecisionSet `json:"sets"`
	// Dim is N. Defaults to 4 (as the AS17 tables).
	Dim int `json:"dim"`
	// Kind of loss sequence. Defaults to Stochastic (as the AS17 tables).
	Kind as17.LossKind `json:"kind"`
	// Horizons T (each a separate game tuned for its T). Required.
	Horizons []int `json:"horizons"`
	// Epsilon is ε of every private variant. Required (finite, > 0).
	Epsilon float64 `json:"epsilon"`
	// Delta is δ of the Gaussian variants; 0 means δ = 1/T at each T.
	Delta float64 `json:"delta"`
	// SqrtMaxHorizon: the square-root counter runs only at T ≤ it (NaN
	// beyond). Defaults to as17.SqrtMaxHorizon.
	SqrtMaxHorizon int `json:"sqrt_max_horizon"`
	// Reps per cell. Required.
	Reps int    `json:"reps"`
	Seed uint64 `json:"seed"`
	// RunOptions: workers, progress bar and plan (see harness.RunOptions).
	harness.RunOptions
}

// DeltaAt returns δ at horizon T: Delta, or 1/T when Delta is 0.
func (c BeyondConfig) DeltaAt(T int) float64 {
	if c.Delta > 0 {
		return c.Delta
	}
	return 1 / float64(T)
}

// BeyondPanel is one decision set's result.
type BeyondPanel struct {
	Set   string `json:"set"`
	Row   string `json:"row"` // the AS17 Table 1 row: experts, sphere, cube
	Title string `json:"title"`
	// Regret has one series per variant over X = Horizons (NaN where a
	// variant did not run). The JSON form is Cells.
	Regret *harness.Curves `json:"-"`
	// Excess is the paired excess regret over the non-private variant
	// (same losses per repetition), series and X as Regret.
	Excess *harness.Curves `json:"-"`
	// Bound[v][h]: the non-private and Laplace rows' Theorem 3.4 bound
	// (D_Lap by Monte Carlo, as the AS17 tables), the Gaussian rows'
	// [as17.FTRLCounterBound].
	Bound [][]float64 `json:"-"`
	// BoundSE[v][h] is the Monte-Carlo standard error of Bound (the
	// Laplace row's D_Lap; 0 for exact bounds).
	BoundSE [][]float64 `json:"-"`
	// Counter[v][h] holds the Gaussian rows' bound parts, σ and the
	// per-release s.d. (nil for the others).
	Counter [][]*as17.FTRLCounterBound `json:"-"`
	// Cells lists every (variant, T) that ran: Regret, Bound and Counter
	// in one table (the JSON form).
	Cells []BeyondCell `json:"cells"`
	// LaplaceLambda[h] is the AS17 row's node scale λ ([as17.FTRLLambda])
	// and LaplaceSD[h] the per-coordinate s.d. of every one of its
	// releases, λ√(2m) (m = TreeLevels(T) draws, Lemma 3.3).
	LaplaceLambda []float64 `json:"laplace_lambda"`
	LaplaceSD     []float64 `json:"laplace_sd"`
	// Slope[v] fits Regret series v against T over T ≥ TailFrom.
	Slope    []harness.Fit `json:"tail_slope"`
	TailFrom int           `json:"tail_from"`
}

// BeyondCell is one (variant, T) of a [BeyondPanel].
type BeyondCell struct {
	Variant  string                 `json:"variant"`
	T        int                    `json:"t"`
	Delta    float64                `json:"delta,omitempty"` // δ of a Gaussian variant
	Regret   float64                `json:"regret"`
	SE       float64                `json:"se"`
	Excess   float64                `json:"excess"` // paired, over non-private
	ExcessSE float64                `json:"excess_se"`
	Bound    float64                `json:"bound"`
	BoundSE  float64                `json:"bound_se"`
	Counter  *as17.FTRLCounterBound `json:"counter_bound,omitempty"`
}

// BeyondResult is the outcome of [Beyond].
type BeyondResult struct {
	Config   BeyondConfig       `json:"config"`
	Variants []as17.FTRLVariant `json:"variants"`
	Panels   []BeyondPanel      `json:"panels"`
	Seconds  float64            `json:"seconds"`
}

// WithDefaults returns c with its defaults filled in.
func (c BeyondConfig) WithDefaults() BeyondConfig {
	if c.Sets == nil {
		c.Sets = []as17.DecisionSet{as17.Simplex, as17.Ball, as17.Cube}
	}
	if c.Dim == 0 {
		c.Dim = 4
	}
	if c.SqrtMaxHorizon == 0 {
		c.SqrtMaxHorizon = as17.SqrtMaxHorizon
	}
	return c
}

// Beyond measures what the continual counters buy in AS17's Table 1
// setting: DP-FTRL's regret against T for every variant of
// [as17.FTRLVariants] on each decision set, at one (ε, δ), beside each
// variant's bound. Set i uses seed Seed + i; repetition r at horizon index
// h faces the losses of Stream(SubSeed(seed_i, h), StreamID(r, 0)) for
// every variant (common random numbers, as [Sweep]), and variant v
// draws from Stream(SubSeed(seed_i, h), StreamID(r, 1+v)).
func Beyond(cfg BeyondConfig) (*BeyondResult, error) {
	cfg = cfg.WithDefaults()
	if len(cfg.Horizons) == 0 || cfg.Reps < 1 {
		return nil, fmt.Errorf("as17fig: beyond-as17 needs horizons and reps >= 1")
	}
	for i, T := range cfg.Horizons {
		if T < 3 || (i > 0 && T <= cfg.Horizons[i-1]) {
			return nil, fmt.Errorf("as17fig: horizons must increase and be >= 3; got %v", cfg.Horizons)
		}
	}
	if !(cfg.Epsilon > 0) || math.IsInf(cfg.Epsilon, 0) {
		return nil, fmt.Errorf("as17fig: epsilon is %v, must be finite and > 0", cfg.Epsilon)
	}
	if !(cfg.Delta >= 0 && cfg.Delta < 1) {
		return nil, fmt.Errorf("as17fig: delta is %v, must be in [0, 1) (0: δ = 1/T)", cfg.Delta)
	}
	if cfg.SqrtMaxHorizon < 0 || cfg.SqrtMaxHorizon > counter.MaxSqrtHorizon {
		return nil, fmt.Errorf("as17fig: sqrt max horizon is %d, must be in [0, %d]", cfg.SqrtMaxHorizon, counter.MaxSqrtHorizon)
	}
	start := time.Now()
	res := &BeyondResult{Config: cfg, Variants: as17.FTRLVariants}
	x := make([]float64, len(cfg.Horizons))
	for i, T := range cfg.Horizons {
		x[i] = float64(T)
	}
	names := make([]string, len(res.Variants))
	for v, va := range res.Variants {
		names[v] = va.Name
	}
	for i, set := range cfg.Sets {
		row, err := as17.FTRLRow(set, cfg.Dim, cfg.Kind)
		if err != nil {
			return nil, err
		}
		rn := [2]string{row.Name, row.Title}
		seed := cfg.Seed + uint64(i)
		key := struct {
			Set      string
			Dim      int
			Loss     as17.LossKind
			Horizons []int
			Epsilon  float64
			Delta    float64
			SqrtMax  int
			Variants []as17.FTRLVariant
			Seed     uint64
		}{set.String(), cfg.Dim, cfg.Kind, cfg.Horizons, cfg.Epsilon, cfg.Delta, cfg.SqrtMaxHorizon, res.Variants, seed}
		out, err := harness.Sweep(harness.SweepConfig{Horizons: cfg.Horizons, Series: len(res.Variants), Reps: cfg.Reps, Seed: seed,
			RunOptions: cfg.RunOptions, Label: "beyond-as17-" + rn[0], Key: key},
			func(T, series int, env, rng *rand.Rand) (float64, error) {
				va := res.Variants[series]
				if va.Gaussian && va.Counter == counter.Sqrt && T > cfg.SqrtMaxHorizon {
					return math.NaN(), nil
				}
				return as17.FTRLRegret(va.Config(set, cfg.Dim, T, cfg.Epsilon, cfg.DeltaAt(T)), cfg.Kind, env, rng)
			})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", rn[0], err)
		}
		p := BeyondPanel{Set: set.String(), Row: rn[0], Title: rn[1], Regret: harness.Summarise(names, x, out),
			TailFrom: cfg.Horizons[(len(cfg.Horizons)-1)/2]}
		diff := make([][][]float64, len(out))
		for v := range out {
			diff[v] = make([][]float64, cfg.Reps)
			for r := range diff[v] {
				diff[v][r] = make([]float64, len(cfg.Horizons))
				for h := range diff[v][r] {
					diff[v][r][h] = out[v][r][h] - out[0][r][h]
				}
			}
		}
		p.Excess = harness.Summarise(names, x, diff)
		brng := bandit.Stream(seed, 1<<62)
		for _, va := range res.Variants {
			b, bse := make([]float64, len(cfg.Horizons)), make([]float64, len(cfg.Horizons))
			var cb []*as17.FTRLCounterBound
			for h, T := range cfg.Horizons {
				eta := as17.FTRLEta(set, cfg.Dim, T)
				switch {
				case !va.Private:
					b[h] = as17.FTRLBound(set, cfg.Dim, T, eta, 0)
				case !va.Gaussian:
					lam := as17.FTRLLambda(set, cfg.Dim, T, cfg.Epsilon)
					d, se := as17.DLap(set, cfg.Dim, counter.TreeLevels(T), lam, as17.DLapSamples, brng)
					b[h], bse[h] = as17.FTRLBound(set, cfg.Dim, T, eta, d), se
				case va.Counter == counter.Sqrt && T > cfg.SqrtMaxHorizon:
					b[h] = math.NaN()
					cb = append(cb, nil)
				default:
					sigma, err := as17.FTRLGaussianSigma(set, cfg.Dim, T, cfg.Epsilon, cfg.DeltaAt(T), va.Counter)
					if err != nil {
						return nil, err
					}
					q, err := as17.NewFTRLCounterBound(set, cfg.Dim, T, eta, sigma, va.Counter)
					if err != nil {
						return nil, err
					}
					b[h] = q.Bound
					cb = append(cb, &q)
				}
			}
			p.Bound = append(p.Bound, b)
			p.BoundSE = append(p.BoundSE, bse)
			p.Counter = append(p.Counter, cb)
			p.Slope = append(p.Slope, harness.FitLogLog(tail(x, p.Regret.Mean[len(p.Slope)], float64(p.TailFrom))))
		}
		for v, va := range res.Variants {
			for h, T := range cfg.Horizons {
				m := p.Regret.Mean[v][h]
				if math.IsNaN(m) || math.IsNaN(p.Bound[v][h]) {
					continue
				}
				c := BeyondCell{Variant: va.Name, T: T, Regret: m, SE: p.Regret.StdErr[v][h],
					Excess: p.Excess.Mean[v][h], ExcessSE: p.Excess.StdErr[v][h], Bound: p.Bound[v][h], BoundSE: p.BoundSE[v][h]}
				if va.Gaussian {
					c.Delta, c.Counter = cfg.DeltaAt(T), p.Counter[v][h]
				}
				p.Cells = append(p.Cells, c)
			}
		}
		for _, T := range cfg.Horizons {
			lam := as17.FTRLLambda(set, cfg.Dim, T, cfg.Epsilon)
			p.LaplaceLambda = append(p.LaplaceLambda, lam)
			p.LaplaceSD = append(p.LaplaceSD, lam*math.Sqrt(2*float64(counter.TreeLevels(T))))
		}
		res.Panels = append(res.Panels, p)
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// BoundCurves returns panel p's bounds as Curves over the horizons.
func (p *BeyondPanel) BoundCurves() *harness.Curves {
	c := &harness.Curves{Names: p.Regret.Names, X: p.Regret.X, Reps: 1}
	for _, b := range p.Bound {
		c.Mean = append(c.Mean, b)
		c.StdErr = append(c.StdErr, make([]float64, len(b)))
	}
	return c
}

// Markdown returns, per panel, a table at the largest T: regret ± s.e.,
// its ratio to non-private, the bound, the per-release noise s.d. (largest
// and mean over t) and the fitted slope.
func (r *BeyondResult) Markdown() string {
	var b strings.Builder
	c := r.Config
	last := len(c.Horizons) - 1
	T := c.Horizons[last]
	for _, p := range r.Panels {
		fmt.Fprintf(&b, "**%s**, N = %d, T = %d, ε = %g, δ = %s, %d runs\n\n", p.Title, c.Dim, T, c.Epsilon, deltaLabel(c, T), p.Regret.Reps)
		b.WriteString("| variant | regret ± s.e. | / non-private | excess over non-private (paired) | bound | bound by | σ (node) | max s.d. | mean s.d. | slope, T ≥ " + strconv.Itoa(p.TailFrom) + " |\n|---|---|---|---|---|---|---|---|---|---|\n")
		for v, va := range r.Variants {
			h := last
			if math.IsNaN(p.Regret.Mean[v][h]) { // sqrt beyond its horizon: its largest T
				for h > 0 && math.IsNaN(p.Regret.Mean[v][h]) {
					h--
				}
			}
			if math.IsNaN(p.Regret.Mean[v][h]) { // run at no T (SqrtMaxHorizon below every T)
				fmt.Fprintf(&b, "| %s | not run: every T is above its largest horizon %d | | | | | | | | |\n", va.Name, c.SqrtMaxHorizon)
				continue
			}
			m, se := p.Regret.Mean[v][h], p.Regret.StdErr[v][h]
			at := ""
			if h != last {
				at = fmt.Sprintf(" (T = %d)", c.Horizons[h])
			}
			ratio := fmt.Sprintf("%.2f", m/p.Regret.Mean[0][h])
			sig, mx, mn, by := "—", "0", "0", "Thm 3.4 (D = 0)"
			switch {
			case va.Gaussian:
				q := p.Counter[v][h]
				sig, mx, mn, by = fmt.Sprintf("%.3g", q.Sigma), fmt.Sprintf("%.3g", q.MaxSD), fmt.Sprintf("%.3g", q.MeanSD), q.Which
			case va.Private:
				sd := fmt.Sprintf("%.3g", p.LaplaceSD[h])
				sig, mx, mn, by = fmt.Sprintf("λ = %.3g", p.LaplaceLambda[h]), sd, sd, "Thm 3.4, D_Lap (MC)"
			}
			fmt.Fprintf(&b, "| %s%s | %.4g ± %.2g | %s | %.4g ± %.2g | %.4g | %s | %s | %s | %s | %s |\n", va.Name, at, m, se, ratio, p.Excess.Mean[v][h], p.Excess.StdErr[v][h], p.Bound[v][h], by, sig, mx, mn, p.Slope[v].SlopeText())
		}
		b.WriteString("\n")
	}
	return b.String()
}

func deltaLabel(c BeyondConfig, T int) string {
	if c.Delta > 0 {
		return strconv.FormatFloat(c.Delta, 'g', 4, 64)
	}
	return fmt.Sprintf("1/T = %.3g", 1/float64(T))
}
