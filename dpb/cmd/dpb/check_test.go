package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestCheckSS18Command(t *testing.T) {
	var b bytes.Buffer
	if err := runCheck(&b, []string{"ss18", "-short", "-json"}); err != nil {
		t.Fatalf("dpb check ss18 -short -json: %v\n%s", err, b.String())
	}
	var out struct {
		Verdicts []struct {
			Name string `json:"name"`
			Pass bool   `json:"pass"`
		} `json:"verdicts"`
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, b.String())
	}
	if len(out.Verdicts) < 30 {
		t.Errorf("only %d verdicts", len(out.Verdicts))
	}
	b.Reset()
	if err := runCheck(&b, []string{"ss18", "-short"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "claim17-upper") {
		t.Errorf("text table lacks claim17-upper:\n%s", b.String())
	}
	if err := runCheck(&b, []string{"mt14"}); err == nil {
		t.Error("unknown paper accepted")
	}
}
