package crosstest

import (
	"math"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// The privacy reports: the tree regularizers state the setting's (ε, δ) and
// their calibration, Ridge and NoNoise are not private, a Wishart k below the
// calibration voids the guarantee.
func TestPrivacyReports(t *testing.T) {
	set := ss18.Setting{D: 3, N: 1000, Epsilon: 0.5, Delta: 0.01, Lt2: 2}
	for _, alg := range ss18.Algs {
		p, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: alg, Setting: set, Noise: noise.Simulated}, bandit.Stream(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		pr := p.Privacy()
		if alg == ss18.NonPrivate {
			if pr.Private || !math.IsInf(pr.Epsilon, 1) {
				t.Errorf("%v: %v", alg, pr)
			}
			continue
		}
		if !pr.Private || pr.Epsilon != 0.5 || pr.Delta != 0.01 || !strings.Contains(pr.Accounting, "m = 11") {
			t.Errorf("%v: %v", alg, pr)
		}
	}
	kt, err := set.WishartKTight()
	if err != nil {
		t.Fatal(err)
	}
	wAny, err := ss18.NewRegularizer(ss18.RegularizerConfig{Kind: ss18.RegWishartTree, Setting: set, K: kt - 1, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	w := wAny.(*ss18.TreeRegularizer)
	if pr := w.Privacy(); !math.IsInf(pr.Epsilon, 1) {
		t.Errorf("Wishart with k below the tight calibration: %v", pr)
	}
	wAny, _ = ss18.NewRegularizer(ss18.RegularizerConfig{Kind: ss18.RegWishartTree, Setting: set, K: kt, Noise: noise.Simulated}, bandit.Stream(1, 1))
	w = wAny.(*ss18.TreeRegularizer)
	if pr := w.Privacy(); pr.Epsilon != set.Epsilon || !strings.Contains(pr.Accounting, "optimal composition") {
		t.Errorf("Wishart with the tight k: %v", pr)
	}
	u, _ := mt14.NewDPUCB(mt14.DPUCBConfig{Arms: 2, Horizon: 100, Epsilon: 2, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if pr := u.Privacy(); !pr.Private || pr.Epsilon != 2 || pr.Delta != 0 {
		t.Errorf("DP-UCB: %v", pr)
	}
	z, _ := mt14.NewDPUCB(mt14.DPUCBConfig{Arms: 2, Horizon: 100, Epsilon: 2, NoNoise: true, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if z.Privacy().Private {
		t.Errorf("DP-UCB without noise reported private")
	}
}

func TestContextualUCBPrivacy(t *testing.T) {
	for _, m := range []mt14.ContextMechanism{mt14.ContextNonPrivate, mt14.ContextEntryTrees, mt14.ContextSS18Tree} {
		p, err := mt14.NewContextualUCB(mt14.ContextualUCBConfig{Dim: 3, Arms: 2, Horizon: 100, Mechanism: m, Epsilon: 0.7, Noise: noise.Simulated}, bandit.Stream(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		pr := p.Privacy()
		if private := m != mt14.ContextNonPrivate; pr.Private != private || (private && (pr.Epsilon != 0.7 || pr.Delta != 0)) {
			t.Errorf("%v: %v", m, pr)
		}
	}
}

// Every SS18 variant and every DP-UCB counter reports its privacy: the
// setting's (ε, δ) for the private ones (the tight-k Wishart and the exactly
// calibrated Gaussian counters included), none for NonPrivate.
func TestPrivacyEveryVariant(t *testing.T) {
	set := ss18.Setting{D: 3, N: 1000, Epsilon: 0.5, Delta: 0.01, Lt2: 2}
	for a := ss18.NonPrivate; a <= ss18.WishartTight; a++ {
		p, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: a, Setting: set, Mode: counter.Padded, Noise: noise.Simulated}, bandit.Stream(1, 1))
		if err != nil {
			t.Fatalf("%v: %v", a, err)
		}
		pr := p.Privacy()
		if a == ss18.NonPrivate {
			if pr.Private {
				t.Errorf("%v: %v", a, pr)
			}
			continue
		}
		if !pr.Private || pr.Epsilon != 0.5 || pr.Delta != 0.01 || pr.Accounting == "" {
			t.Errorf("%v: %v", a, pr)
		}
	}
	for _, k := range []counter.Kind{counter.Tree, counter.Honaker, counter.Smooth} {
		u, err := mt14.NewDPUCB(mt14.DPUCBConfig{Arms: 2, Horizon: 1000, Epsilon: 2, Counter: k, NoRelaxation: k != counter.Tree, Noise: noise.Simulated}, bandit.Stream(1, 1))
		if err != nil {
			t.Fatalf("%v: %v", k, err)
		}
		if pr := u.Privacy(); !pr.Private || pr.Epsilon != 2 || pr.Delta != 0 {
			t.Errorf("DP-UCB on %v: %v", k, pr)
		}
	}
}

// AS17's learners report the ε their noise certifies: DP-FTRL's default λ
// gives the configured ε and the printed λ more; DP-FTPL's σ is accounted by
// zCDP at its δ; Algorithm 4 with the printed λ = B/ε gives 2ε.
func TestPrivacyAS17(t *testing.T) {
	f, err := as17.NewFTRL(as17.FTRLConfig{Dim: 4, Horizon: 1024, Epsilon: 1, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	if pr := f.Privacy(); math.Abs(pr.Epsilon-1) > 1e-12 || pr.Delta != 0 {
		t.Errorf("DP-FTRL, default λ: %v", pr)
	}
	printed := as17.FTRLLambdaPrinted(as17.Simplex, 4, 1024, 1)
	f, _ = as17.NewFTRL(as17.FTRLConfig{Dim: 4, Horizon: 1024, Epsilon: 1, Lambda: printed, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if pr := f.Privacy(); !(pr.Epsilon > 1) || !strings.Contains(pr.Accounting, "above the configured") {
		t.Errorf("DP-FTRL, printed λ: %v", pr)
	}
	p, err := as17.NewFTPL(as17.FTPLConfig{Dim: 4, Horizon: 1024, Epsilon: 1, Delta: 0.01, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	if pr := p.Privacy(); !pr.Private || !(pr.Epsilon > 0) || pr.Delta != 0.01 {
		t.Errorf("DP-FTPL: %v", pr)
	}
	b, err := as17.NewPrivateExp2(as17.Exp2Config{Arms: 4, Horizon: 1024, Epsilon: 0.5, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	if pr := b.(*as17.PrivateBandit).Privacy(); math.Abs(pr.Epsilon-1) > 1e-12 {
		t.Errorf("private EXP2 with λ = 1/ε, ε = 0.5: %v (want 2B/λ = 1)", pr)
	}
	for _, k := range []counter.Kind{counter.Tree, counter.Honaker, counter.Smooth} {
		g, err := as17.NewFTRL(as17.FTRLConfig{Dim: 4, Horizon: 1024, Epsilon: 1, Delta: 1e-3, Counter: k, Noise: noise.Simulated}, bandit.Stream(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		if pr := g.Privacy(); math.Abs(pr.Epsilon-1) > 1e-3 || pr.Delta != 1e-3 {
			t.Errorf("DP-FTRL (ε, δ) on %v: %v (σ calibrated exactly: want ε ≈ 1)", k, pr)
		}
	}
	nf, _ := as17.NewFTRL(as17.FTRLConfig{Dim: 4, Horizon: 1024, Epsilon: math.Inf(1), Noise: noise.Simulated}, bandit.Stream(1, 1))
	if nf.Privacy().Private {
		t.Error("non-private FTRL reported private")
	}
}

func TestDelayedPrivacy(t *testing.T) {
	u, _ := mt14.NewDPUCB(mt14.DPUCBConfig{Arms: 2, Horizon: 100, Epsilon: 2, Noise: noise.Simulated}, bandit.Stream(1, 1))
	d, err := mt14.Delayed(u, 10)
	if err != nil {
		t.Fatal(err)
	}
	if pr := d.Privacy(); pr.Epsilon != 2 || !strings.Contains(pr.Accounting, "τ = 10") {
		t.Errorf("delayed DP-UCB: %v", pr)
	}
}
