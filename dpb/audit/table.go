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

// WriteText prints the table: mechanism, claimed (ε, δ), trials, the
// empirical ε lower bound with its estimate and upper end, tightness and
// verdict, then each row's neighbours and test.
func (rs Results) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "audit\tclaimed (ε, δ)\ttrials\tε lower (95% CP)\tε estimate\tε upper\ttightness\tverdict")
	for _, r := range rs {
		v := verdictText(r)
		fmt.Fprintf(tw, "%s\t(%g, %g)\t%d\t%.3f\t%s\t%s\t%.2f\t%s\n", r.Name, r.Epsilon, r.Delta, r.Trials,
			r.Lower, fmtNum(r.Estimate), fmtNum(r.Upper), r.Tightness, v)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rs {
		if _, err := fmt.Fprintf(w, "\n%s: %s\n  neighbours: %s\n  test: %s; region %s (evaluation half: %d/%d on D, %d/%d on D′)\n",
			r.Name, r.Mechanism, r.Neighbours, r.Test, r.Region, r.In0, r.Eval, r.In1, r.Eval); err != nil {
			return err
		}
	}
	return nil
}

func fmtNum(x Num) string { return fmt.Sprintf("%.3f", float64(x)) }

// Markdown returns the table as markdown (for notebooks).
func (rs Results) Markdown() string {
	var b strings.Builder
	b.WriteString("| audit | claimed (ε, δ) | runs per input | ε lower (95% CP) | estimate | upper | tightness | verdict |\n|---|---|---|---|---|---|---|---|\n")
	for _, r := range rs {
		v := verdictText(r)
		fmt.Fprintf(&b, "| `%s` | (%g, %g) | %d | %.3f | %s | %s | %.2f | %s |\n", r.Name, r.Epsilon, r.Delta, r.Trials,
			r.Lower, fmtNum(r.Estimate), fmtNum(r.Upper), r.Tightness, v)
	}
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
