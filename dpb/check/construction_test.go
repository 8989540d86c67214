package check

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/internal/noisescale"
)

// constructionNoise is the factor the construction test scales every
// mechanism's noise by: "switched off" to three digits. Exactly 0 would put
// some statistics on their threshold by construction (λ_min(2ΥI) against
// ρ_min = Υ is ½, and the ×2 control then sits at exactly 1, caught or not
// by a rounding); 10⁻³ leaves the deterministic part of every statistic in
// place and takes the noise out of it.
const constructionNoise = 1e-3

// exemptFromConstruction lists the rows whose control may be caught with
// the mechanisms' noise switched off, each with its reason. Two reasons
// qualify: the statement concerns no mechanism's noise (the hook has
// nothing to switch off), or the control plants a defect in the learner
// (a radius, a step size, an estimate), which switching the noise off does
// not remove: such a control must be caught with or without the noise.
// A control that replaces the learner (one frozen to a decision) or halves
// a bound on the noise is not exempt: it is caught whatever the code does.
var exemptFromConstruction = []struct {
	pattern, reason string
}{
	{`^claim1[78](-upper|-lower)?$`, "a fact about a law (SS18 Claims 17, 18: χ²(d) tails, a Gaussian matrix's extreme singular values) sampled with the check's own normals (rng.NormFloat64), not a dpb sampler: no mechanism; the control scales those draws"},
	{`^claim20$`, "a deterministic matrix inequality (SS18 Claim 20) on random instances: no mechanism"},
	{`^lemma22-`, "the elliptical potential (SS18 Lemma 22), deterministic: no mechanism"},
	{`^gaussian-sensitivity-`, "the sensitivity of the streamed matrices: the data, no noise"},
	{`^as17-counter-[a-z-]+-nodes$`, "the node count is measured with the check's own impulse probe (no sampler): the counter's structure"},
	{`^secure-(laplace|gauss|symgauss-diag|symgauss-offdiag)-scale$`, "measures dpb/noise's secure samplers themselves, which carry no noisescale hook by design (a release-grade sampler has no switch that turns its noise off): the hook has nothing to switch off; the control is the sampler built at ×0.97 the scale, i.e. the noise itself, 3 % smaller"},
	{`^secure-(laplace|gauss|symgauss)-law$`, "measures dpb/noise's secure samplers themselves, which carry no noisescale hook by design: the hook has nothing to switch off; the control maps the same draws to another law"},
	{`^mt14-thm2-ucb1$`, "UCB1 (MT14 Theorem 2) is not private: no noise"},
	{`^prop4-NonPrivate-`, "the ridge (NonPrivate) has no noise"},
	{`^claim13-standard-dp$`, "randomized response's randomisation is its own coin, not a noise sampler, and Claim 13 bounds every standard-DP learner: its control is a learner outside that class"},
	{`^prop4-`, "the control plants a defect in the learner's radius (β_t scaled, or RadiusMinEig's λ_t overstated), which the noise does not carry"},
	{`^thm5-step-`, "the control plants a defect in the learner's choice (the index without θ̃_t), which the noise does not carry"},
	{`^(claim14-pulls|cor15-regret|mt14-cor15-lower)$`, "a lower bound over every ε-DP learner (SS18 Claim 14, Corollary 15): the control is a learner outside that class (DP-UCB with its node noise and its relaxation Γ off: UCB1's index on exact totals), a learner defect the hook does not plant; with the noise ×10⁻³ DP-UCB still meets the bound through Γ/n_a, which forces near-uniform play at ε = 5·10⁻⁴ (so this check cannot see the noise alone missing)"},
	{`^mt14-thm4-regret$`, "the control is DP-UCB with its relaxation Γ 4 times too large, a learner defect the noise does not carry"},
	{`^as17-(cor3\.2|thm3\.5|thm4\.5|thm4\.1|counter-bound)-`, "the control is the learner at a quarter of its step size (η/4; DP-FTPL at 4σ), a learner defect the noise does not carry"},
	{`^ss18-gaussian-shift$`, "the control plants a defect in the regularizer's shift (the Gaussian tree built with 0.99·2Υ), the deterministic part of H_t, which the noise does not carry: the row measures it through the noise"},
	{`^mt14-dpucb-index$`, "the control plants a defect in the learner's index (Γ ×0.9), which the noise does not carry: the row compares the choice with the index on the policy's own released totals, noisy or not"},
	{`^privmab-lazydpts-posterior$`, "the posterior draw is the policy's own randomness (rng.NormFloat64), not a mechanism's noise, and the control plants a defect in its variance (the Laplace part ÷2); the hook only shrinks the released means, on which the row conditions"},
	{`^as17-exp2-mixture$`, "the control plants a defect in the learner (EXP2's γ ×0.97), which the noise does not carry: the row feeds Algorithm 5 past Algorithm 4's noise"},
}

// pendingConstruction lists the rows this test still finds caught by
// construction, with who rewrites them. Each must still be found (a stale
// entry fails the test), so the list shrinks to nothing as they are
// rewritten. DPB_CONSTRUCTION_STRICT=1 ignores it (the test then lists
// every row caught by construction).
var pendingConstruction = []struct {
	pattern, reason string
}{}

func matchAny(name string, list []struct{ pattern, reason string }) (string, bool) {
	for _, e := range list {
		if regexp.MustCompile(e.pattern).MatchString(name) {
			return e.reason, true
		}
	}
	return "", false
}

// caughtByConstruction runs the short suites of the three papers with every
// mechanism's noise scaled by constructionNoise and returns the rows (not
// arithmetic, with a control) whose statement still held and whose control
// was still caught: their control's catch does not come from what the noise
// does.
func caughtByConstruction(t *testing.T) Verdicts {
	t.Helper()
	defer noisescale.Set(constructionNoise)()
	var all Verdicts
	for _, run := range []func() (Verdicts, error){
		func() (Verdicts, error) { return SS18(SS18Config{Seed: 1, Short: true}) },
		func() (Verdicts, error) { return MT14(MT14Config{Seed: 1, Short: true}) },
		func() (Verdicts, error) { return AS17(AS17Config{Seed: 1, Short: true}) },
	} {
		vs, err := run()
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, vs...)
	}
	var out Verdicts
	for _, v := range all {
		if v.Kind == KindArithmetic || v.ControlCaught == nil {
			continue
		}
		if v.Held() && *v.ControlCaught {
			out = append(out, v)
		}
	}
	return out
}

// TestNoControlCaughtByConstruction (issue 52): every non-arithmetic row's
// control is re-run with the mechanisms' noise switched off (scaled by
// 10⁻³ through internal/noisescale: every simulated sampler and AS17
// Algorithm 4's feedback noise). A row whose statement still holds there and
// whose control is still caught shows power that does not come from the
// noise: its control is caught by construction, and the test fails, unless
// the row is exempt (exemptFromConstruction, with its reason) or pending
// (pendingConstruction). The run is seeded: deterministic.
func TestNoControlCaughtByConstruction(t *testing.T) {
	strict := os.Getenv("DPB_CONSTRUCTION_STRICT") == "1"
	found := caughtByConstruction(t)
	var names, bad []string
	for _, v := range found {
		names = append(names, v.Name)
		if _, ok := matchAny(v.Name, exemptFromConstruction); ok {
			continue
		}
		if _, ok := matchAny(v.Name, pendingConstruction); ok && !strict {
			continue
		}
		bad = append(bad, fmt.Sprintf("%s (control: %s; %s)", v.Name, v.Control, v.ControlCell()))
	}
	if len(bad) > 0 {
		t.Errorf("%d rows whose control is caught with the noise ×%g (by construction):\n%s", len(bad), constructionNoise, strings.Join(bad, "\n"))
	}
	if strict {
		return
	}
	for _, e := range pendingConstruction {
		re := regexp.MustCompile(e.pattern)
		if !slices.ContainsFunc(names, re.MatchString) {
			t.Errorf("pending entry %q matches no row caught by construction any more: remove it (%s)", e.pattern, e.reason)
		}
	}
}
