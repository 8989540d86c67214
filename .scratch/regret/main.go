// Command regret compares SS18 LinUCB's pseudo-regret on simulated and
// secure (seeded) noise at Fig. 4's setting (d = 5, K = 25, ε = 1, δ = 0.1,
// padded trees), paired: repetition rep's environment is shared, and both
// modes draw from the same policy stream.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"sync"
	"time"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
	"github.com/dpbandits/dpbandits/dpb/ss18fig"
)

func main() {
	n := flag.Int("n", 1000000, "horizon")
	reps := flag.Int("reps", 10, "repetitions")
	gap := flag.Float64("gap", 0.1, "gap")
	workers := flag.Int("workers", 2, "workers")
	from := flag.Int("from", 0, "first repetition id")
	trees := flag.Bool("trees", false, "the tree variants only (Gaussian, GaussianExact)")
	flag.Parse()
	algs := []ss18.Alg{ss18.Gaussian, ss18.GaussianExact, ss18.GaussianHonaker, ss18.GaussianSmooth}
	if *trees {
		algs = algs[:2]
	}
	modes := []noise.Mode{noise.Simulated, noise.SecureSeeded}
	set := ss18.Setting{D: 5, N: *n, Epsilon: 1, Delta: 0.1, Lt2: 2}
	res := make([][]float64, *reps)
	var wg sync.WaitGroup
	jobs := make(chan int)
	var mu sync.Mutex
	for range *workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for rep := range jobs {
				start := time.Now()
				id := *from + rep
				env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 5, K: 25, Gap: *gap}, bandit.Stream(38, bandit.StreamID(id, 0)))
				if err != nil {
					panic(err)
				}
				var pols []bandit.Policy
				for p, a := range algs {
					for _, m := range modes {
						pol, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: a, Setting: set, Mode: counter.Padded, Noise: m}, bandit.Stream(38, bandit.StreamID(id, 1+p)))
						if err != nil {
							panic(err)
						}
						pols = append(pols, pol)
					}
				}
				out := make([]float64, len(pols))
				ss18fig.RegretLockstep(env, pols, *n, []int{*n}, out)
				mu.Lock()
				res[rep] = out
				fmt.Fprintf(os.Stderr, "rep %d done in %v: %v\n", rep, time.Since(start).Round(time.Second), out)
				mu.Unlock()
			}
		}()
	}
	for rep := range *reps {
		jobs <- rep
	}
	close(jobs)
	wg.Wait()
	fmt.Printf("n = %d, reps = %d, gap = %g (d = 5, K = 25, ε = 1, δ = 0.1, padded)\n", *n, *reps, *gap)
	for p, a := range algs {
		var ds, ss, cs []float64
		for _, o := range res {
			s, c := o[2*p], o[2*p+1]
			ss, cs, ds = append(ss, s), append(cs, c), append(ds, c-s)
		}
		md, sd := meanSD(ds)
		ms, _ := meanSD(ss)
		mc, _ := meanSD(cs)
		// 95 % t interval of the paired mean difference (t_{0.975, reps−1}).
		h := tq975(len(ds)-1) * sd / math.Sqrt(float64(len(ds)))
		fmt.Printf("%-18s simulated %10.1f  secure %10.1f  diff %+9.2f  95%% CI [%+.2f, %+.2f]  = %+.2f%% [%+.2f%%, %+.2f%%] of simulated\n",
			a, ms, mc, md, md-h, md+h, 100*md/ms, 100*(md-h)/ms, 100*(md+h)/ms)
	}
}

func meanSD(x []float64) (float64, float64) {
	var m float64
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	var s float64
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	if len(x) < 2 {
		return m, math.NaN()
	}
	return m, math.Sqrt(s / float64(len(x)-1))
}

func tq975(df int) float64 {
	t := []float64{math.NaN(), 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086}
	if df < len(t) {
		return t[df]
	}
	return 1.96
}
