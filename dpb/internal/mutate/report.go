package mutate

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// Report is the result of [Run]: provenance, the baseline, every outcome
// and the score.
type Report struct {
	Commit  string  `json:"commit"`
	Dirty   bool    `json:"dirty"` // tracked files differed from the commit
	Date    string  `json:"date"`
	CPU     string  `json:"cpu"`
	Go      string  `json:"go"`
	Command string  `json:"command,omitempty"` // set by the caller
	Jobs    int     `json:"jobs"`
	Workers int     `json:"workers"`
	Audit   bool    `json:"audit"`
	Tests   bool    `json:"tests"`
	Seconds float64 `json:"seconds"`

	BaselineVerdicts  int `json:"baseline_verdicts"`
	BaselinePassing   int `json:"baseline_passing"`
	BaselineAuditRows int `json:"baseline_audit_rows,omitempty"`

	Score    Score     `json:"score"`
	Outcomes []Outcome `json:"outcomes"`
}

// Tally counts one class of defects. Total and Caught leave out the
// equivalent defects and those that did not run (build failure, error).
type Tally struct {
	Total      int `json:"total"`
	Caught     int `json:"caught"`
	ByCheck    int `json:"by_check"`          // caught by the check suite
	ByAudit    int `json:"by_audit"`          // missed by the checks, caught by the audit
	ByTests    int `json:"by_tests"`          // caught by a test (algorithmic)
	TestsOnly  int `json:"by_tests_only"`     // caught by a test and nothing else
	Equivalent int `json:"equivalent"`        // listed, not counted
	NotRun     int `json:"not_run,omitempty"` // build failures and errors
}

// Score is the mutation score by class.
type Score struct {
	Privacy     Tally `json:"privacy"`
	Algorithmic Tally `json:"algorithmic"`
}

// String is "caught/total (p %)".
func (t Tally) String() string {
	if t.Total == 0 {
		return "0/0"
	}
	return fmt.Sprintf("%d/%d (%.0f %%)", t.Caught, t.Total, 100*float64(t.Caught)/float64(t.Total))
}

// ScoreOf tallies the outcomes.
func ScoreOf(outs []Outcome) Score {
	var s Score
	for _, o := range outs {
		t := &s.Algorithmic
		if o.Class == Privacy {
			t = &s.Privacy
		}
		switch {
		case o.Equivalent != "":
			t.Equivalent++
			continue
		case o.Status != StatusCaught && o.Status != StatusMissed:
			t.NotRun++
			continue
		}
		t.Total++
		if !o.Caught() {
			continue
		}
		t.Caught++
		by := func(what string) bool { return slices.Contains(o.CaughtBy, what) }
		switch {
		case by(ByCheck):
			t.ByCheck++
		case by(ByAudit):
			t.ByAudit++
		}
		if by(ByTests) {
			t.ByTests++
			if len(o.CaughtBy) == 1 {
				t.TestsOnly++
			}
		}
	}
	return s
}

// Problems lists what makes a run unusable: defects that did not build or
// did not run, and equivalent defects that an instrument caught (so they
// are not equivalent).
func (r *Report) Problems() []string {
	var p []string
	for _, o := range r.Outcomes {
		switch {
		case o.Status == StatusBuildFailed:
			p = append(p, fmt.Sprintf("%s: the mutant does not build (fix the catalogue entry): %s", o.ID, o.Error))
		case o.Status == StatusError:
			p = append(p, fmt.Sprintf("%s: %s", o.ID, o.Error))
		case o.Equivalent != "" && o.Caught():
			p = append(p, fmt.Sprintf("%s: marked equivalent but caught (%s): not equivalent", o.ID, o.evidence()))
		}
	}
	return p
}

// ExpectationFailures lists the defects marked ci-expect: caught that were
// not caught; Surprises those marked ci-expect: missed that were.
func (r *Report) ExpectationFailures() (failures, surprises []string) {
	for _, o := range r.Outcomes {
		switch {
		case o.CIExpect == ExpectCaught && !o.Caught():
			failures = append(failures, fmt.Sprintf("%s: ci-expect caught, %s", o.ID, o.Status))
		case o.CIExpect == ExpectMissed && o.Caught():
			surprises = append(surprises, fmt.Sprintf("%s: ci-expect missed, now caught by %s (update the catalogue)", o.ID, o.evidence()))
		}
	}
	return failures, surprises
}

func newReport(ctx context.Context, r *runner, cfg Config) *Report {
	rep := &Report{Date: time.Now().UTC().Format("2006-01-02 15:04 MST"), CPU: cpuModel(), Jobs: cfg.Jobs,
		Workers: cfg.Workers, Audit: cfg.Audit, Tests: cfg.Tests}
	if b, err := exec.CommandContext(ctx, "git", "-C", cfg.Root, "rev-parse", "HEAD").Output(); err == nil {
		rep.Commit = strings.TrimSpace(string(b))
	}
	if b, err := exec.CommandContext(ctx, "git", "-C", cfg.Root, "status", "--porcelain", "--untracked-files=no").Output(); err == nil {
		rep.Dirty = len(strings.TrimSpace(string(b))) > 0
	}
	if b, err := exec.CommandContext(ctx, r.gocmd, "env", "GOVERSION").Output(); err == nil {
		rep.Go = strings.TrimSpace(string(b))
	}
	return rep
}

// cpuModel returns the first "model name" of /proc/cpuinfo ("" elsewhere).
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(r)
}

// evidence says in a few words what caught the defect.
func (o Outcome) evidence() string {
	var parts []string
	for _, by := range o.CaughtBy {
		switch by {
		case ByCheck:
			if o.CheckFailure != "" {
				parts = append(parts, "check run failed ("+clip(o.CheckFailure, 80)+")")
			} else {
				parts = append(parts, "check: "+names(o.Verdicts, 3))
			}
		case ByAudit:
			if o.AuditFailure != "" {
				parts = append(parts, "audit run failed ("+clip(o.AuditFailure, 80)+")")
			} else {
				parts = append(parts, "audit: "+names(o.AuditRows, 3))
			}
		case ByTests:
			if o.TestsFailure != "" {
				parts = append(parts, "tests: "+clip(o.TestsFailure, 80))
			} else {
				parts = append(parts, "tests: "+names(o.Tests, 3))
			}
		}
	}
	return strings.Join(parts, "; ")
}

func names(ns []string, n int) string {
	q := make([]string, 0, n)
	for _, s := range ns[:min(n, len(ns))] {
		q = append(q, "`"+s+"`")
	}
	s := strings.Join(q, ", ")
	if len(ns) > n {
		s += fmt.Sprintf(" (+%d)", len(ns)-n)
	}
	return s
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// result is the table's result cell.
func (o Outcome) result() string {
	switch {
	case o.Status == StatusCaught:
		return o.evidence()
	case o.Status == StatusMissed:
		var ran []string
		if o.CheckRun {
			ran = append(ran, "check")
		}
		if o.AuditRun {
			ran = append(ran, "audit")
		}
		if o.AuditSkipped {
			ran = append(ran, "no audit: adds noise only")
		}
		if o.TestsRun {
			ran = append(ran, "tests")
		}
		s := "**MISSED** (" + strings.Join(ran, ", ") + ")"
		if len(o.PinFailures) > 0 {
			s += "; only pins fail: " + names(o.PinFailures, 3)
		}
		return s
	}
	return "**" + o.Status + "**: " + clip(o.Error, 120)
}

// line is the log line of a finished outcome.
func (o Outcome) line() string {
	s := fmt.Sprintf("%s (%s, %s, %.0fs): ", o.ID, o.Class, o.Category, o.Seconds)
	if o.Equivalent != "" {
		s += "[equivalent] "
	}
	r := strings.ReplaceAll(o.result(), "`", "")
	return s + strings.ReplaceAll(r, "**", "")
}

// WriteMarkdown writes the score and the table of outcomes.
func (r *Report) WriteMarkdown(w io.Writer) error {
	b := &strings.Builder{}
	s := r.Score
	fmt.Fprintf(b, "Mutation score: privacy **%v**, algorithmic **%v** (caught / (total − equivalent)).\n\n", s.Privacy, s.Algorithmic)
	fmt.Fprintf(b, "- privacy: %d caught by `dpb check all -short`, %d more by `dpb audit -short` only; %d missed; %d equivalent (listed, not counted)\n",
		s.Privacy.ByCheck, s.Privacy.ByAudit, s.Privacy.Total-s.Privacy.Caught, s.Privacy.Equivalent)
	fmt.Fprintf(b, "- algorithmic: %d caught by the checks, %d by the audit only, %d by a test of the mutated package (%d by a test alone); %d missed; %d equivalent\n",
		s.Algorithmic.ByCheck, s.Algorithmic.ByAudit, s.Algorithmic.ByTests, s.Algorithmic.TestsOnly, s.Algorithmic.Total-s.Algorithmic.Caught, s.Algorithmic.Equivalent)
	if n := s.Privacy.NotRun + s.Algorithmic.NotRun; n > 0 {
		fmt.Fprintf(b, "- %d defects did not run (build failure or error): the run is not valid\n", n)
	}
	fmt.Fprintf(b, "\nCommit %s%s, %s, %s, %s; %d defects %d at a time, `-workers %d`; %.0f s.\n\n",
		short(r.Commit), map[bool]string{true: " (with uncommitted changes)"}[r.Dirty], r.Date, r.CPU, r.Go, len(r.Outcomes), r.Jobs, r.Workers, r.Seconds)
	b.WriteString("| defect | class | category | what is planted | caught by |\n|---|---|---|---|---|\n")
	for _, o := range r.Outcomes {
		what := fmt.Sprintf("%s (`%s`)", o.Desc, o.File)
		res := o.result()
		if o.Equivalent != "" {
			res = "equivalent, not counted (" + o.Equivalent + "): " + res
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s | %s |\n", o.ID, o.Class, o.Category, cell(what), cell(res))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func short(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	if c == "" {
		return "(unknown)"
	}
	return c
}
