package check

import (
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// TestControls: a control is caught only when the verdict's own threshold
// rejects it, an uncaught control makes a holding verdict vacuous (not a
// pass, not a failure), and the summary counts each kind apart.
func TestControls(t *testing.T) {
	tight := make([]float64, 100)
	loose := make([]float64, 100)
	for i := range tight {
		tight[i] = 0.9
		loose[i] = 0.1
	}
	vt := scaleControl(ratioVerdict("tight", "", "", 0.01, tight, ""), tight, 2, "bound halved")
	if !vt.Pass || vt.Vacuous || vt.ControlCaught == nil || !*vt.ControlCaught || vt.ControlScore < 1 {
		t.Errorf("a tight bound's halving was not caught: %+v", vt)
	}
	vl := scaleControl(ratioVerdict("loose", "", "", 0.01, loose, ""), loose, 2, "bound halved")
	if vl.Pass || !vl.Vacuous || !vl.Held() || *vl.ControlCaught || vl.ControlScore >= 1 {
		t.Errorf("a 10× loose bound's halving was caught: %+v", vl)
	}
	if vl.Status() != "VACUOUS" || len(Verdicts{vl}.Failed()) != 0 {
		t.Errorf("vacuous verdict: status %s, failed %v", vl.Status(), Verdicts{vl}.Failed())
	}
	if d := detectsRatios(tight, 0.01); d != "bound ÷1.11" {
		t.Errorf("detects %q, want bound ÷1.11", d)
	}
	// Means: the frozen learner above the bound in every cell is caught;
	// one cell where the bound is above it makes the verdict vacuous.
	bites := []meanCell{{label: "a", mean: 10, se: 1, bound: 50, runs: 20, trivial: 100, trivialSE: 1, trivialRuns: 64}}
	if v := meanVerdict("m", "", "", bites, ""); !v.Pass || v.Vacuous {
		t.Errorf("a bound below the trivial regret: %+v", v)
	}
	idle := append(bites, meanCell{label: "b", mean: 10, se: 1, bound: 150, runs: 20, trivial: 100, trivialSE: 1, trivialRuns: 64})
	vm := meanVerdict("m", "", "", idle, "")
	if vm.Pass || !vm.Vacuous {
		t.Errorf("a bound above the trivial regret in one cell: %+v", vm)
	}
	// A lower bound's control is a learner that must fall below it: caught
	// when its mean is below the bound by more than q s.e., not otherwise.
	ql := meanQuantile(1, 40)
	lowBites := []meanCell{{label: "a", mean: 800, se: 5, bound: 400, runs: 40, lower: true, trivial: 400 - 1.01*ql*10, trivialSE: 10, trivialRuns: 40, control: "privacy off"}}
	if v := meanVerdict("m", "", "", lowBites, ""); !v.Pass || v.Vacuous || v.ControlCaught == nil || !*v.ControlCaught || v.ControlScore < 1 {
		t.Errorf("a learner below the lower bound by 1.01 q s.e. was not caught: %+v", v)
	}
	lowIdle := []meanCell{{label: "a", mean: 800, se: 5, bound: 400, runs: 40, lower: true, trivial: 400 - 0.99*ql*10, trivialSE: 10, trivialRuns: 40, control: "privacy off"}}
	if v := meanVerdict("m", "", "", lowIdle, ""); v.Pass || !v.Vacuous || v.ControlScore >= 1 {
		t.Errorf("a learner below the lower bound by 0.99 q s.e. was caught: %+v", v)
	}
	// A cell of 20 runs fails beyond the Bonferroni t quantile, not before.
	q := meanQuantile(2, 20)
	over := []meanCell{{label: "a", mean: 50 + 1.01*q, se: 1, bound: 50, runs: 20}, {label: "b", mean: 0, se: 1, bound: 50, runs: 20}}
	under := []meanCell{{label: "a", mean: 50 + 0.99*q, se: 1, bound: 50, runs: 20}, {label: "b", mean: 0, se: 1, bound: 50, runs: 20}}
	if meanVerdict("m", "", "", over, "").Pass || !meanVerdict("m", "", "", under, "").Pass {
		t.Errorf("the t rule (q = %.3g) is not where it says", q)
	}
	a := arithmetic("a", "", "", 0, 0, 0, 1, "")
	// An erratum row (outside the paper's hypothesis) that held is counted
	// among the errata, not the passes, and says so; one that failed too.
	eh, ef := vt, NewVerdict("ef", "", "", 0.01, 100, 90, 2, "")
	eh.Name, eh.Erratum, ef.Erratum = "eh", true, true
	if eh.Status() != "HELD (erratum)" || ef.Status() != "FAIL (erratum)" {
		t.Errorf("erratum statuses %q, %q", eh.Status(), ef.Status())
	}
	s := Verdicts{vt, vl, vm, a, eh, ef}.Summarise()
	if s.Verdicts != 6 || s.PassCaught != 1 || s.Vacuous != 2 || s.Arithmetic != 1 || s.Errata != 2 || s.ErrataHeld != 1 || s.Failed != 0 {
		t.Errorf("summary %+v", s)
	}
	// An exact control (no trials) that is caught scores its value over its
	// bound, not 0.
	ex := withControl(arithmetic("x", "", "", 0, 0, 0, 0.5, ""), NewVerdict("control", "", "", 0, 0, 1, 2.4, ""), "σ/√2")
	if !*ex.ControlCaught || ex.ControlScore != 2.4 || ex.ControlCell() != "arithmetic, caught 2.4×" {
		t.Errorf("exact control: %+v (%s)", ex, ex.ControlCell())
	}
}

// TestMechanismRows: the measured privacy row passes node noise at the
// scale the claim needs (and above it) and fails it when the claim needs
// twice the scale; the law row rejects a mis-stated scale.
func TestMechanismRows(t *testing.T) {
	lap, err := noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: noise.Simulated, Dim: 1, Scale: 10}, bandit.Stream(5, 1))
	if err != nil {
		t.Fatal(err)
	}
	ok := laplaceNodeVerdicts("x", "test", lap, 10, 5, 1, 0.5) // b_ε = 10: exactly calibrated
	if !ok[0].Pass || !ok[1].Pass || !*ok[0].ControlCaught || !*ok[1].ControlCaught {
		t.Errorf("a calibrated mechanism: %+v", ok)
	}
	bad := laplaceNodeVerdicts("x", "test", lap, 10, 5, 1, 1) // b_ε = 5: over-noised by 2, still private
	if !bad[0].Held() || !bad[0].Vacuous {                    // and σ/√2 is still private: vacuous
		t.Errorf("an over-noised mechanism: %+v", bad[0])
	}
	worse := laplaceNodeVerdicts("x", "test", lap, 10, 5, 1, 0.25) // b_ε = 20: under-noised by 2
	if worse[0].Held() {
		t.Errorf("an under-noised mechanism passed: %+v", worse[0])
	}
	wrong := laplaceNodeVerdicts("x", "test", lap, 12, 5, 1, 0.5) // the law stated as Lap(12)
	if wrong[1].Held() {
		t.Errorf("a mis-stated law passed: %+v", wrong[1])
	}
}
