package check

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// Lemma43Config configures [Lemma43].
type Lemma43Config struct {
	// Bandit runs EXP2 (Algorithm 5) on the noisy feedback; otherwise Hedge
	// (non-private FTRL on the simplex) on the noisy loss vectors.
	Bandit bool
	// Arms N >= 2 and Horizon T >= 2. Required.
	Arms, Horizon int
	// Lambda is the Laplace scale of Z_t ~ Lap^N(λ). Required (> 0).
	Lambda float64
	// Kind of the true loss sequence. Defaults to Stochastic.
	Kind as17.LossKind
	// Reps repetitions. Required.
	Reps int
	Seed uint64
	// RunOptions: workers, progress bar and plan (see harness.RunOptions).
	harness.RunOptions
}

// Lemma43Result holds the means (and standard errors) over repetitions of
// the regret against x* on the true losses, on the noisy losses, and of
// their paired difference Σ_t ⟨Z_t, x* − x̃_t⟩; Z = Diff/DiffSE.
type Lemma43Result struct {
	TrueRegret, TrueSE   float64
	NoisyRegret, NoisySE float64
	Diff, DiffSE, Z      float64
	Reps                 int
}

// Lemma43 checks AS17 Lemma 4.3 by simulation: a learner fed l̃_t = l_t + Z_t
// (Z_t independent, zero mean) has, in expectation, the same regret against a
// fixed x* on the true and on the noisy losses. x* is the best fixed decision
// for the true losses (fixed before the noise is drawn). The learner's
// parameters are those of Theorem 4.1 (EXP2, ε = 1/λ) or FTRLEta (Hedge).
func Lemma43(cfg Lemma43Config) (*Lemma43Result, error) {
	if cfg.Arms < 2 || cfg.Horizon < 2 || cfg.Reps < 2 {
		return nil, fmt.Errorf("check: Lemma43 needs arms >= 2, horizon >= 2, reps >= 2")
	}
	if err := param.CheckPositive("lambda", cfg.Lambda); err != nil {
		return nil, err
	}
	n, T := cfg.Arms, cfg.Horizon
	out, err := harness.RunTrials(harness.TrialConfig{Reps: cfg.Reps, Series: 1, Points: 3, RunOptions: harness.RunOptions{Workers: cfg.Workers}},
		func(job harness.Job, out []float64) error {
			losses, err := as17.NewLosses(as17.LossConfig{Set: as17.Simplex, Dim: n, Kind: cfg.Kind, Horizon: T}, bandit.Stream(cfg.Seed, bandit.StreamID(job.Rep, 0)))
			if err != nil {
				return err
			}
			ls := make([]float64, T*n)
			cum := make([]float64, n)
			for t := 1; t <= T; t++ {
				l := ls[(t-1)*n : t*n]
				losses.Next(t, l)
				for i, v := range l {
					cum[i] += v
				}
			}
			star := 0
			for i, v := range cum {
				if v < cum[star] {
					star = i
				}
			}
			rng := bandit.Stream(cfg.Seed, bandit.StreamID(job.Rep, 1))
			nz := bandit.Stream(cfg.Seed, bandit.StreamID(job.Rep, 2))
			z := make([]float64, n)
			x := make([]float64, n)
			var trueR, noisyR float64
			if cfg.Bandit {
				e, err := as17.NewExp2(as17.Exp2Config{Arms: n, Horizon: T, Epsilon: 1 / cfg.Lambda}, rng)
				if err != nil {
					return err
				}
				for t := 0; t < T; t++ {
					l := ls[t*n : (t+1)*n]
					e.Play(x)
					for i := range z {
						z[i] = noise.Laplace(nz, cfg.Lambda)
					}
					i := e.Arm()
					trueR += l[i] - l[star]
					noisyR += l[i] + z[i] - l[star] - z[star]
					if err := e.Feedback(l[i] + z[i]); err != nil {
						return err
					}
				}
			} else {
				eta := as17.FTRLEta(as17.Simplex, n, T)
				L := make([]float64, n)
				for t := 0; t < T; t++ {
					l := ls[t*n : (t+1)*n]
					as17.FTRLArgminTo(as17.Simplex, x, L, eta)
					for i := range z {
						z[i] = noise.Laplace(nz, cfg.Lambda)
					}
					for i, v := range l {
						trueR += float64(v * x[i])
						noisyR += float64((v + z[i]) * x[i])
						L[i] += v + z[i]
					}
					trueR -= l[star]
					noisyR -= l[star] + z[star]
				}
			}
			out[0], out[1], out[2] = trueR, noisyR, trueR-noisyR
			return nil
		})
	if err != nil {
		return nil, err
	}
	c := harness.Summarise([]string{"lemma43"}, []float64{0, 1, 2}, out)
	m, se := c.Mean[0], c.StdErr[0]
	r := &Lemma43Result{TrueRegret: m[0], TrueSE: se[0], NoisyRegret: m[1], NoisySE: se[1], Diff: m[2], DiffSE: se[2], Reps: cfg.Reps}
	r.Z = r.Diff / r.DiffSE
	return r, nil
}
