package dpb_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/mab"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

type privPolicy interface {
	bandit.Policy
	Privacy() bandit.Privacy
}

// playLinear runs pol for n rounds of k random actions in the unit ball of
// R^d with Bernoulli-free linear rewards and returns the actions.
func playLinear(pol bandit.Policy, n, k, d int, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 7))
	r := &bandit.Round{K: k, Dim: d, Actions: make([]float64, k*d)}
	acts := make([]int, n)
	for t := 1; t <= n; t++ {
		r.T = t
		for i := range r.Actions {
			r.Actions[i] = (2*rng.Float64() - 1) / float64(d)
		}
		a := pol.Choose(r)
		acts[t-1] = a
		pol.Update(r, a, rng.Float64())
	}
	return acts
}

// TestSecureEveryMechanism runs every mechanism that has a secure mode on
// the secure sampler with seeded bits: it plays, reproduces bit for bit
// from its seed, and its Privacy names the noise; the same policy on
// simulated noise says its guarantee is not release-grade (the negative
// control of the noise field). The Wishart variants, which have no secure
// sampler, refuse secure noise with an error that says so.
func TestSecureEveryMechanism(t *testing.T) {
	set := ss18.Setting{D: 3, N: 256, Epsilon: 1, Delta: 1e-5, Lt2: 2}
	mk := map[string]func(noise.Mode, *rand.Rand) (privPolicy, error){}
	for _, alg := range []ss18.Alg{ss18.Gaussian, ss18.GaussianExact, ss18.GaussianHonaker, ss18.GaussianSmooth,
		ss18.GaussianSqrt, ss18.GaussianBLT, ss18.GaussianBLTSharp, ss18.GaussianBLTRound, ss18.GaussianBLTRoundMinEig} {
		mk["ss18-"+alg.String()] = func(m noise.Mode, rng *rand.Rand) (privPolicy, error) {
			return ss18.NewPolicy(ss18.PolicyConfig{Alg: alg, Setting: set, Noise: m}, rng)
		}
	}
	for _, kind := range []counter.Kind{counter.Tree, counter.Honaker, counter.Smooth, counter.Kary} {
		mk["dpucb-"+kind.String()] = func(m noise.Mode, rng *rand.Rand) (privPolicy, error) {
			return mt14.NewDPUCB(mt14.DPUCBConfig{Arms: 3, Horizon: 256, Epsilon: 1, Counter: kind, Noise: m}, rng)
		}
	}
	mk["dpse"] = func(m noise.Mode, rng *rand.Rand) (privPolicy, error) {
		return mab.NewDPSE(mab.DPSEConfig{Arms: 3, Horizon: 256, Epsilon: 1, Noise: m}, rng)
	}
	mk["adap"] = func(m noise.Mode, rng *rand.Rand) (privPolicy, error) {
		return mab.NewAdaP(mab.AdaPConfig{Arms: 3, Epsilon: 1, Noise: m}, rng)
	}
	mk["dpkl"] = func(m noise.Mode, rng *rand.Rand) (privPolicy, error) {
		return mab.NewDPKL(mab.DPKLConfig{Arms: 3, Epsilon: 1, Noise: m}, rng)
	}
	mk["lazydpts"] = func(m noise.Mode, rng *rand.Rand) (privPolicy, error) {
		return mab.NewLazyDPTS(mab.LazyDPTSConfig{Arms: 3, Epsilon: 1, Noise: m}, rng)
	}
	for name, f := range mk {
		run := func(m noise.Mode) ([]int, bandit.Privacy) {
			pol, err := f(m, bandit.Stream(38, 1))
			if err != nil {
				t.Fatalf("%s %v: %v", name, m, err)
			}
			d := 3
			if !strings.HasPrefix(name, "ss18") {
				d = 1
			}
			return playLinear(pol, 256, 3, d, 1), pol.Privacy()
		}
		a1, p1 := run(noise.SecureSeeded)
		a2, _ := run(noise.SecureSeeded)
		for i := range a1 {
			if a1[i] != a2[i] {
				t.Errorf("%s: secure-seeded runs differ at round %d", name, i+1)
				break
			}
		}
		if p1.Noise != "secure-seeded" || !strings.Contains(p1.String(), "seeded bits") || p1.ReleaseGrade() {
			t.Errorf("%s: secure-seeded privacy %q (noise %q)", name, p1, p1.Noise)
		}
		_, ps := run(noise.Simulated)
		if ps.Noise != "simulated" || !strings.Contains(ps.String(), "not a release-grade guarantee") || ps.ReleaseGrade() {
			t.Errorf("%s: simulated privacy %q (noise %q)", name, ps, ps.Noise)
		}
		pol, err := f(noise.Secure, bandit.Stream(38, 1))
		if err != nil {
			t.Fatal(err)
		}
		if p := pol.Privacy(); p.Noise != "secure" || !p.ReleaseGrade() {
			t.Errorf("%s: secure privacy %q", name, p)
		}
	}
	for _, alg := range []ss18.Alg{ss18.Wishart, ss18.WishartTight} {
		_, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: alg, Setting: set, Noise: noise.Secure}, bandit.Stream(1, 1))
		if err == nil || !strings.Contains(err.Error(), "secure") {
			t.Errorf("%v secure: error %v", alg, err)
		}
	}
}

// TestSecureFTRLCounter runs the (ε, δ) DP-FTRL on the Honaker, square-root
// and BLT counters with secure noise: its predictions reproduce from the
// seed and differ from the simulated run's (the sampler is in use).
func TestSecureFTRLCounter(t *testing.T) {
	for _, kind := range []counter.Kind{counter.Honaker, counter.Sqrt, counter.BLT} {
		testSecureFTRLCounter(t, kind)
	}
}

func testSecureFTRLCounter(t *testing.T, kind counter.Kind) {
	run := func(m noise.Mode) ([]float64, bandit.Privacy) {
		f, err := as17.NewFTRL(as17.FTRLConfig{Set: as17.Ball, Dim: 3, Horizon: 64, Epsilon: 1, Delta: 1e-5, Counter: kind, Noise: m}, bandit.Stream(38, 2))
		if err != nil {
			t.Fatal(err)
		}
		var out []float64
		for s := range 64 {
			out = append(out, f.Predict(nil)...)
			if err := f.Observe([]float64{float64(s%3) / 3, 0, -0.5}); err != nil {
				t.Fatal(err)
			}
		}
		return out, f.Privacy()
	}
	a, p := run(noise.SecureSeeded)
	b, _ := run(noise.SecureSeeded)
	c, _ := run(noise.Simulated)
	same, diff := true, false
	for i := range a {
		same = same && a[i] == b[i]
		diff = diff || a[i] != c[i]
	}
	if !same || !diff || p.Noise != "secure-seeded" {
		t.Errorf("%v: reproducible %v, differs from simulated %v, noise %q", kind, same, diff, p.Noise)
	}
}
