package check

import (
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// TestCheckProp4: in the paper's setting (padded tree) Proposition 4 holds for
// every variant; with the plain tree the shifted Wishart regularizer is not
// positive definite in early rounds and the check fails (documented as
// outside the hypothesis) — the check can fail.
// Each verdict passes a true statement except with probability ≤ 1e-5.
func TestCheckProp4(t *testing.T) {
	n, reps := 1000, 12
	if testing.Short() {
		n, reps = 400, 6
	}
	vs, err := Prop4(LinUCBConfig{D: 3, K: 9, N: n, Reps: reps, Alpha: 0.1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2*len(ss18.Algs) {
		t.Fatalf("%d verdicts", len(vs))
	}
	for _, v := range vs {
		if !v.Held() || v.Slack <= 0 || v.Slack > 1 {
			t.Errorf("%s: %s, slack %v (%s)", v.Name, v.Status(), v.Slack, v.Note)
		}
	}
	plain := counter.Plain
	vs, err = Prop4(LinUCBConfig{D: 3, K: 9, N: n, Reps: reps, Alpha: 0.1, Seed: 1, Mode: &plain, Algs: []ss18.Alg{ss18.Wishart}})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if v.Pass || !v.Erratum || !strings.Contains(v.Note, "not positive definite") {
			t.Errorf("plain shifted Wishart: %s %s (%s), want a documented failure", v.Name, v.Status(), v.Note)
		}
	}
}

// TestCheckProp4MinEig: the RadiusMinEig radius covers θ* and its two
// tightened terms hold where they bind, while each verdict's negative
// control (λ_t overstated 16×) fails the verdict's own threshold in every
// run: the check can see a radius smaller than the proof allows. The
// verdicts pass a true statement except with probability ≤ 1e-5 each; the
// controls' slacks are 1.5–3.9 at the short size (measured), caught by a margin.
func TestCheckProp4MinEig(t *testing.T) {
	n, reps := 3000, 8
	if testing.Short() {
		n, reps = 2000, 6
	}
	vs, err := Prop4(LinUCBConfig{D: 3, K: 9, N: n, Reps: reps, Alpha: 0.1, Seed: 1, MinEig: true,
		Algs: []ss18.Alg{ss18.NonPrivate, ss18.GaussianBLTRound, ss18.GaussianBLT}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{
		"prop4-NonPrivate-mineig-bias": true, "prop4-GaussianBLTRound-mineig": true,
		"prop4-GaussianBLTRound-mineig-bias": true, "prop4-GaussianBLTRound-mineig-noise": true,
		"prop4-GaussianBLT-mineig": true, "prop4-GaussianBLT-mineig-noise": true,
	}
	for _, v := range vs {
		if !strings.Contains(v.Name, "mineig") {
			continue
		}
		delete(want, v.Name)
		if !v.Held() || v.Slack <= 0 || v.Slack > 1 {
			t.Errorf("%s: %s, slack %v (%s)", v.Name, v.Status(), v.Slack, v.Note)
		}
		if v.ControlCaught == nil || !*v.ControlCaught || v.ControlSlack <= 1 {
			t.Errorf("%s: control not caught (%s)", v.Name, v.Note)
		}
	}
	for name := range want {
		t.Errorf("no verdict %s", name)
	}
}

func TestCheckRegretBounds(t *testing.T) {
	vs, err := RegretBounds(LinUCBConfig{D: 3, K: 9, N: 500, Reps: 4, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if !v.Held() {
			t.Errorf("%s: %s (%s)", v.Name, v.Status(), v.Note)
		}
		// A learner frozen to arm 0 has linear regret: at n = 500 every
		// bound is above it, so every row is loose by design, with no
		// control.
		if v.Kind != KindLoose || v.ControlCaught != nil || !strings.Contains(v.Note, "times the regret of a learner frozen") {
			t.Errorf("%s: kind %q, control %v (%s)", v.Name, v.Kind, v.ControlCaught, v.Note)
		}
	}
}

// TestRegretStep: the per-round step of Theorems 5 and 6 holds for the
// ridge, whose bound falls below the largest regret by n = 2000, and its
// control (the index without θ̃_t) fails it in a run; the private Gaussian
// variant at ε = 1 cannot fail it at that n (its bound is above every
// action's regret): loose by design. The step is deterministic on the
// event, so a true statement never fails.
func TestRegretStep(t *testing.T) {
	vs, err := RegretStep(LinUCBConfig{D: 5, K: 25, N: 2000, Reps: 4, Seed: 3, Algs: []ss18.Alg{ss18.NonPrivate, ss18.Gaussian}})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 {
		t.Fatalf("%d verdicts", len(vs))
	}
	if v := vs[0]; !v.Pass || v.ControlCaught == nil || !*v.ControlCaught || v.ControlScore < 1 {
		t.Errorf("%s: %s, control %v (%s)", v.Name, v.Status(), v.ControlCell(), v.Note)
	}
	if v := vs[1]; !v.Pass || v.Kind != KindLoose {
		t.Errorf("%s: %s, kind %q (%s)", v.Name, v.Status(), v.Kind, v.Note)
	}
}

// TestCheckClaim13: randomized response's regret is n/(1+e^ε) ≈ 0.38n > n/4,
// joint-DP LinUCB's is below n/4 at n = 20000 (measured 0.17n ± 0.01n).
func TestCheckClaim13(t *testing.T) {
	vs, err := Claim13(Claim13Config{N: 20000, Reps: 8, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if !v.Pass {
			t.Errorf("%s: %s (%s)", v.Name, v.Status(), v.Note)
		}
	}
	if _, err := Claim13(Claim13Config{N: 100, Reps: 3, Epsilon: 1}); err == nil {
		t.Error("ε = 1 ≥ ln 2 accepted")
	}
}

func TestCoverageAndBoundCurves(t *testing.T) {
	cfg := LinUCBConfig{D: 3, K: 9, N: 300, Reps: 3, Alpha: 0.1, Seed: 4}
	c, err := CoverageCurves(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Names) != len(ss18.Algs) || len(c.X) < 10 {
		t.Fatalf("coverage curves: %d series, %d points", len(c.Names), len(c.X))
	}
	for s := range c.Names {
		for k := range c.X {
			if v := c.Mean[s][k]; !(v > 0 && v < 1) {
				t.Fatalf("%s at t=%v: mean ‖θ*−θ̃‖/β = %v, want in (0, 1)", c.Names[s], c.X[k], v)
			}
		}
	}
	b, err := RegretAgainstBounds(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Names) != 2*len(ss18.Algs) {
		t.Fatalf("bound curves: %d series", len(b.Names))
	}
	for s := 0; s < len(b.Names); s += 2 {
		last := len(b.X) - 1
		if !(b.Mean[s][last] < b.Mean[s+1][last]) || b.StdErr[s+1][last] > 1e-9*b.Mean[s+1][last] {
			t.Fatalf("%s: regret %v vs bound %v ± %v", b.Names[s], b.Mean[s][last], b.Mean[s+1][last], b.StdErr[s+1][last])
		}
	}
}

func TestCheckClaim14(t *testing.T) {
	vs, err := Claim14(Claim14Config{Arms: 5, N: 20000, Reps: 40, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if !v.Pass || v.ControlCaught == nil || !*v.ControlCaught {
			t.Errorf("%s: %s (%s)", v.Name, v.Status(), v.Note)
		}
		t.Logf("%s slack %.3g: %s", v.Name, v.Slack, v.Note)
	}
}

// TestVerdictMarkdownNames: each row of the markdown table names its check,
// so rows that share a claim (one per variant) can be told apart.
func TestVerdictMarkdownNames(t *testing.T) {
	vs := Verdicts{
		NewVerdict("prop4-a", "same claim", "ref", 0.1, 10, 0, 0.5, ""),
		NewVerdict("prop4-b", "same claim", "ref", 0.1, 10, 0, 0.5, ""),
	}
	md := vs.Markdown()
	for _, v := range vs {
		if !strings.Contains(md, "`"+v.Name+"`") {
			t.Errorf("markdown table lacks the check name %q:\n%s", v.Name, md)
		}
	}
}

// TestCheckMinEigCoverageShort runs the Fig. 4-setting RadiusMinEig
// coverage check small: every variant's coverage verdict passes and its
// control (λ_t overstated) is caught, and the names carry the gap. The seeds
// are fixed, so the outcome is deterministic; over seeds, a coverage
// verdict fails with probability ≤ 2α = 2/n (two runs, SS18 Prop. 4), so
// this test's false-failure probability is ≤ 4·2/600 ≈ 1.3 %. The control's
// catch is the power shown at this size.
func TestCheckMinEigCoverageShort(t *testing.T) {
	vs, err := MinEigCoverage(MinEigCoverageConfig{N: 600, Reps: 2, Gaps: []float64{0}, Seed: 1, RunOptions: harness.RunOptions{Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, v := range vs {
		seen[v.Name] = true
		if !v.Pass || v.ControlCaught == nil || !*v.ControlCaught {
			t.Errorf("%s: pass %v, control caught %v (slack %v, control slack %v)", v.Name, v.Pass, v.ControlCaught, v.Slack, v.ControlSlack)
		}
	}
	for _, a := range ss18.MinEigAlgs {
		if name := "prop4-" + a.String() + "-fig4-gap0"; !seen[name] {
			t.Errorf("no verdict %s among %v", name, seen)
		}
	}
	if _, err := MinEigCoverage(MinEigCoverageConfig{N: 1}); err == nil {
		t.Error("n = 1 accepted")
	}
}
