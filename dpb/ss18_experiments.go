package dpb

import (
	"fmt"
	"io"
	"math"
)

// This file holds the drivers of SS18 Appendix D's experiments, callable from
// notebooks and from "dpb reproduce ss18-fig1..5". Each returns plain data;
// dpb/plot and the CLI draw it.

// DecisionSet is one round of [LinearEnv]: SS18 Figure 1's picture.
type DecisionSet struct {
	Config  LinearEnvConfig `json:"config"`
	Seed    uint64          `json:"seed"`
	Theta   []float64       `json:"theta"`
	Actions [][]float64     `json:"-"`
	Means   []float64       `json:"-"`
	Optimal int             `json:"optimal"`
}

// SS18DecisionSet draws round 1's decision set of a LinearEnv built from
// Stream(seed, StreamID(0, 0)) (SS18 Figure 1: d = 3, K = 1000, Δ = 0.1).
func SS18DecisionSet(cfg LinearEnvConfig, seed uint64) (*DecisionSet, error) {
	env, err := NewLinearEnv(cfg, Stream(seed, StreamID(0, 0)))
	if err != nil {
		return nil, err
	}
	r := NewRound(env)
	env.Next(r, 1)
	ds := &DecisionSet{Config: env.Config(), Seed: seed, Theta: env.Theta(), Optimal: env.OptimalArm()}
	for a := range env.Arms() {
		ds.Actions = append(ds.Actions, append([]float64(nil), r.Action(a)...))
		ds.Means = append(ds.Means, env.Mean(r, a))
	}
	return ds, nil
}

// mixSeed derives the seed of cell i of a sweep from the experiment's seed
// (SplitMix64 finaliser), so cells use unrelated streams.
func mixSeed(seed uint64, i int) uint64 {
	z := seed + 0x9e3779b97f4a7c15*uint64(i+1)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// LogDims returns k distinct integers log-spaced in [lo, hi] (SS18
// Experiment 1 uses 17 in [4, 64]); fewer if rounding merges some.
func LogDims(lo, hi, k int) []int {
	if k < 2 || lo >= hi {
		return []int{lo}
	}
	var ds []int
	for i := range k {
		d := int(math.Round(float64(lo) * math.Pow(float64(hi)/float64(lo), float64(i)/float64(k-1))))
		if len(ds) == 0 || d > ds[len(ds)-1] {
			ds = append(ds, d)
		}
	}
	return ds
}

// SS18Exp1Config configures [SS18Experiment1] (SS18 Appendix D.1: the
// dependence of non-private LinUCB's regret on d in gap instances).
type SS18Exp1Config struct {
	// Dims are the dimensions d ≥ 2; K = d² actions. Defaults to LogDims(4, 32, 7).
	// Paper: LogDims(4, 64, 17).
	Dims []int `json:"dims"`
	// Noises are the reward laws. Defaults to {GaussianReward, Rademacher} (both, as in the paper).
	Noises []RewardNoise `json:"noises"`
	// Horizon n. Defaults to 10⁴. Paper: 10⁵.
	Horizon int `json:"horizon"`
	// Reps is the number of runs per (noise, d). Defaults to 10. Paper: about 100.
	Reps int `json:"reps"`
	// Gap Δ. Defaults to 0.1 (the paper's value).
	Gap float64 `json:"gap"`
	// Lambda is the ridge regularizer ρ (H = ρI). Defaults to 1.
	Lambda float64 `json:"lambda"`
	// Points is the number of rounds at which regret is recorded. Defaults to 100.
	Points int `json:"points"`
	// Seed of the experiment; cell c (noise-major) uses seed mixSeed(Seed, c)
	// with the usual StreamID(rep, role) streams.
	Seed uint64 `json:"seed"`
	// Workers and Progress as in TrialConfig.
	Workers  int       `json:"-"`
	Progress io.Writer `json:"-"`
}

// SS18Exp1Result holds Experiment 1's curves and the log–log fits.
type SS18Exp1Result struct {
	Config SS18Exp1Config `json:"config"`
	// Curves[i] is the regret over time for Noises[i], one series per d ("d=4", …).
	Curves []*Curves `json:"curves"`
	// Total[i] is the total regret R̂_n against d for Noises[i] (X = d).
	Total []*Curves `json:"total"`
	// Slope[i], Intercept[i]: least-squares fit ln R̂_n = Intercept + Slope·ln d.
	Slope     []float64 `json:"slope"`
	Intercept []float64 `json:"intercept"`
}

// SS18Experiment1 runs non-private LinUCB (Ridge, H = λI) on the Appendix D
// environment for every (noise, d) and fits total regret against d on log–log
// axes (the paper reports a slope of about 2, Figure 3).
func SS18Experiment1(cfg SS18Exp1Config) (*SS18Exp1Result, error) {
	if cfg.Dims == nil {
		cfg.Dims = LogDims(4, 32, 7)
	}
	if cfg.Noises == nil {
		cfg.Noises = []RewardNoise{GaussianReward, Rademacher}
	}
	if cfg.Horizon == 0 {
		cfg.Horizon = 10000
	}
	if cfg.Reps == 0 {
		cfg.Reps = 10
	}
	if cfg.Gap == 0 {
		cfg.Gap = 0.1
	}
	if cfg.Lambda == 0 {
		cfg.Lambda = 1
	}
	if cfg.Points == 0 {
		cfg.Points = 100
	}
	if cfg.Horizon < 1 || cfg.Reps < 1 || cfg.Points < 1 {
		return nil, fmt.Errorf("dpb: experiment 1 needs horizon, reps and points >= 1 (got %d, %d, %d)", cfg.Horizon, cfg.Reps, cfg.Points)
	}
	for _, d := range cfg.Dims {
		if d < 2 {
			return nil, fmt.Errorf("dpb: experiment 1 dimension %d, must be >= 2", d)
		}
	}
	rec := LinGrid(cfg.Horizon, max(1, cfg.Horizon/cfg.Points))
	nd := len(cfg.Dims)
	cells := len(cfg.Noises) * nd
	// Validate every environment and policy configuration once, up front.
	for c := range cells {
		if _, _, err := exp1Cell(cfg, c, 0); err != nil {
			return nil, err
		}
	}
	out, err := RunTrials(TrialConfig{Reps: cfg.Reps, Series: cells, Points: len(rec), Workers: cfg.Workers, Progress: cfg.Progress},
		func(job Job, out []float64) error {
			env, pol, err := exp1Cell(cfg, job.Series, job.Rep)
			if err != nil {
				return err
			}
			RegretCurve(env, pol, cfg.Horizon, rec, out)
			return pol.Err()
		})
	if err != nil {
		return nil, err
	}
	x := make([]float64, len(rec))
	for i, t := range rec {
		x[i] = float64(t)
	}
	res := &SS18Exp1Result{Config: cfg}
	names := make([]string, nd)
	dx := make([]float64, nd)
	for i, d := range cfg.Dims {
		names[i] = fmt.Sprintf("d=%d", d)
		dx[i] = float64(d)
	}
	for ni, noise := range cfg.Noises {
		c := Summarise(names, x, out[ni*nd:(ni+1)*nd])
		res.Curves = append(res.Curves, c)
		tot := make([][][]float64, 1)
		tot[0] = make([][]float64, cfg.Reps)
		for rep := range cfg.Reps {
			tot[0][rep] = make([]float64, nd)
			for di := range nd {
				tot[0][rep][di] = out[ni*nd+di][rep][len(rec)-1]
			}
		}
		tc := Summarise([]string{noise.String()}, dx, tot)
		res.Total = append(res.Total, tc)
		slope, icept := LogLogFit(dx, tc.Mean[0])
		res.Slope = append(res.Slope, slope)
		res.Intercept = append(res.Intercept, icept)
	}
	return res, nil
}

// exp1Cell builds repetition rep's environment and policy for cell c.
func exp1Cell(cfg SS18Exp1Config, c, rep int) (Environment, *LinUCB, error) {
	nd := len(cfg.Dims)
	d, noise := cfg.Dims[c%nd], cfg.Noises[c/nd]
	seed := mixSeed(cfg.Seed, c)
	env, err := NewLinearEnv(LinearEnvConfig{Dim: d, K: d * d, Gap: cfg.Gap, Noise: noise}, Stream(seed, StreamID(rep, 0)))
	if err != nil {
		return nil, nil, err
	}
	reg, err := NewRidge(d, cfg.Lambda)
	if err != nil {
		return nil, nil, err
	}
	pol, err := NewLinUCB(LinUCBConfig{Dim: d, Horizon: cfg.Horizon, Regularizer: reg})
	if err != nil {
		return nil, nil, err
	}
	return env, pol, nil
}

// LogLogFit returns the least-squares line ln y = b + a ln x over the points
// with x, y > 0 (a = slope, b = intercept); NaN when fewer than two.
func LogLogFit(x, y []float64) (slope, intercept float64) {
	var n, sx, sy, sxx, sxy float64
	for i := range x {
		if x[i] <= 0 || y[i] <= 0 {
			continue
		}
		lx, ly := math.Log(x[i]), math.Log(y[i])
		n++
		sx += lx
		sy += ly
		sxx += lx * lx
		sxy += lx * ly
	}
	if n < 2 {
		return math.NaN(), math.NaN()
	}
	slope = (n*sxy - sx*sy) / (n*sxx - sx*sx)
	return slope, (sy - slope*sx) / n
}
