package check

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// BandResult compares the sub-optimal actions of SS18 Appendix D's
// environment with their exact law. For x uniform on the sphere band
// {‖x‖ = 1, ⟨x, θ*⟩ ∈ [lo, hi]} the component u = ⟨x, θ*⟩ has the law of
// 2B − 1, B ~ Beta((d−1)/2, (d−1)/2), conditioned on u ∈ [lo, hi] (see
// bandSampler); for d = 3 it is uniform on [lo, hi] (Archimedes).
type BandResult struct {
	Dim     int     `json:"dim"`
	Lo      float64 `json:"lo"`
	Hi      float64 `json:"hi"`
	Rounds  int     `json:"rounds"`
	Samples int     `json:"samples"`
	// KS is the Kolmogorov–Smirnov distance sup_u |F̂(u) − F(u)| of the
	// samples' u, recomputed from the action vectors, to the exact law.
	KS float64 `json:"ks"`
	// Tol is the DKW–Massart threshold c/√N with 2exp(−2c²) = 1e-5: an exact
	// sampler exceeds it with probability ≤ 1e-5.
	Tol float64 `json:"tol"`
	// MaxNormErr is max |‖x‖ − 1| over the samples.
	MaxNormErr float64 `json:"max_norm_err"`
	// Edges are the Bins+1 bin edges over [Lo, Hi]; Empirical and Exact the
	// histogram's density per bin and the exact law's mean density there.
	Edges     []float64 `json:"edges"`
	Empirical []float64 `json:"empirical"`
	Exact     []float64 `json:"exact"`
}

// bandKSC solves 2·exp(−2c²) = 1e-5 (Dvoretzky–Kiefer–Wolfowitz–Massart).
var bandKSC = math.Sqrt(xmath.Log(2/1e-5) / 2)

// Band draws rounds decision sets of NewLinearEnv(cfg) built from
// Stream(seed, StreamID(0, 0)) and compares the sub-optimal actions'
// ⟨x, θ*⟩ with the exact truncated Beta law (SS18 Appendix D), with a
// histogram of bins bins.
func Band(cfg dpenv.LinearEnvConfig, seed uint64, rounds, bins int) (*BandResult, error) {
	if rounds < 1 || bins < 1 {
		return nil, fmt.Errorf("check: band check needs rounds and bins >= 1 (got %d, %d)", rounds, bins)
	}
	env, err := dpenv.NewLinearEnv(cfg, bandit.Stream(seed, bandit.StreamID(0, 0)))
	if err != nil {
		return nil, err
	}
	lo, hi := env.Band()
	theta := env.Theta()
	c := &BandResult{Dim: cfg.Dim, Lo: lo, Hi: hi, Rounds: rounds}
	r := bandit.NewRound(env)
	var us []float64
	for t := 1; t <= rounds; t++ {
		env.Next(r, t)
		for a := range env.Arms() {
			if a == env.OptimalArm() {
				continue
			}
			var u, s float64
			for i, v := range r.Action(a) {
				u += float64(v * theta[i])
				s += float64(v * v)
			}
			c.MaxNormErr = math.Max(c.MaxNormErr, math.Abs(math.Sqrt(s)-1))
			us = append(us, u)
		}
	}
	c.Samples = len(us)
	if c.Samples == 0 {
		return nil, fmt.Errorf("check: band check drew no sub-optimal action (K = %d)", cfg.K)
	}
	cdf := func(u float64) float64 {
		return env.BandCDF(math.Min(math.Max(u, lo), hi))
	}
	sort.Float64s(us)
	n := float64(len(us))
	for i, u := range us {
		f := cdf(u)
		c.KS = math.Max(c.KS, math.Max(float64(i+1)/n-f, f-float64(i)/n))
	}
	c.Tol = bandKSC / math.Sqrt(n)
	w := (hi - lo) / float64(bins)
	counts := make([]float64, bins)
	for _, u := range us {
		k := min(bins-1, max(0, int((u-lo)/w)))
		counts[k]++
	}
	for k := range bins {
		a, z := lo+float64(float64(k)*w), lo+float64(float64(k+1)*w)
		if k == bins-1 {
			z = hi
		}
		c.Edges = append(c.Edges, a)
		c.Empirical = append(c.Empirical, counts[k]/(n*(z-a)))
		c.Exact = append(c.Exact, (cdf(z)-cdf(a))/(z-a))
	}
	c.Edges = append(c.Edges, hi)
	return c, nil
}

// Pass reports whether the KS distance is within Tol and every action has
// unit norm (to 1e-9).
func (c *BandResult) Pass() bool { return c.KS <= c.Tol && c.MaxNormErr <= 1e-9 }

// Markdown returns the verdict and the histogram as markdown tables.
func (c *BandResult) Markdown() string {
	var sb strings.Builder
	status := "PASS"
	if !c.Pass() {
		status = FailedMarker
	}
	fmt.Fprintf(&sb, "| d | band [lo, hi] | rounds | samples | KS distance | DKW bound (1e-5) | max \\|‖x‖−1\\| | verdict |\n|---|---|---|---|---|---|---|---|\n")
	fmt.Fprintf(&sb, "| %d | [%.3g, %.3g] | %d | %d | %.4f | %.4f | %.1e | %s |\n\n", c.Dim, c.Lo, c.Hi, c.Rounds, c.Samples, c.KS, c.Tol, c.MaxNormErr, status)
	fmt.Fprintf(&sb, "| bin of ⟨x, θ*⟩ | empirical density | exact density | ratio |\n|---|---|---|---|\n")
	for k := range c.Empirical {
		fmt.Fprintf(&sb, "| [%.3f, %.3f) | %.4f | %.4f | %.3f |\n", c.Edges[k], c.Edges[k+1], c.Empirical[k], c.Exact[k], c.Empirical[k]/c.Exact[k])
	}
	return sb.String()
}
