package check

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
)

// VerifyJSON checks a check JSON (dpb check -json) by the rule its verdicts
// follow: every verdict has a name, its counts are possible (0 ≤ failures
// ≤ trials) and its rate is failures/trials; its status is one of the four
// [Verdict.Status] admits (a vacuous verdict does not pass and its control
// was not caught; a verdict that passes with a control had it caught); no
// verdict failed (FailedMarker; a verdict whose note says "VACUOUS:
// control … not caught" is vacuous, as code without the vacuous field
// wrote it); names are unique; and the summary, when
// recorded, counts the verdicts as [Verdicts.Summarise] does. (The content
// hash, which catches an edited value the rule cannot see, is checked by
// harness.VerifyContentHash.)
func VerifyJSON(raw []byte) error {
	var doc struct {
		Summary  *Summary `json:"summary"`
		Verdicts Verdicts `json:"verdicts"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return fmt.Errorf("check: %w", err)
	}
	if len(doc.Verdicts) == 0 {
		return errors.New("check: the JSON has no verdicts")
	}
	var bad []string
	names := map[string]bool{}
	for _, v := range doc.Verdicts {
		if names[v.Name] {
			bad = append(bad, fmt.Sprintf("%s: verdict appears twice", v.Name))
		}
		names[v.Name] = true
		if err := verifyVerdict(v); err != nil {
			bad = append(bad, err.Error())
		}
	}
	if doc.Summary != nil && *doc.Summary != doc.Verdicts.Summarise() {
		bad = append(bad, fmt.Sprintf("summary %+v, the verdicts give %+v", *doc.Summary, doc.Verdicts.Summarise()))
	}
	if bad != nil {
		return fmt.Errorf("check: %s", strings.Join(bad, "; "))
	}
	return nil
}

// verifyVerdict checks one verdict by the rule of [VerifyJSON].
func verifyVerdict(v Verdict) error {
	if v.Name == "" {
		return errors.New("a verdict has no name")
	}
	if v.Trials < 0 || v.Failures < 0 || (v.Trials > 0 && v.Failures > v.Trials) {
		return fmt.Errorf("%s: %d failures in %d trials", v.Name, v.Failures, v.Trials)
	}
	if v.Trials > 0 && math.Abs(v.Rate-float64(v.Failures)/float64(v.Trials)) > 1e-15 {
		return fmt.Errorf("%s: rate %v, failures/trials is %v", v.Name, v.Rate, float64(v.Failures)/float64(v.Trials))
	}
	if !(v.Alpha >= 0 && v.Alpha <= 1) || !(v.PValue >= 0 && v.PValue <= 1) {
		return fmt.Errorf("%s: alpha %v or p-value %v outside [0, 1]", v.Name, v.Alpha, v.PValue)
	}
	caught := v.ControlCaught != nil && *v.ControlCaught
	if !v.Pass && !v.Vacuous && v.ControlCaught != nil && !caught && strings.Contains(v.Note, "VACUOUS: control") {
		// A JSON written by code without Verdict.Vacuous (the run of
		// figures/ss18-check-mineig-n5e6.json) marks a vacuous verdict in
		// its note only.
		v.Vacuous = true
	}
	switch {
	case v.Pass && v.Vacuous:
		return fmt.Errorf("%s: both pass and vacuous", v.Name)
	case v.Vacuous && (v.ControlCaught == nil || caught):
		return fmt.Errorf("%s: vacuous, but its control was caught or there is none", v.Name)
	case v.Pass && v.ControlCaught != nil && !caught:
		return fmt.Errorf("%s: passes with its control not caught (it is vacuous)", v.Name)
	case v.Status() == FailedMarker:
		return fmt.Errorf("%s: %s", v.Name, FailedMarker)
	}
	return nil
}
