package check

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mathext"
)

// Proof checks: every probabilistic statement of a paper ("with probability
// at least 1 − α, X ≤ b") becomes an experiment with a [Verdict]: the
// allowed failure probability α, the observed failure count over
// independent trials, its binomial p-value, and the slack — how far the
// typical value sits from the bound (a bound that holds by a factor of 1000
// says little). Deterministic statements (Claim 20, Lemma 22) are checked on
// random instances with α = 0: one failure fails them.

// PassPValue is the threshold of a verdict: a check passes iff the p-value
// of its failure count, P[X ≥ failures] for X ~ Bin(trials, α), exceeds
// 1e-5. So a true statement fails its check with probability at most 1e-5
// (the project's false-failure rate per assertion), and a statement whose
// real failure probability is well above α fails it with high probability
// once the number of trials is large enough to see the difference.
const PassPValue = 1e-5

// FailedMarker is printed beside every failed check that is not a
// documented erratum. CI (.ci/nbcheck.py) fails a notebook that shows it.
const FailedMarker = "CHECK FAILED"

// Verdict is the outcome of one proof check.
type Verdict struct {
	Name      string  `json:"name"`      // short identifier, e.g. "claim17-upper"
	Claim     string  `json:"claim"`     // the statement checked, in words and symbols
	Reference string  `json:"reference"` // where it is stated, e.g. "SS18 Claim 17 (App. A.3)"
	Alpha     float64 `json:"alpha"`     // allowed failure probability per trial (0: deterministic)
	Trials    int     `json:"trials"`    // independent trials (0: an exact computation, no sampling)
	Failures  int     `json:"failures"`  // trials in which the statement failed
	Rate      float64 `json:"rate"`      // Failures/Trials
	PValue    float64 `json:"p_value"`   // P[X ≥ Failures], X ~ Bin(Trials, Alpha)
	// Slack is the median over trials of value/bound for an upper bound and
	// bound/value for a lower bound: below 1 the statement held, 0.01 means
	// the bound is 100 times looser than the typical value.
	Slack float64 `json:"slack"`
	// Tail is the same ratio at the empirical (1 − α)-quantile of the trials
	// (the maximum for α = 0): near 1 the bound is tight at its own level,
	// 0.5 means it could be halved and still hold at level α.
	Tail float64 `json:"tail"`
	Pass bool    `json:"pass"` // PValue > PassPValue
	// Erratum marks a statement that fails as printed (or in a setting the
	// paper does not cover, e.g. the plain tree) and is documented as such,
	// with its corrected version checked beside it. A failing erratum does
	// not print FailedMarker.
	Erratum bool   `json:"erratum,omitempty"`
	Note    string `json:"note,omitempty"`
	// Control names the negative control run beside the verdict: the same
	// check, on the same runs, with a planted defect of the kind the check
	// exists to catch (empty: no control yet).
	Control string `json:"control,omitempty"`
	// ControlCaught reports whether the check's own threshold rejected the
	// control (nil without a control). A verdict whose control is not caught
	// is vacuous: it does not pass.
	ControlCaught *bool `json:"control_caught,omitempty"`
	// ControlSlack is the control's slack, beside the threshold 1 it must
	// exceed to be caught.
	ControlSlack float64 `json:"control_slack,omitempty"`
	// ControlScore is the control's test statistic over the verdict's own
	// threshold: for a failure count, the control's failures over the
	// fewest failures the threshold rejects; for means, the largest
	// (mean − bound)/(q·s.e.) over cells. At least 1 iff the control is caught.
	ControlScore float64 `json:"control_score,omitempty"`
	// Vacuous marks a verdict whose control was not caught: its statement
	// held, but the check has not shown it could fail at this configuration,
	// so it is not counted as a pass (and is not a CHECK FAILED either).
	Vacuous bool `json:"vacuous,omitempty"`
	// Kind says what kind of evidence the verdict is: "" for a sampled test
	// (which needs a control), KindArithmetic for a formula evaluated on
	// the built object, KindIdentity for a statement that holds whatever the
	// code does, KindNoPower for a lower bound no control is defined for.
	Kind string `json:"kind,omitempty"`
	// Detects is the smallest violation the verdict detects at its
	// configuration (e.g. "bound ÷1.6": the check fails if the bound were
	// 1.6 times smaller; "mean > bound + 12%": a mean above the bound by 12%
	// of it fails a cell).
	Detects string `json:"detects,omitempty"`
}

// Kinds of verdict evidence (see [Verdict.Kind]).
const (
	// KindArithmetic is a formula or calibration evaluated exactly: it can
	// fail (a wrong constant fails it) but it tests no sampled behaviour.
	KindArithmetic = "arithmetic"
	// KindIdentity is a statement that holds whatever the learner does; no
	// planted defect can fail it, so it is no evidence about the code.
	KindIdentity = "identity"
	// KindNoPower is a lower bound with no control that must fall below it:
	// a learner may beat a minimax bound legitimately.
	KindNoPower = "no power"
	// KindLoose is an upper bound that lies above what any learner, or any
	// action, reaches at the configuration checked (SS18 Theorems 5 and 6
	// above the regret of a learner frozen to one arm): it holds, and no
	// planted defect can fail it there. The note states the factor.
	KindLoose = "loose by design"
)

// rejectCount returns the fewest failures out of n trials at allowed rate
// alpha that the pass threshold rejects (BinomialTail ≤ PassPValue), or n+1
// when even n failures pass: n trials then cannot fail the statement.
func rejectCount(n int, alpha float64) int {
	for k := 0; k <= n; k++ {
		if BinomialTail(n, k, alpha) <= PassPValue {
			return k
		}
	}
	return n + 1
}

// detectsRatios returns the smallest violation a ratio verdict detects: the
// factor f such that the same draws against the bound divided by f fail it
// (the k*-th largest ratio is pushed above 1, k* = rejectCount).
func detectsRatios(ratios []float64, alpha float64) string {
	k := rejectCount(len(ratios), alpha)
	if k > len(ratios) {
		return fmt.Sprintf("none: %d trials cannot fail at α=%s", len(ratios), fmtProb(alpha))
	}
	s := slices.Clone(ratios)
	slices.Sort(s)
	r := s[len(s)-k]
	if !(r > 0) {
		return "none: the statistic is 0"
	}
	if r > 1 {
		return "bound ÷1 (fails as it stands)"
	}
	return "bound ÷" + fmtSlack(1/r)
}

// scaleControl is the generic planted defect of a ratio verdict: the same
// draws against the bound divided by c (a bound c times too tight, or a
// statistic c times too large — for a norm of noise, noise scaled by c).
// It returns v with its control recorded (see withControl) and Detects set.
func scaleControl(v Verdict, ratios []float64, c float64, what string) Verdict {
	scaled := make([]float64, len(ratios))
	for i, r := range ratios {
		scaled[i] = math.Min(r*c, maxRatio)
	}
	ctl := ratioVerdict("control", "", "", v.Alpha, scaled, "")
	v = withControl(v, ctl, what)
	v.Detects = detectsRatios(ratios, v.Alpha)
	return v
}

// withControl records the outcome of v's negative control c (a verdict of
// the same check on the planted defect): caught when c fails. An uncaught
// control makes v vacuous, which does not pass.
func withControl(v, c Verdict, what string) Verdict {
	caught := !c.Pass
	v.Control, v.ControlCaught, v.ControlSlack = what, &caught, c.Slack
	v.ControlScore = c.ControlScore
	if c.ControlScore == 0 {
		if c.Trials > 0 {
			k := rejectCount(c.Trials, c.Alpha)
			v.ControlScore = float64(c.Failures) / float64(k)
		} else {
			// An exact control (a formula, no trials) fails when its value
			// exceeds its bound: its slack, value/bound, is the statistic
			// over the threshold.
			v.ControlScore = c.Slack
		}
	}
	stat := fmt.Sprintf("%d / %d runs fail it, slack %.3g", c.Failures, c.Trials, c.Slack)
	if c.Trials == 0 {
		stat = "p-value " + fmtProb(c.PValue)
	}
	tag := fmt.Sprintf("control (%s) caught: %s", what, stat)
	if !caught {
		tag = fmt.Sprintf("VACUOUS: control (%s) not caught (%s)", what, stat)
		if v.Pass {
			v.Vacuous = true
		}
		v.Pass = false
	}
	if v.Note != "" {
		v.Note += "; "
	}
	v.Note += tag
	return v
}

// BinomialTail returns P[X ≥ k] for X ~ Bin(n, p), computed as the
// regularized incomplete beta function I_p(k, n−k+1) so that tiny tails keep
// their relative precision (1 − CDF would round them to 0).
func BinomialTail(n, k int, p float64) float64 {
	switch {
	case k <= 0:
		return 1
	case k > n:
		return 0
	case p <= 0:
		return 0
	case p >= 1:
		return 1
	}
	return mathext.RegIncBeta(float64(k), float64(n-k+1), p)
}

// NewVerdict fills Rate, PValue and Pass from the counts. slack is the
// median ratio (see [Verdict]); a non-finite slack is stored as 0 with a
// note, so the verdict stays JSON-encodable.
func NewVerdict(name, claim, ref string, alpha float64, trials, failures int, slack float64, note string) Verdict {
	v := Verdict{Name: name, Claim: claim, Reference: ref, Alpha: alpha, Trials: trials, Failures: failures, Slack: slack, Note: note}
	if trials > 0 {
		v.Rate = float64(failures) / float64(trials)
	}
	v.PValue = BinomialTail(trials, failures, alpha)
	if trials == 0 {
		// An exact computation: it holds or it does not.
		v.PValue = 1
		if failures > 0 {
			v.PValue = 0
		}
	}
	v.Pass = v.PValue > PassPValue
	if math.IsNaN(v.Slack) || math.IsInf(v.Slack, 0) {
		v.Slack = 0
		v.Note = strings.TrimSpace(v.Note + " (slack undefined)")
	}
	return v
}

// Held reports whether the statement's own test did not reject it: a pass,
// or a vacuous verdict (held, but its control was not caught either).
func (v Verdict) Held() bool { return v.Pass || v.Vacuous }

// Status returns "PASS", "HELD (erratum)", "FAIL (erratum)", "VACUOUS" or
// FailedMarker. A row marked as an erratum (a statement as printed, or run
// outside the paper's hypothesis, e.g. Prop. 9 on the plain tree) that held
// is "HELD (erratum)": it is not a pass of the paper's statement.
func (v Verdict) Status() string {
	switch {
	case v.Erratum && v.Held():
		return "HELD (erratum)"
	case v.Pass:
		return "PASS"
	case v.Vacuous:
		return "VACUOUS"
	case v.Erratum:
		return "FAIL (erratum)"
	}
	return FailedMarker
}

// ControlCell returns the verdict's control column: "caught 2.3×" (the
// control's statistic over its threshold), "NOT caught", the Kind of a
// verdict that has no statistical control, or "none".
func (v Verdict) ControlCell() string {
	switch {
	case v.Kind != "" && v.ControlCaught != nil && *v.ControlCaught:
		return v.Kind + ", caught " + fmtSlack(v.ControlScore) + "×"
	case v.ControlCaught != nil && *v.ControlCaught:
		return "caught " + fmtSlack(v.ControlScore) + "×"
	case v.ControlCaught != nil:
		return "NOT caught " + fmtSlack(v.ControlScore) + "×"
	case v.Kind != "":
		return v.Kind
	}
	return "none"
}

// slackRatio caps value/bound ratios so that medians and JSON stay finite:
// a lower bound met by a non-positive value counts as maxRatio.
const maxRatio = 1e9

// upperRatio returns value/bound for a claim value ≤ bound.
func upperRatio(value, bound float64) float64 {
	if !(bound > 0) {
		return maxRatio
	}
	return math.Min(math.Max(value/bound, 0), maxRatio)
}

// lowerRatio returns bound/value for a claim value ≥ bound (> 0).
func lowerRatio(value, bound float64) float64 {
	if !(value > 0) {
		return maxRatio
	}
	return math.Min(math.Max(bound/value, 0), maxRatio)
}

// median returns the median of x (NaN for none); x is not modified.
func median(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	s := slices.Clone(x)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// quantile returns the q-quantile of x (nearest rank; q = 1 gives the
// maximum); x is not modified.
func quantile(x []float64, q float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	s := slices.Clone(x)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}

// ratioVerdict is NewVerdict for a sample of ratios (failure iff ratio > 1).
func ratioVerdict(name, claim, ref string, alpha float64, ratios []float64, note string) Verdict {
	f := 0
	for _, r := range ratios {
		if r > 1 {
			f++
		}
	}
	v := NewVerdict(name, claim, ref, alpha, len(ratios), f, median(ratios), note)
	v.Tail = finiteOr0(quantile(ratios, 1-alpha))
	return v
}

func finiteOr0(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// Verdicts is a list of check outcomes with table renderers.
type Verdicts []Verdict

// OK reports whether every verdict passed, is a documented erratum or is
// vacuous (its statement held; its control was not caught).
func (vs Verdicts) OK() bool {
	return len(vs.Failed()) == 0
}

// Summary counts the verdicts by what they show.
type Summary struct {
	Verdicts int `json:"verdicts"`
	// PassCaught passed with their control caught: evidence with power shown.
	PassCaught int `json:"pass_control_caught"`
	// PassNoControl are sampled verdicts that passed with no control yet.
	PassNoControl int `json:"pass_no_control"`
	// Arithmetic, Identity and NoPower passed and are of that Kind.
	Arithmetic int `json:"arithmetic"`
	Identity   int `json:"identity"`
	NoPower    int `json:"no_power"`
	Loose      int `json:"loose_by_design"`
	Vacuous    int `json:"vacuous"`
	// Errata are the rows marked as documented errata, whatever their
	// outcome: statements that fail as printed, and statements run outside
	// the paper's hypothesis (Prop. 9 on the plain tree), some of whose
	// bounds hold there. ErrataHeld counts those that held; neither is
	// counted among the passes.
	Errata     int `json:"errata"`
	ErrataHeld int `json:"errata_held"`
	Failed     int `json:"failed"`
}

// Summarise counts vs (see [Summary]). A vacuous verdict is never a pass,
// nor is an erratum.
func (vs Verdicts) Summarise() Summary {
	s := Summary{Verdicts: len(vs)}
	for _, v := range vs {
		switch {
		case v.Erratum:
			s.Errata++
			if v.Held() {
				s.ErrataHeld++
			}
		case v.Pass && v.Kind == KindArithmetic:
			s.Arithmetic++
		case v.Pass && v.Kind == KindIdentity:
			s.Identity++
		case v.Pass && v.Kind == KindNoPower:
			s.NoPower++
		case v.Pass && v.Kind == KindLoose:
			s.Loose++
		case v.Pass && v.ControlCaught != nil && *v.ControlCaught:
			s.PassCaught++
		case v.Pass:
			s.PassNoControl++
		case v.Vacuous:
			s.Vacuous++
		default:
			s.Failed++
		}
	}
	return s
}

// String is the one-line summary printed under the verdict table.
func (s Summary) String() string {
	return fmt.Sprintf("%d verdicts: %d pass with their control caught, %d pass without a control, %d arithmetic, %d identity, %d lower bounds with no power, %d loose by design; %d vacuous (control not caught, not a pass); %d errata (documented: %d fail as printed or outside the paper's hypothesis, %d held there; corrected versions checked beside them); %d failed",
		s.Verdicts, s.PassCaught, s.PassNoControl, s.Arithmetic, s.Identity, s.NoPower, s.Loose, s.Vacuous, s.Errata, s.Errata-s.ErrataHeld, s.ErrataHeld, s.Failed)
}

// AsErrata returns a copy of vs in which every failing verdict is marked as
// a documented erratum, with note appended. Use it for checks run on a
// reading of the paper that is expected to fail (e.g. a printed typo), so
// that the failure is shown and explained rather than failing CI.
func (vs Verdicts) AsErrata(note string) Verdicts {
	out := make(Verdicts, len(vs))
	for i, v := range vs {
		if !v.Pass && !v.Vacuous {
			v.Erratum = true
			v.Note = strings.TrimSpace(v.Note + "; " + note)
		}
		out[i] = v
	}
	return out
}

// Select returns the verdicts whose name contains any of the substrings.
func (vs Verdicts) Select(substrings ...string) Verdicts {
	var out Verdicts
	for _, v := range vs {
		for _, s := range substrings {
			if strings.Contains(v.Name, s) {
				out = append(out, v)
				break
			}
		}
	}
	return out
}

// Failed returns the verdicts that failed and are not errata.
func (vs Verdicts) Failed() Verdicts {
	var f Verdicts
	for _, v := range vs {
		if !v.Pass && !v.Erratum && !v.Vacuous {
			f = append(f, v)
		}
	}
	return f
}

func fmtProb(p float64) string {
	switch {
	case p == 0:
		return "0"
	case p >= 0.01:
		return fmt.Sprintf("%.3g", p)
	}
	return fmt.Sprintf("%.1e", p)
}

func fmtSlack(s float64) string {
	if s >= maxRatio {
		return "≥1e9"
	}
	return fmt.Sprintf("%.3g", s)
}

// Markdown returns the verdicts as a markdown table (for notebooks): check,
// reference, α, failures/trials, p-value, slack, verdict, note.
func (vs Verdicts) Markdown() string {
	var b strings.Builder
	b.WriteString("| check | claim | reference | α | failures / trials | p-value | slack (median) | ratio at 1−α | verdict | control caught | detects | note |\n")
	b.WriteString("|---|---|---|---:|---:|---:|---:|---:|---|---|---|---|\n")
	for _, v := range vs {
		status := v.Status()
		switch status {
		case "PASS":
		case FailedMarker:
			status = "**" + FailedMarker + "**"
		default:
			status = "*" + status + "*"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			v.Name, mdEscape(v.Claim), mdEscape(v.Reference), fmtProb(v.Alpha), v.counts(),
			fmtProb(v.PValue), fmtSlack(v.Slack), fmtSlack(v.Tail), status, v.ControlCell(), mdEscape(v.Detects), mdEscape(v.Note))
	}
	b.WriteString("\n" + vs.Summarise().String() + "\n")
	return b.String()
}

// counts returns "failures / trials", or "exact" for an exact computation.
func (v Verdict) counts() string {
	if v.Trials == 0 {
		return "exact"
	}
	return fmt.Sprintf("%d / %d", v.Failures, v.Trials)
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// WriteText writes the verdicts as an aligned plain-text table (for the CLI).
func (vs Verdicts) WriteText(w io.Writer) error {
	rows := [][]string{{"verdict", "check", "alpha", "fail/trials", "p-value", "slack", "at 1-α", "control", "detects", "reference"}}
	for _, v := range vs {
		det := v.Detects
		if det == "" {
			det = "-"
		}
		rows = append(rows, []string{v.Status(), v.Name, fmtProb(v.Alpha),
			v.counts(), fmtProb(v.PValue), fmtSlack(v.Slack), fmtSlack(v.Tail), v.ControlCell(), det, v.Reference})
	}
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for i, c := range r {
			if i == len(r)-1 {
				b.WriteString(c)
				break
			}
			b.WriteString(c + strings.Repeat(" ", width[i]-len([]rune(c))+2))
		}
		b.WriteByte('\n')
	}
	b.WriteString(vs.Summarise().String() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}
