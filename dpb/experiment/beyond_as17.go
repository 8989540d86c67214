package experiment

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpnoise "github.com/dpbandits/dpbandits/dpb/noise"
)

// AS17Variant is one learner of the beyond-as17 experiment: DP-FTRL (AS17
// Algorithm 1) non-private, on AS17's Laplace tree (TreeBasedAgg, pure ε,
// λ = [as17.FTRLLambda]) or on a continual counter with Gaussian node noise
// calibrated exactly to (ε, δ) ([as17.FTRLGaussianSigma]).
type AS17Variant struct {
	Name     string              `json:"name"`
	Private  bool                `json:"private"`
	Gaussian bool                `json:"gaussian"`
	Counter  counter.CounterKind `json:"counter"`
}

// AS17BeyondVariants lists the variants in the order of the figure.
var AS17BeyondVariants = []AS17Variant{
	{Name: "non-private"},
	{Name: "AS17 Laplace tree (pure ε)", Private: true},
	{Name: "Gauss tree", Private: true, Gaussian: true, Counter: counter.CounterTree},
	{Name: "Gauss tree-padded", Private: true, Gaussian: true, Counter: counter.CounterTreePadded},
	{Name: "Gauss Honaker", Private: true, Gaussian: true, Counter: counter.CounterHonaker},
	{Name: "Gauss smooth", Private: true, Gaussian: true, Counter: counter.CounterSmooth},
	{Name: "Gauss sqrt", Private: true, Gaussian: true, Counter: counter.CounterSqrt},
	{Name: "Gauss BLT", Private: true, Gaussian: true, Counter: counter.CounterBLT},
}

// DefaultSqrtMaxHorizon is the largest T at which the beyond-as17
// experiment runs the exact square-root counter (O(T) work per round, so
// O(T²) per run; the BLT stands in for it beyond).
const DefaultSqrtMaxHorizon = 1 << 12

// BeyondAS17Config configures [BeyondAS17].
type BeyondAS17Config struct {
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
	// beyond). Defaults to DefaultSqrtMaxHorizon.
	SqrtMaxHorizon int `json:"sqrt_max_horizon"`
	// Reps per cell. Required.
	Reps int    `json:"reps"`
	Seed uint64 `json:"seed"`
	// Workers, Progress and Plan as in TrialConfig.
	Workers  int       `json:"-"`
	Progress io.Writer `json:"-"`
	Plan     *Plan     `json:"-"`
}

// DeltaAt returns δ at horizon T: Delta, or 1/T when Delta is 0.
func (c BeyondAS17Config) DeltaAt(T int) float64 {
	if c.Delta > 0 {
		return c.Delta
	}
	return 1 / float64(T)
}

// BeyondAS17Panel is one decision set's result.
type BeyondAS17Panel struct {
	Set   string `json:"set"`
	Row   string `json:"row"` // the AS17 Table 1 row: experts, sphere, cube
	Title string `json:"title"`
	// Regret has one series per variant over X = Horizons (NaN where a
	// variant did not run). The JSON form is Cells.
	Regret *Curves `json:"-"`
	// Excess is the paired excess regret over the non-private variant
	// (same losses per repetition), series and X as Regret.
	Excess *Curves `json:"-"`
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
	Cells []BeyondAS17Cell `json:"cells"`
	// LaplaceLambda[h] is the AS17 row's node scale λ ([as17.FTRLLambda])
	// and LaplaceSD[h] the per-coordinate s.d. of every one of its
	// releases, λ√(2m) (m = TreeLevels(T) draws, Lemma 3.3).
	LaplaceLambda []float64 `json:"laplace_lambda"`
	LaplaceSD     []float64 `json:"laplace_sd"`
	// Slope[v] fits Regret series v against T over T ≥ TailFrom.
	Slope    []Fit `json:"tail_slope"`
	TailFrom int   `json:"tail_from"`
}

// BeyondAS17Cell is one (variant, T) of a [BeyondAS17Panel].
type BeyondAS17Cell struct {
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

// BeyondAS17Result is the outcome of [BeyondAS17].
type BeyondAS17Result struct {
	Config   BeyondAS17Config  `json:"config"`
	Variants []AS17Variant     `json:"variants"`
	Panels   []BeyondAS17Panel `json:"panels"`
	Seconds  float64           `json:"seconds"`
}

var as17RowName = map[as17.DecisionSet][2]string{
	as17.Simplex: {"experts", "prediction with expert advice (DP-FTRL, entropy)"},
	as17.Ball:    {"sphere", "OLO over the sphere (DP-FTRL, ‖x‖²)"},
	as17.Cube:    {"cube", "OLO over the cube (DP-FTRL, ‖x‖²)"},
}

// WithDefaults returns c with its defaults filled in.
func (c BeyondAS17Config) WithDefaults() BeyondAS17Config {
	if c.Sets == nil {
		c.Sets = []as17.DecisionSet{as17.Simplex, as17.Ball, as17.Cube}
	}
	if c.Dim == 0 {
		c.Dim = 4
	}
	if c.SqrtMaxHorizon == 0 {
		c.SqrtMaxHorizon = DefaultSqrtMaxHorizon
	}
	return c
}

// BeyondAS17 measures what the continual counters buy in AS17's Table 1
// setting: DP-FTRL's regret against T for every variant of
// [AS17BeyondVariants] on each decision set, at one (ε, δ), beside each
// variant's bound. Set i uses seed Seed + i; repetition r at horizon index
// h faces the losses of Stream(SubSeed(seed_i, h), StreamID(r, 0)) for
// every variant (common random numbers, as [AS17Sweep]), and variant v
// draws from Stream(SubSeed(seed_i, h), StreamID(r, 1+v)).
func BeyondAS17(cfg BeyondAS17Config) (*BeyondAS17Result, error) {
	cfg = cfg.WithDefaults()
	if len(cfg.Horizons) == 0 || cfg.Reps < 1 {
		return nil, fmt.Errorf("dpb: beyond-as17 needs horizons and reps >= 1")
	}
	for i, T := range cfg.Horizons {
		if T < 3 || (i > 0 && T <= cfg.Horizons[i-1]) {
			return nil, fmt.Errorf("dpb: horizons must increase and be >= 3; got %v", cfg.Horizons)
		}
	}
	if !(cfg.Epsilon > 0) || math.IsInf(cfg.Epsilon, 0) {
		return nil, fmt.Errorf("dpb: epsilon is %v, must be finite and > 0", cfg.Epsilon)
	}
	if !(cfg.Delta >= 0 && cfg.Delta < 1) {
		return nil, fmt.Errorf("dpb: delta is %v, must be in [0, 1) (0: δ = 1/T)", cfg.Delta)
	}
	if cfg.SqrtMaxHorizon < 0 || cfg.SqrtMaxHorizon > counter.MaxSqrtHorizon {
		return nil, fmt.Errorf("dpb: sqrt max horizon is %d, must be in [0, %d]", cfg.SqrtMaxHorizon, counter.MaxSqrtHorizon)
	}
	start := time.Now()
	res := &BeyondAS17Result{Config: cfg, Variants: AS17BeyondVariants}
	x := make([]float64, len(cfg.Horizons))
	rounds := 0
	for i, T := range cfg.Horizons {
		x[i] = float64(T)
		rounds += T
	}
	names := make([]string, len(res.Variants))
	for v, va := range res.Variants {
		names[v] = va.Name
	}
	for i, set := range cfg.Sets {
		rn, ok := as17RowName[set]
		if !ok {
			return nil, fmt.Errorf("dpb: unknown decision set %v", set)
		}
		seed := cfg.Seed + uint64(i)
		key := struct {
			Set      string
			Dim      int
			Loss     as17.LossKind
			Horizons []int
			Epsilon  float64
			Delta    float64
			SqrtMax  int
			Variants []AS17Variant
			Seed     uint64
		}{set.String(), cfg.Dim, cfg.Kind, cfg.Horizons, cfg.Epsilon, cfg.Delta, cfg.SqrtMaxHorizon, res.Variants, seed}
		out, err := RunTrials(TrialConfig{Reps: cfg.Reps, Series: len(res.Variants), Points: len(cfg.Horizons), Workers: cfg.Workers,
			Progress: cfg.Progress, Plan: cfg.Plan, Label: "beyond-as17-" + rn[0], Key: key, Rounds: rounds},
			func(job Job, out []float64) error {
				va := res.Variants[job.Series]
				for h, T := range cfg.Horizons {
					if va.Gaussian && va.Counter == counter.CounterSqrt && T > cfg.SqrtMaxHorizon {
						out[h] = math.NaN()
						continue
					}
					sh := SubSeed(seed, h)
					losses, err := as17.NewLosses(as17.LossConfig{Set: set, Dim: cfg.Dim, Kind: cfg.Kind, Horizon: T}, bandit.Stream(sh, bandit.StreamID(job.Rep, 0)))
					if err != nil {
						return err
					}
					fc := as17.FTRLConfig{Set: set, Dim: cfg.Dim, Horizon: T, Epsilon: math.Inf(1), Noise: dpnoise.NoiseSimulated}
					if va.Private {
						fc.Epsilon = cfg.Epsilon
					}
					if va.Gaussian {
						fc.Delta, fc.Counter = cfg.DeltaAt(T), va.Counter
					}
					l, err := as17.NewFTRL(fc, bandit.Stream(sh, bandit.StreamID(job.Rep, 1+job.Series)))
					if err != nil {
						return err
					}
					if err := as17.OLORegretCurve(l, set, losses, T, []int{T}, out[h:h+1]); err != nil {
						return err
					}
					job.Advance(T)
				}
				return nil
			})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", rn[0], err)
		}
		p := BeyondAS17Panel{Set: set.String(), Row: rn[0], Title: rn[1], Regret: Summarise(names, x, out),
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
		p.Excess = Summarise(names, x, diff)
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
					d, se := as17.DLap(set, cfg.Dim, counter.TreeLevels(T), lam, dlapSamples, brng)
					b[h], bse[h] = as17.FTRLBound(set, cfg.Dim, T, eta, d), se
				case va.Counter == counter.CounterSqrt && T > cfg.SqrtMaxHorizon:
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
			p.Slope = append(p.Slope, FitLogLog(tail(x, p.Regret.Mean[len(p.Slope)], float64(p.TailFrom))))
		}
		for v, va := range res.Variants {
			for h, T := range cfg.Horizons {
				m := p.Regret.Mean[v][h]
				if math.IsNaN(m) || math.IsNaN(p.Bound[v][h]) {
					continue
				}
				c := BeyondAS17Cell{Variant: va.Name, T: T, Regret: m, SE: p.Regret.StdErr[v][h],
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
func (p *BeyondAS17Panel) BoundCurves() *Curves {
	c := &Curves{Names: p.Regret.Names, X: p.Regret.X, Reps: 1}
	for _, b := range p.Bound {
		c.Mean = append(c.Mean, b)
		c.StdErr = append(c.StdErr, make([]float64, len(b)))
	}
	return c
}

// Markdown returns, per panel, a table at the largest T: regret ± s.e.,
// its ratio to non-private, the bound, the per-release noise s.d. (largest
// and mean over t) and the fitted slope.
func (r *BeyondAS17Result) Markdown() string {
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

func deltaLabel(c BeyondAS17Config, T int) string {
	if c.Delta > 0 {
		return strconv.FormatFloat(c.Delta, 'g', 4, 64)
	}
	return fmt.Sprintf("1/T = %.3g", 1/float64(T))
}
