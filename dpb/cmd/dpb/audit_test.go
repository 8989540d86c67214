package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// TestAuditCommand runs a small, seeded part of the table (the secure rows
// are exercised by dpb/audit's own tests).
func TestAuditCommand(t *testing.T) {
	var b bytes.Buffer
	args := []string{"-json", "-trials", "4000", "laplace-tree-plain", "fp-attack-default", "ss18-wishart-tree"}
	if err := runAudit(&b, args); err != nil {
		t.Fatalf("dpb audit %v: %v\n%s", args, err, b.String())
	}
	var out struct {
		Results []struct {
			Name          string  `json:"name"`
			Lower         float64 `json:"eps_lower"`
			Verdict       string  `json:"verdict"`
			Demonstration bool    `json:"demonstration"`
		} `json:"results"`
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, b.String())
	}
	if len(out.Results) != 3 || out.Results[1].Verdict != "attack shown" || !out.Results[1].Demonstration {
		t.Errorf("unexpected table: %+v", out.Results)
	}
	b.Reset()
	if err := runAudit(&b, []string{"-trials", "2000", "laplace-tree-plain"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "tightness") || !strings.Contains(b.String(), "neighbours:") {
		t.Errorf("text table lacks its header or neighbours:\n%s", b.String())
	}
	if err := runAudit(&b, []string{"no-such-audit"}); err == nil || !strings.Contains(err.Error(), "unknown mechanism") {
		t.Errorf("unknown audit: err = %v", err)
	}
	if err := runAudit(&b, []string{"-trials", "-3"}); err == nil {
		t.Error("negative trials accepted")
	}
}

// Issue 40, Low: an audit of too few trials to ever show a violation is
// "inconclusive", not "ok"; an unknown name and "-list extra" are usage
// errors (exit 2); a name given twice runs once.
func TestAuditArguments(t *testing.T) {
	var b bytes.Buffer
	if err := runAudit(&b, []string{"-json", "-trials", "2", "laplace-tree-plain", "laplace-tree-plain"}); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Results []struct {
			Verdict string `json:"verdict"`
		} `json:"results"`
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Results) != 1 || out.Results[0].Verdict != "inconclusive" {
		t.Errorf("-trials 2, name twice: %+v", out.Results)
	}
	for _, args := range [][]string{{"no-such-audit"}, {"-list", "extra"}} {
		if err := runAudit(&b, args); exitCode(err, io.Discard) != 2 {
			t.Errorf("dpb audit %q: err = %v, want a usage error", args, err)
		}
	}
}
