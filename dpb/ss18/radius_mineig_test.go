package ss18

import (
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"gonum.org/v1/gonum/mat"
)

// TestRadiusMinEig: λ_t never exceeds λ_min(V_t) (gonum's eigenvalues), the
// RadiusMinEig radius never exceeds RadiusLogDet's and is strictly below it
// once the tightening binds, a MinEig variant is its base variant with that
// radius (same regularizer and noise: same V_t), and the round allocates
// nothing. Deterministic: fixed seeds.
func TestRadiusMinEig(t *testing.T) {
	const d, k, n = 3, 9, 3000
	for _, alg := range []Alg{NonPrivate, GaussianBLTRound, WishartTight} {
		e, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: d, K: k, Gap: 0.1}, bandit.Stream(1, 0))
		if err != nil {
			t.Fatal(err)
		}
		set := Setting{D: d, N: n, Epsilon: 1, Delta: 0.1, Lt2: 2}
		pol, err := NewPolicy(PolicyConfig{Alg: alg, Setting: set, Mode: counter.Padded, Noise: noise.Simulated}, bandit.Stream(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		var twin *LinUCB
		if me, ok := map[Alg]Alg{GaussianBLTRound: GaussianBLTRoundMinEig, WishartTight: WishartTightMinEig}[alg]; ok {
			if twin, err = NewPolicy(PolicyConfig{Alg: me, Setting: set, Mode: counter.Padded, Noise: noise.Simulated}, bandit.Stream(1, 1)); err != nil {
				t.Fatal(err)
			}
		}
		r := bandit.NewRound(e)
		v := make([]float64, d*d)
		var es mat.EigenSym
		below := 0
		for tt := 1; tt <= n; tt++ {
			e.Next(r, tt)
			pol.VTo(v)
			if !es.Factorize(mat.NewSymDense(d, v), false) {
				t.Fatal("eigen")
			}
			if lam, lo := es.Values(nil)[0], pol.MinEigLower(); lo > lam*(1+1e-12) && lo > pol.Bounds().RhoMin {
				t.Fatalf("%v t=%d: λ_t = %v above λ_min(V_t) = %v", alg, tt, lo, lam)
			}
			re, rl := pol.RadiusMinEig(), pol.Radius()
			if re > rl*(1+1e-12) {
				t.Fatalf("%v t=%d: RadiusMinEig %v above RadiusLogDet %v", alg, tt, re, rl)
			}
			if re < rl*(1-1e-9) {
				below++
			}
			if twin != nil {
				if got := twin.Radius(); got != re {
					t.Fatalf("%v t=%d: MinEig variant's β_t %v, want %v", alg, tt, got, re)
				}
				if twin.LogDetV() != pol.LogDetV() {
					t.Fatalf("%v t=%d: MinEig variant's V_t differs", alg, tt)
				}
			}
			a := pol.Choose(r)
			pol.Update(r, a, e.Reward(r, a))
			if twin != nil {
				// the twin plays its own choice but learns the same data as pol
				// only through its own tree; feed it pol's observation to keep
				// V_t equal (the radius is all that differs).
				twin.Update(r, a, e.Reward(r, a))
			}
		}
		if below == 0 && alg != WishartTight { // the Wishart's ρ are far above λ_min(V_t) at this n
			t.Errorf("%v: the tightening never binds in %d rounds", alg, n)
		}
		t.Logf("%v: RadiusMinEig below RadiusLogDet in %d of %d rounds; last ratio %.3f", alg, below, n, pol.RadiusMinEig()/pol.Radius())
	}
}

func TestRadiusMinEigAllocs(t *testing.T) {
	e, _ := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: 5, K: 25, Gap: 0.1}, bandit.Stream(2, 0))
	pol, err := NewPolicy(PolicyConfig{Alg: GaussianBLTRoundMinEig, Setting: Setting{D: 5, N: 10000, Epsilon: 1, Delta: 0.1, Lt2: 2}, Mode: counter.Padded, Noise: noise.Simulated}, bandit.Stream(2, 1))
	if err != nil {
		t.Fatal(err)
	}
	r := bandit.NewRound(e)
	tt := 0
	step := func() {
		tt++
		e.Next(r, tt)
		a := pol.Choose(r)
		pol.Update(r, a, e.Reward(r, a))
	}
	for range 100 {
		step()
	}
	if a := testing.AllocsPerRun(200, step); a != 0 {
		t.Errorf("%v allocations per round", a)
	}
}
