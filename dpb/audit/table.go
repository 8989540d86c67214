package audit

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Results is an audit table.
type Results []Result

// Failed returns the rows that break their guarantee (never a declared
// demonstration).
func (rs Results) Failed() Results {
	var f Results
	for _, r := range rs {
		if r.Failed() {
			f = append(f, r)
		}
	}
	return f
}

// Summary counts a table's rows by outcome.
type Summary struct {
	Rows int `json:"rows"`
	// WithControl rows have a negative control; PowerShown of them had it
	// caught and passed ("ok"); NoPower had it not caught.
	WithControl int `json:"with_control"`
	PowerShown  int `json:"ok_power_shown"`
	NoPower     int `json:"no_power"`
	// OKNoControl rows passed with no control run (no power shown either).
	OKNoControl    int `json:"ok_no_control"`
	Violations     int `json:"violations"`
	Demonstrations int `json:"demonstrations"`
	Inconclusive   int `json:"inconclusive"`
}

// Summary returns the table's counts.
func (rs Results) Summary() Summary {
	s := Summary{Rows: len(rs)}
	for _, r := range rs {
		if r.Control != nil {
			s.WithControl++
		}
		switch {
		case r.Demonstration:
			s.Demonstrations++
		case r.Verdict == "VIOLATION":
			s.Violations++
		case r.Verdict == "no power":
			s.NoPower++
		case r.Verdict == "inconclusive":
			s.Inconclusive++
		case r.PowerShown():
			s.PowerShown++
		default:
			s.OKNoControl++
		}
	}
	return s
}

func (s Summary) String() string {
	return fmt.Sprintf("%d audits: %d pass with their control caught, %d no power (control not caught), %d pass without a control, %d violations, %d inconclusive, %d demonstrations",
		s.Rows, s.PowerShown, s.NoPower, s.OKNoControl, s.Violations, s.Inconclusive, s.Demonstrations)
}

// WriteText prints the table: mechanism, claimed (ε, δ), trials, the
// empirical ε lower bound with its estimate and upper end, tightness,
// the control's ε lower bound and whether it was caught, and verdict; then
// the summary and each row's neighbours, test and control.
func (rs Results) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "audit\tclaimed (ε, δ)\ttrials\tε lower (95% CP)\tε estimate\tε upper\ttightness\tcontrol ε lower\tcaught\tverdict")
	for _, r := range rs {
		v := verdictText(r)
		cl, cc := controlText(r)
		fmt.Fprintf(tw, "%s\t(%g, %g)\t%d\t%.3f\t%s\t%s\t%.2f\t%s\t%s\t%s\n", r.Name, r.Epsilon, r.Delta, r.Trials,
			r.Lower, fmtNum(r.Estimate), fmtNum(r.Upper), r.Tightness, cl, cc, v)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "\n%v\n", rs.Summary()); err != nil {
		return err
	}
	for _, r := range rs {
		if _, err := fmt.Fprintf(w, "\n%s: %s\n  neighbours: %s\n  test: %s; region %s (evaluation half: %d/%d on D, %d/%d on D′)\n",
			r.Name, r.Mechanism, r.Neighbours, r.Test, r.Region, r.In0, r.Eval, r.In1, r.Eval); err != nil {
			return err
		}
		if c := r.Control; c != nil {
			if _, err := fmt.Fprintf(w, "  %s: ε lower %.3f (%.2f× the claim), region %s (%d/%d on D, %d/%d on D′)\n",
				c.Mechanism, c.Lower, c.OverClaim, c.Region, c.In0, c.Eval, c.In1, c.Eval); err != nil {
				return err
			}
		}
	}
	return nil
}

// controlText returns a row's control ε lower bound and "yes"/"NO", or
// "—" twice for a row without a control.
func controlText(r Result) (string, string) {
	if r.Control == nil {
		return "—", "—"
	}
	if r.Control.Caught {
		return fmt.Sprintf("%.3f", r.Control.Lower), "yes"
	}
	return fmt.Sprintf("%.3f", r.Control.Lower), "NO"
}

func fmtNum(x Num) string { return fmt.Sprintf("%.3f", float64(x)) }

// Markdown returns the table as markdown (for notebooks).
func (rs Results) Markdown() string {
	var b strings.Builder
	b.WriteString("| audit | claimed (ε, δ) | runs per input | ε lower (95% CP) | estimate | upper | tightness | control ε lower | caught | verdict |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rs {
		v := verdictText(r)
		cl, cc := controlText(r)
		fmt.Fprintf(&b, "| `%s` | (%g, %g) | %d | %.3f | %s | %s | %.2f | %s | %s | %s |\n", r.Name, r.Epsilon, r.Delta, r.Trials,
			r.Lower, fmtNum(r.Estimate), fmtNum(r.Upper), r.Tightness, cl, cc, v)
	}
	fmt.Fprintf(&b, "\n%v\n", rs.Summary())
	return b.String()
}

// verdictText is the verdict with the demonstration mark and the note.
func verdictText(r Result) string {
	v := r.Verdict
	if r.Demonstration {
		v += " (demonstration)"
	}
	if r.Note != "" {
		v += "; " + r.Note
	}
	return v
}
