package check

import (
	"fmt"
	"math"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// KernelConfig sizes KernelsSameBits.
type KernelConfig struct {
	D, K   int    // dimension and actions per round (SS18 Appendix D sets, Δ = 0.1)
	Rounds int    // rounds per algorithm and kernel
	Seed   uint64 // one seed for every run
}

// KernelsSameBits runs SS18's loop (NonPrivate, Gaussian and Wishart
// LinUCB on Appendix D decision sets, padded tree at the horizon Rounds)
// once with every scoring kernel this CPU supports (simd.Kernels: AVX-512,
// AVX2, the portable Go loop) and the same seed, and compares each kernel's
// run with the Go loop's: the arm chosen in every round, the cumulative
// regret, and at the end θ̃, ln det V and β, all bit for bit. One verdict per
// algorithm; a round in which any kernel's choice or regret differs counts
// as a failure (α = 0: the kernels are one summation order, so nothing may
// differ). With one kernel (a CPU without AVX2) there is nothing to compare
// and every verdict passes with 0 trials. The kernel in use is restored.
func KernelsSameBits(cfg KernelConfig) (Verdicts, error) {
	if cfg.D < 2 || cfg.K < 1 || cfg.Rounds < 1 {
		return nil, fmt.Errorf("check: kernels: d = %d, K = %d, rounds = %d: need d ≥ 2, K ≥ 1, rounds ≥ 1", cfg.D, cfg.K, cfg.Rounds)
	}
	kernels := simd.Kernels()
	defer simd.SetKernel(simd.Kernel()) //nolint:errcheck // the kernel in use is always valid
	var out Verdicts
	for _, alg := range []ss18.Alg{ss18.NonPrivate, ss18.Gaussian, ss18.Wishart} {
		runs := make([]kernelRun, len(kernels))
		for i, k := range kernels {
			if err := simd.SetKernel(k); err != nil {
				return nil, err
			}
			r, err := runKernelLoop(cfg, alg)
			if err != nil {
				return nil, fmt.Errorf("check: kernels: %v with kernel %s: %w", alg, k, err)
			}
			runs[i] = r
		}
		ref := runs[len(runs)-1] // the Go loop is the slowest, listed last
		failures, trials := 0, 0
		var notes []string
		for i, r := range runs[:len(runs)-1] {
			trials += cfg.Rounds
			bad := 0
			for t := range cfg.Rounds {
				if r.arms[t] != ref.arms[t] || math.Float64bits(r.regret[t]) != math.Float64bits(ref.regret[t]) {
					bad++
				}
			}
			if !sameBits(r.final, ref.final) {
				bad = max(bad, 1)
			}
			failures += bad
			notes = append(notes, fmt.Sprintf("%s vs %s: %d of %d rounds differ", kernels[i], kernels[len(kernels)-1], bad, cfg.Rounds))
		}
		if len(runs) == 1 {
			notes = append(notes, "one kernel on this CPU: nothing to compare")
		}
		out = append(out, NewVerdict("kernels-same-bits-"+strings.ToLower(alg.String()),
			fmt.Sprintf("%v LinUCB at d = %d, K = %d: every scoring kernel chooses the same arms and gives the same regret, θ̃, ln det V and β, bit for bit", alg, cfg.D, cfg.K),
			"docs/design.md (one summation order for every kernel)", 0, trials, failures, 0, strings.Join(notes, "; ")))
	}
	return out, nil
}

type kernelRun struct {
	arms   []int
	regret []float64
	final  []float64 // θ̃, ln det V, β after the last round
}

func runKernelLoop(cfg KernelConfig, alg ss18.Alg) (kernelRun, error) {
	env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: cfg.D, K: cfg.K, Gap: 0.1}, bandit.Stream(cfg.Seed, bandit.StreamID(0, 0)))
	if err != nil {
		return kernelRun{}, err
	}
	p, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: alg, Setting: ss18.Setting{D: cfg.D, N: cfg.Rounds, Epsilon: 1, Delta: 0.1, Lt2: 2}, Mode: counter.Padded, Noise: noise.Simulated},
		bandit.Stream(cfg.Seed, bandit.StreamID(0, 1)))
	if err != nil {
		return kernelRun{}, err
	}
	run := kernelRun{arms: make([]int, cfg.Rounds), regret: make([]float64, cfg.Rounds)}
	r := bandit.NewRound(env)
	var regret float64
	for t := 1; t <= cfg.Rounds; t++ {
		env.Next(r, t)
		a := p.Choose(r)
		regret += env.BestMean(r) - env.Mean(r, a)
		p.Update(r, a, env.Reward(r, a))
		run.arms[t-1], run.regret[t-1] = a, regret
	}
	if err := p.Err(); err != nil {
		return kernelRun{}, err
	}
	run.final = append(p.ThetaTo(nil), p.LogDetV(), p.Radius())
	return run, nil
}

func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}
