package ss18fig

import (
	"fmt"
	"math"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// CounterNoiseResult is the per-round noise of every continual counter at a
// fixed privacy target, against the horizon (the beyond-counters
// figure): for unit ℓ2 sensitivity and Gaussian node noise calibrated
// exactly to (ε, δ) (σ = √Cost.L2Sq/μ(ε, δ), [accounting.GaussianSigma]),
// the largest and the mean per-round noise standard deviation σ√V_t.
type CounterNoiseResult struct {
	Epsilon  float64                 `json:"epsilon"`
	Delta    float64                 `json:"delta"`
	Mu       float64                 `json:"mu"`
	Profiles [][]counter.Profile     `json:"profiles"` // [kind][n]
	MaxStd   *harness.Curves         `json:"max_std"`  // X = n, one series per counter
	MeanStd  *harness.Curves         `json:"mean_std"` // X = n
	Kinds    []counter.Kind          `json:"-"`
	Ratio    map[string][][2]float64 `json:"ratio_to_tree"` // kind → per n: (max, mean) variance / plain tree's
}

// CounterNoise computes [CounterNoiseResult] exactly (no sampling) for
// every counter of [counter.Kinds] at each horizon in ns.
func CounterNoise(eps, delta float64, ns []int) (*CounterNoiseResult, error) {
	if _, err := accounting.GaussianSigma(eps, delta, 1); err != nil {
		return nil, err
	}
	mu := accounting.GDPMu(eps, delta)
	kinds := counter.Kinds
	r := &CounterNoiseResult{Epsilon: eps, Delta: delta, Mu: mu, Kinds: kinds, Ratio: map[string][][2]float64{}}
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.String()
	}
	x := make([]float64, len(ns))
	for j, n := range ns {
		x[j] = float64(n)
	}
	r.MaxStd = &harness.Curves{Names: names, X: x}
	r.MeanStd = &harness.Curves{Names: names, X: x}
	for _, k := range kinds {
		row := make([]counter.Profile, len(ns))
		mx, mn := make([]float64, len(ns)), make([]float64, len(ns))
		for j, n := range ns {
			p, err := counter.ProfileOf(k, n)
			if err != nil {
				return nil, fmt.Errorf("%v at n=%d: %w", k, n, err)
			}
			row[j] = p
			mx[j] = math.Sqrt(p.MaxAtPrivacy()) / mu
			mn[j] = math.Sqrt(p.MeanAtPrivacy()) / mu
		}
		r.Profiles = append(r.Profiles, row)
		r.MaxStd.Mean = append(r.MaxStd.Mean, mx)
		r.MeanStd.Mean = append(r.MeanStd.Mean, mn)
		r.MaxStd.StdErr = append(r.MaxStd.StdErr, make([]float64, len(ns)))
		r.MeanStd.StdErr = append(r.MeanStd.StdErr, make([]float64, len(ns)))
	}
	base := r.Profiles[0] // counter.Kinds[0] is the plain tree
	for i, k := range kinds {
		rs := make([][2]float64, len(ns))
		for j := range ns {
			rs[j] = [2]float64{r.Profiles[i][j].MaxAtPrivacy() / base[j].MaxAtPrivacy(), r.Profiles[i][j].MeanAtPrivacy() / base[j].MeanAtPrivacy()}
		}
		r.Ratio[k.String()] = rs
	}
	return r, nil
}

// RegretRatio is one variant's final regret over the non-private one's.
type RegretRatio struct {
	Alg    string  `json:"alg"`
	Gap    float64 `json:"gap"`
	Regret float64 `json:"regret"`
	SE     float64 `json:"se"`
	Ratio  float64 `json:"ratio"`
	// RatioSE is the delta-method standard error of Ratio, treating the two
	// means as independent (conservative: the variants share environments,
	// which correlates them positively).
	RatioSE float64 `json:"ratio_se"`
}

// RegretRatios returns, for each gap and variant of an Experiment 2 result
// whose first variant is NonPrivate, the final regret and its ratio to
// NonPrivate's.
func RegretRatios(res *Exp2Result) ([]RegretRatio, error) {
	if len(res.Config.Algs) == 0 || res.Config.Algs[0] != ss18.NonPrivate {
		return nil, fmt.Errorf("ss18fig: regret ratios need NonPrivate as the first variant")
	}
	var out []RegretRatio
	for g, c := range res.Curves {
		last := len(c.X) - 1
		b, bse := c.Mean[0][last], c.StdErr[0][last]
		for i, name := range c.Names {
			a, ase := c.Mean[i][last], c.StdErr[i][last]
			r := a / b
			out = append(out, RegretRatio{Alg: name, Gap: res.Config.Gaps[g], Regret: a, SE: ase, Ratio: r,
				RatioSE: r * math.Sqrt(xmath.Pow(ase/a, 2)+xmath.Pow(bse/b, 2))})
		}
	}
	return out, nil
}

// PairedDiff is the mean over runs of one variant's final regret minus a
// baseline's in the same run (the same environment, rewards and noise draws:
// common random numbers), with its standard error s_D/√R.
type PairedDiff struct {
	Alg      string  `json:"alg"`
	Baseline string  `json:"baseline"`
	Gap      float64 `json:"gap"`
	Diff     float64 `json:"diff"`
	SE       float64 `json:"se"`
	// RelDiff is Diff over the baseline's mean final regret.
	RelDiff float64 `json:"rel_diff"`
	Runs    int     `json:"runs"`
}

// PairedDiffs returns, for each gap, every variant of res against the
// variant named baseline, run by run (see [PairedDiff]); an error if the
// baseline is not among res's variants or res keeps no per-run finals.
func PairedDiffs(res *Exp2Result, baseline ss18.Alg) ([]PairedDiff, error) {
	b := -1
	for i, a := range res.Config.Algs {
		if a == baseline {
			b = i
		}
	}
	if b < 0 {
		return nil, fmt.Errorf("ss18fig: paired differences: baseline %v not among the variants %v", baseline, res.Config.Algs)
	}
	if len(res.Finals) != len(res.Config.Gaps) {
		return nil, fmt.Errorf("ss18fig: paired differences need the per-run finals (%d gaps, finals for %d)", len(res.Config.Gaps), len(res.Finals))
	}
	var out []PairedDiff
	for g, fin := range res.Finals {
		base := fin[b]
		var bm float64
		for _, v := range base {
			bm += v
		}
		bm /= float64(len(base))
		for i, a := range res.Config.Algs {
			n := len(fin[i])
			var m, ss float64
			for r := range n {
				m += fin[i][r] - base[r]
			}
			m /= float64(n)
			for r := range n {
				e := fin[i][r] - base[r] - m
				ss += float64(e * e)
			}
			se := 0.0
			if n > 1 {
				se = math.Sqrt(ss / float64(n-1) / float64(n))
			}
			out = append(out, PairedDiff{Alg: a.String(), Baseline: baseline.String(), Gap: res.Config.Gaps[g], Diff: m, SE: se, RelDiff: m / bm, Runs: n})
		}
	}
	return out, nil
}

// CounterSimulation compares a counter's reported per-round variance with
// the empirical one: the counter runs once on zero data with N(0, 1) node
// noise of dimension reps (each coordinate an independent replicate), and
// Empirical[t−1] is the mean square of the release's noise at round t.
type CounterSimulation struct {
	Kind      counter.Kind `json:"kind"`
	N, Reps   int
	Reported  []float64 `json:"reported"`
	Empirical []float64 `json:"empirical"`
	// MaxZ is the largest |empirical − reported| / (reported √(2/reps)) over
	// the rounds: the deviation in standard errors of a sample variance.
	MaxZ float64 `json:"max_z"`
	// MeanRatio is mean empirical / mean reported over the rounds.
	MeanRatio float64 `json:"mean_ratio"`
}

// SimulateCounter runs [CounterSimulation] for a counter kind with the
// seed's stream.
func SimulateCounter(kind counter.Kind, n, reps int, seed uint64) (*CounterSimulation, error) {
	nz, err := noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Simulated, Dim: reps, Sigma: 1}, bandit.Stream(seed, uint64(kind)))
	if err != nil {
		return nil, err
	}
	c, err := counter.New(counter.Config{Kind: kind, Dim: reps, Horizon: n, Noise: nz})
	if err != nil {
		return nil, err
	}
	s := &CounterSimulation{Kind: kind, N: n, Reps: reps, Reported: make([]float64, n), Empirical: make([]float64, n)}
	zero := make([]float64, reps)
	buf := make([]float64, reps)
	var se, sr float64
	for t := 1; t <= n; t++ {
		c.Add(zero)
		c.NoiseTo(buf)
		var q float64
		for _, x := range buf {
			q += float64(x * x)
		}
		e, r := q/float64(reps), c.VarianceAt(t)
		s.Empirical[t-1], s.Reported[t-1] = e, r
		s.MaxZ = math.Max(s.MaxZ, math.Abs(e-r)/(r*math.Sqrt(2/float64(reps))))
		se += e
		sr += r
	}
	s.MeanRatio = se / sr
	return s, nil
}
