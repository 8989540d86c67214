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
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// Sweep measures one row's final regret at every (ε, T) pair.
type Sweep struct {
	Row as17.TableRow
	// Horizons T (each run is a separate game tuned for its T). Required.
	Horizons []int
	// Epsilons; +Inf is the non-private baseline. Required.
	Epsilons []float64
	// Reps independent repetitions. Required.
	Reps int
	// Seed of the experiment. Repetition r at horizon index h faces losses
	// from Stream(seed_h, StreamID(r, 0)) whatever ε (common random numbers),
	// and learner e uses Stream(seed_h, StreamID(r, 1+e)), seed_h = SubSeed(Seed, h).
	Seed uint64
	// RunOptions: workers, progress bar and plan (see harness.RunOptions).
	harness.RunOptions
}

// Result is the outcome of an [Sweep].
type Result struct {
	Row      string    `json:"row"`
	Title    string    `json:"title"`
	Horizons []int     `json:"horizons"`
	Epsilons []float64 `json:"-"`
	EpsNames []string  `json:"epsilons"`
	// Regret has one series per ε over X = Horizons (mean ± stderr).
	Regret *harness.Curves `json:"regret"`
	// Excess has one series per finite ε: the paired difference
	// R_ε − R_non-private per repetition (nil without a +Inf entry).
	Excess *harness.Curves `json:"excess,omitempty"`
	// Bound[e][h] is the row's bound at (Epsilons[e], Horizons[h]).
	Bound     [][]float64 `json:"bound"`
	BoundName string      `json:"bound_name"`
	// Explicit is the row's Explicit: Bound is an inequality, not an O(·).
	Explicit bool `json:"explicit"`
	// Slope[e] fits Regret series e against T; ExcessSlope[e] fits Excess series e.
	Slope       []harness.Fit `json:"slope"`
	ExcessSlope []harness.Fit `json:"excess_slope,omitempty"`
	BoundSlope  []harness.Fit `json:"bound_slope"`
	// TailFrom is the first horizon of the upper half of the range, and
	// TailSlope / ExcessTailSlope the fits over T >= TailFrom only.
	TailFrom        int           `json:"tail_from"`
	TailSlope       []harness.Fit `json:"tail_slope"`
	ExcessTailSlope []harness.Fit `json:"excess_tail_slope,omitempty"`
	Seconds         float64       `json:"seconds"`
}

// tail returns the points of x, y with x >= from.
func tail(x, y []float64, from float64) ([]float64, []float64) {
	for i, v := range x {
		if v >= from {
			return x[i:], y[i:]
		}
	}
	return nil, nil
}

// ByInverseEpsilon returns, at horizon index h, the regret and the excess
// over the non-private learner against X = 1/ε (finite ε only, increasing).
func (r *Result) ByInverseEpsilon(h int) *harness.Curves {
	type pt struct{ x, m, se, em, ese float64 }
	var pts []pt
	k := 0
	for e, eps := range r.Epsilons {
		if math.IsInf(eps, 1) {
			continue
		}
		q := pt{x: 1 / eps, m: r.Regret.Mean[e][h], se: r.Regret.StdErr[e][h], em: math.NaN()}
		if r.Excess != nil {
			q.em, q.ese = r.Excess.Mean[k][h], r.Excess.StdErr[k][h]
		}
		k++
		pts = append(pts, q)
	}
	for i := 1; i < len(pts); i++ {
		for j := i; j > 0 && pts[j].x < pts[j-1].x; j-- {
			pts[j], pts[j-1] = pts[j-1], pts[j]
		}
	}
	c := &harness.Curves{Names: []string{"regret", "excess over non-private"}, Reps: r.Regret.Reps, Mean: make([][]float64, 2), StdErr: make([][]float64, 2)}
	for _, q := range pts {
		c.X = append(c.X, q.x)
		c.Mean[0] = append(c.Mean[0], q.m)
		c.StdErr[0] = append(c.StdErr[0], q.se)
		c.Mean[1] = append(c.Mean[1], q.em)
		c.StdErr[1] = append(c.StdErr[1], q.ese)
	}
	return c
}

// BoundCurves returns the bounds as Curves over the horizons (for plotting).
func (r *Result) BoundCurves() *harness.Curves {
	c := &harness.Curves{Names: r.EpsNames, X: r.Regret.X, Reps: 1}
	for _, b := range r.Bound {
		c.Mean = append(c.Mean, b)
		c.StdErr = append(c.StdErr, make([]float64, len(b)))
	}
	return c
}

// EpsName formats ε for legends: "non-private" for +Inf, else "ε=0.1".
func EpsName(eps float64) string {
	if math.IsInf(eps, 1) {
		return "non-private"
	}
	return "ε=" + strconv.FormatFloat(eps, 'g', 4, 64)
}

// Run runs the sweep.
func (s *Sweep) Run() (*Result, error) {
	row := s.Row
	if (row.NewFull == nil) == (row.NewBandit == nil) {
		return nil, fmt.Errorf("as17fig: row %q needs exactly one of NewFull and NewBandit", row.Name)
	}
	if len(s.Horizons) == 0 || len(s.Epsilons) == 0 || s.Reps < 1 {
		return nil, fmt.Errorf("as17fig: sweep needs horizons, epsilons and reps >= 1")
	}
	for i, T := range s.Horizons {
		if T < 3 || (i > 0 && T <= s.Horizons[i-1]) {
			return nil, fmt.Errorf("as17fig: horizons must increase and be >= 3; got %v", s.Horizons)
		}
	}
	base := -1
	for e, eps := range s.Epsilons {
		if math.IsInf(eps, 1) {
			base = e
		} else if err := param.CheckEpsilon(eps); err != nil {
			return nil, err
		}
	}
	start := time.Now()
	// The row's learners and bounds are functions: its name, table,
	// decision set, dimension and loss sequence determine them.
	epsKey := make([]string, len(s.Epsilons))
	for i, e := range s.Epsilons {
		epsKey[i] = strconv.FormatFloat(e, 'g', -1, 64) // +Inf has no JSON number
	}
	key := struct {
		Row, Set   string
		Table, Dim int
		Loss       as17.LossConfig
		Horizons   []int
		Epsilons   []string
		Seed       uint64
	}{row.Name, row.Set.String(), row.Table, row.Dim, row.Loss, s.Horizons, epsKey, s.Seed}
	out, err := harness.Sweep(harness.SweepConfig{Horizons: s.Horizons, Series: len(s.Epsilons), Reps: s.Reps, Seed: s.Seed,
		RunOptions: s.RunOptions, Label: "as17-" + row.Name, Key: key},
		func(T, series int, env, rng *rand.Rand) (float64, error) {
			return row.Regret(T, s.Epsilons[series], env, rng)
		})
	if err != nil {
		return nil, err
	}
	x := make([]float64, len(s.Horizons))
	for i, T := range s.Horizons {
		x[i] = float64(T)
	}
	res := &Result{Row: row.Name, Title: row.Title, Horizons: s.Horizons, Epsilons: s.Epsilons, BoundName: row.BoundName, Explicit: row.Explicit,
		TailFrom: s.Horizons[len(s.Horizons)/2]}
	if len(s.Horizons) > 1 {
		res.TailFrom = s.Horizons[(len(s.Horizons)-1)/2]
	}
	for _, e := range s.Epsilons {
		res.EpsNames = append(res.EpsNames, EpsName(e))
	}
	res.Regret = harness.Summarise(res.EpsNames, x, out)
	res.Bound = row.Bounds(s.Horizons, s.Epsilons, bandit.Stream(s.Seed, 1<<62))
	for e, b := range res.Bound {
		res.Slope = append(res.Slope, harness.FitLogLog(x, res.Regret.Mean[e]))
		res.TailSlope = append(res.TailSlope, harness.FitLogLog(tail(x, res.Regret.Mean[e], float64(res.TailFrom))))
		res.BoundSlope = append(res.BoundSlope, harness.FitLogLog(x, b))
	}
	if base >= 0 {
		var names []string
		var diff [][][]float64
		for e := range s.Epsilons {
			if e == base {
				continue
			}
			names = append(names, res.EpsNames[e])
			d := make([][]float64, s.Reps)
			for r := range d {
				d[r] = make([]float64, len(s.Horizons))
				for h := range d[r] {
					d[r][h] = out[e][r][h] - out[base][r][h]
				}
			}
			diff = append(diff, d)
		}
		if len(diff) > 0 {
			res.Excess = harness.Summarise(names, x, diff)
			for e := range diff {
				res.ExcessSlope = append(res.ExcessSlope, harness.FitLogLog(x, res.Excess.Mean[e]))
				res.ExcessTailSlope = append(res.ExcessTailSlope, harness.FitLogLog(tail(x, res.Excess.Mean[e], float64(res.TailFrom))))
			}
		}
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// Markdown returns a table of the fitted slopes of regret (and excess) against T.
func (r *Result) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "| %s | slope of regret vs T (all) | slope, T ≥ %d | slope of bound | regret at T=%d | bound at T=%d |", r.Row, r.TailFrom, r.Horizons[len(r.Horizons)-1], r.Horizons[len(r.Horizons)-1])
	if r.Excess != nil {
		b.WriteString(" slope of excess, T ≥ " + strconv.Itoa(r.TailFrom) + " | excess at T max |")
	}
	b.WriteString("\n|---|---|---|---|---|---|")
	if r.Excess != nil {
		b.WriteString("---|---|")
	}
	b.WriteString("\n")
	last := len(r.Horizons) - 1
	k := 0
	for e, name := range r.EpsNames {
		fmt.Fprintf(&b, "| %s | %.2f ± %.2f | %.2f ± %.2f | %.2f | %.4g ± %.2g | %.4g |", name, r.Slope[e].Slope, r.Slope[e].SlopeSE, r.TailSlope[e].Slope, r.TailSlope[e].SlopeSE, r.BoundSlope[e].Slope,
			r.Regret.Mean[e][last], r.Regret.StdErr[e][last], r.Bound[e][last])
		if r.Excess != nil {
			if math.IsInf(r.Epsilons[e], 1) {
				b.WriteString(" — | — |")
			} else {
				fmt.Fprintf(&b, " %.2f ± %.2f | %.4g ± %.2g |", r.ExcessTailSlope[k].Slope, r.ExcessTailSlope[k].SlopeSE, r.Excess.Mean[k][last], r.Excess.StdErr[k][last])
				k++
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TableConfig configures [Table].
type TableConfig struct {
	// Table is 1 (full information) or 2 (bandits). Required.
	Table int `json:"table"`
	// Dim is N (experts, arms or dimension). Defaults to 4.
	Dim int `json:"dim"`
	// Kind of loss sequence. Defaults to Stochastic.
	Kind as17.LossKind `json:"kind"`
	// Horizons of the T sweep. Required.
	Horizons []int `json:"horizons"`
	// Epsilons of the T sweep (finite; the non-private baseline is added).
	// Required.
	Epsilons []float64 `json:"epsilons"`
	// EpsHorizon is the T of the ε sweep (0: no ε sweep).
	EpsHorizon int `json:"eps_horizon"`
	// SweepEpsilons are the ε values of the ε sweep (the baseline is added).
	SweepEpsilons []float64 `json:"sweep_epsilons"`
	// Reps per cell. Required.
	Reps int    `json:"reps"`
	Seed uint64 `json:"seed"`
	// RunOptions: workers, progress bar and plan (see harness.RunOptions).
	harness.RunOptions
}

// TableResult holds, per row, the T sweep and (if asked) the ε sweep.
type TableResult struct {
	Config TableConfig `json:"config"`
	T      []*Result   `json:"t_sweep"`
	Eps    []*Result   `json:"eps_sweep,omitempty"`
}

// AS17Table measures every row of AS17's Table 1 or 2 (see [as17.Table1Rows],
// [as17.Table2Rows]): regret against T for each ε beside the non-private
// learner and the bounds, and regret against ε at one T.
func Table(cfg TableConfig) (*TableResult, error) {
	if cfg.Dim == 0 {
		cfg.Dim = 4
	}
	var rows []as17.TableRow
	switch cfg.Table {
	case 1:
		rows = as17.Table1Rows(cfg.Dim, cfg.Kind)
	case 2:
		rows = as17.Table2Rows(cfg.Dim, cfg.Kind)
	default:
		return nil, fmt.Errorf("as17fig: table is %d, must be 1 or 2", cfg.Table)
	}
	withBase := func(e []float64) []float64 {
		return append([]float64{math.Inf(1)}, e...)
	}
	res := &TableResult{Config: cfg}
	for i, row := range rows {
		s := Sweep{Row: row, Horizons: cfg.Horizons, Epsilons: withBase(cfg.Epsilons), Reps: cfg.Reps,
			Seed: cfg.Seed + uint64(i), RunOptions: harness.RunOptions{Workers: cfg.Workers, Progress: cfg.Progress, Plan: cfg.Plan}}
		r, err := s.Run()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", row.Name, err)
		}
		res.T = append(res.T, r)
		if cfg.EpsHorizon > 0 {
			s := Sweep{Row: row, Horizons: []int{cfg.EpsHorizon}, Epsilons: withBase(cfg.SweepEpsilons), Reps: cfg.Reps,
				Seed: cfg.Seed + 1000 + uint64(i), RunOptions: harness.RunOptions{Workers: cfg.Workers, Progress: cfg.Progress, Plan: cfg.Plan}}
			r, err := s.Run()
			if err != nil {
				return nil, fmt.Errorf("%s ε sweep: %w", row.Name, err)
			}
			res.Eps = append(res.Eps, r)
		}
	}
	return res, nil
}

// Markdown returns one slope table per row of the T sweep.
func (r *TableResult) Markdown() string {
	var b strings.Builder
	for _, x := range r.T {
		fmt.Fprintf(&b, "**%s** — bound: %s\n\n%s\n", x.Title, x.BoundName, x.Markdown())
	}
	return b.String()
}

// Verdict thresholds of [TableResult.Verdicts] (fitted log–log slopes
// over the upper half of the horizons).
const (
	// SqrtSlopeLo and SqrtSlopeHi bracket "≈ √T (up to logarithms)".
	SqrtSlopeLo, SqrtSlopeHi = 0.35, 0.7
	// FlatSlope: an excess regret whose fitted slope is below it grows
	// slower than √T, the growth of a multiplicative √T/ε privacy cost;
	// an additive O(polylog T/ε) cost has slope → 0 (the full-scale runs show
	// ≈ 0; small runs are noisy, hence the generous threshold).
	FlatSlope = 0.5
)

// Verdicts returns a markdown table of the checks behind Tables 1 and 2:
// every row's non-private regret grows like √T; where the row's bound is
// explicit, the mean regret is below it at every T; in Table 1 the excess
// regret of every private learner over the non-private one grows slower than
// √T (privacy cost additive, O(1/ε) up to logs); in Table 2 the private regret
// is sublinear (slope ≤ SqrtSlopeHi) and its excess grows with T (the cost is
// multiplicative, √T/ε, as the table states). Failed checks read "CHECK FAILED".
func (r *TableResult) Verdicts() string {
	var b strings.Builder
	b.WriteString("| row | claim | measured (slope over T ≥ T_mid) | criterion | verdict |\n|---|---|---|---|---|\n")
	v := func(ok bool) string {
		if ok {
			return "PASS"
		}
		return "CHECK FAILED"
	}
	for _, x := range r.T {
		for e, eps := range x.Epsilons {
			f := x.TailSlope[e]
			if math.IsInf(eps, 1) {
				ok := f.Slope >= SqrtSlopeLo && f.Slope <= SqrtSlopeHi
				fmt.Fprintf(&b, "| %s | non-private regret ≈ √T | %.2f ± %.2f | [%.2f, %.2f] | %s |\n", x.Row, f.Slope, f.SlopeSE, SqrtSlopeLo, SqrtSlopeHi, v(ok))
			}
		}
		if x.Explicit {
			worst, at := math.Inf(-1), 0
			for e := range x.Epsilons {
				for h := range x.Horizons {
					if q := x.Regret.Mean[e][h] / x.Bound[e][h]; q > worst {
						worst, at = q, e
					}
				}
			}
			fmt.Fprintf(&b, "| %s | regret ≤ bound at every (T, ε) | max regret/bound %.2f (%s) | ≤ 1 | %s |\n", x.Row, worst, x.EpsNames[at], v(worst <= 1))
		}
		k := 0
		for e, eps := range x.Epsilons {
			if math.IsInf(eps, 1) {
				continue
			}
			fe := x.ExcessTailSlope[k]
			k++
			if r.Config.Table == 1 {
				fmt.Fprintf(&b, "| %s | %s: regret − non-private grows slower than √T | %.2f ± %.2f | < %.2f | %s |\n", x.Row, x.EpsNames[e], fe.Slope, fe.SlopeSE, FlatSlope, v(fe.Slope < FlatSlope))
			} else {
				f := x.TailSlope[e]
				fmt.Fprintf(&b, "| %s | %s: regret sublinear, Õ(√T/ε) | %.2f ± %.2f | ≤ %.2f | %s |\n", x.Row, x.EpsNames[e], f.Slope, f.SlopeSE, SqrtSlopeHi, v(f.Slope <= SqrtSlopeHi))
				fmt.Fprintf(&b, "| %s | %s: privacy cost grows with T | %.2f ± %.2f | ≥ %.2f | %s |\n", x.Row, x.EpsNames[e], fe.Slope, fe.SlopeSE, FlatSlope, v(fe.Slope >= FlatSlope))
			}
		}
	}
	return b.String()
}
