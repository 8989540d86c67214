package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
)

// UnmarshalJSON implements json.Unmarshaler: a number, or one of the
// strings "+Inf", "-Inf" and "NaN" that MarshalJSON writes.
func (x *Num) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case `"+Inf"`:
		*x = Num(math.Inf(1))
	case `"-Inf"`:
		*x = Num(math.Inf(-1))
	case `"NaN"`:
		*x = Num(math.NaN())
	default:
		var f float64
		if err := json.Unmarshal(b, &f); err != nil {
			return fmt.Errorf("audit: %s is not a number", b)
		}
		*x = Num(f)
	}
	return nil
}

// VerifyJSON checks an audit JSON (dpb audit -json, or the privacy_audit
// notebook's table) by the rule every row follows: its ε lower bound is
// [Bounds] of its own counts (in_region_d, in_region_d_prime, eval_runs)
// at its claimed δ, and so is its control's; the control is caught exactly
// when that bound exceeds the claimed ε; the verdict is the one [RunScores]
// gives those numbers ("ok", "no power", "inconclusive", "VIOLATION", or
// for a demonstration "attack shown" / "attack not shown"); no row is a
// VIOLATION; and the summary, when recorded, counts the rows as
// [Results.Summary] does. (The content hash, which catches an edited value
// the rule cannot see, is checked by harness.VerifyContentHash.)
func VerifyJSON(raw []byte) error {
	var doc struct {
		Summary *Summary `json:"summary"`
		Results Results  `json:"results"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	if len(doc.Results) == 0 {
		return errors.New("audit: the JSON has no results")
	}
	var bad []string
	names := map[string]bool{}
	for _, r := range doc.Results {
		if names[r.Name] {
			bad = append(bad, fmt.Sprintf("%s: row appears twice", r.Name))
		}
		names[r.Name] = true
		if err := verifyRow(r); err != nil {
			bad = append(bad, err.Error())
		}
	}
	if doc.Summary != nil && *doc.Summary != doc.Results.Summary() {
		bad = append(bad, fmt.Sprintf("summary %+v, the rows give %+v", *doc.Summary, doc.Results.Summary()))
	}
	if bad != nil {
		return fmt.Errorf("audit: %s", strings.Join(bad, "; "))
	}
	return nil
}

// verifyRow checks one row by the rule of [VerifyJSON].
func verifyRow(r Result) error {
	if r.Name == "" {
		return errors.New("a row has no name")
	}
	if !(r.Epsilon > 0) || math.IsInf(r.Epsilon, 0) || CheckDelta(r.Delta) != nil {
		return fmt.Errorf("%s: claim (%v, %v) is not a valid (ε, δ)", r.Name, r.Epsilon, r.Delta)
	}
	counts := func(in0, in1, n int) error {
		if n <= 0 || in0 < 0 || in1 < 0 || in0 > n || in1 > n {
			return fmt.Errorf("%s: counts %d and %d of %d evaluation runs are impossible", r.Name, in0, in1, n)
		}
		return nil
	}
	if err := counts(r.In0, r.In1, r.Eval); err != nil {
		return err
	}
	if r.Eval != r.Trials-r.Trials/2 {
		return fmt.Errorf("%s: %d evaluation runs of %d trials, want %d (the second half)", r.Name, r.Eval, r.Trials, r.Trials-r.Trials/2)
	}
	if lo := Bounds(r.In0, r.In1, r.Eval, r.Delta).Lower; !closeTo(r.Lower, lo) {
		return fmt.Errorf("%s: eps_lower %v, its counts give %v", r.Name, r.Lower, lo)
	}
	over := !(r.Lower <= r.Epsilon)
	powerless := !(Bounds(0, r.Eval, r.Eval, r.Delta).Lower > r.Epsilon) && !(Bounds(r.Eval, 0, r.Eval, r.Delta).Lower > r.Epsilon)
	want := "ok"
	switch {
	case r.Demonstration && over:
		want = "attack shown"
	case r.Demonstration:
		want = "attack not shown"
	case over:
		want = "VIOLATION"
	case powerless:
		want = "inconclusive"
	}
	if c := r.Control; c != nil {
		if err := counts(c.In0, c.In1, c.Eval); err != nil {
			return fmt.Errorf("control of %w", err)
		}
		if lo := Bounds(c.In0, c.In1, c.Eval, r.Delta).Lower; !closeTo(c.Lower, lo) {
			return fmt.Errorf("%s: the control's eps_lower %v, its counts give %v", r.Name, c.Lower, lo)
		}
		if caught := c.Lower > r.Epsilon; c.Caught != caught {
			return fmt.Errorf("%s: the control's caught is %v, its eps_lower %v against the claimed ε %v gives %v", r.Name, c.Caught, c.Lower, r.Epsilon, caught)
		}
		if !c.Caught && want == "ok" {
			want = "no power"
		}
	}
	if r.Verdict != want {
		return fmt.Errorf("%s: verdict %q, its numbers give %q", r.Name, r.Verdict, want)
	}
	if r.Failed() {
		return fmt.Errorf("%s: VIOLATION (ε lower bound %v above the claimed %v)", r.Name, r.Lower, r.Epsilon)
	}
	return nil
}

// closeTo reports whether a recorded bound equals the recomputed one up to
// the last bits a change of the logarithm's implementation could move.
func closeTo(rec, got float64) bool {
	return math.Abs(rec-got) <= 1e-12*math.Max(1, math.Abs(got))
}
