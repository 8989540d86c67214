package main

import (
	"bytes"
	"encoding/json"
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
