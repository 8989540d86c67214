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
	if err := runCheck(&b, []string{"ss17"}); err == nil {
		t.Error("unknown paper accepted")
	}
}

// TestCheckMT14AS17Commands: every statement of MT14 and AS17 is listed with
// its number, the JSON is the ss18 format, and nothing fails unexpectedly
// (the AS17 privacy errata are marked as such).
func TestCheckMT14AS17Commands(t *testing.T) {
	want := map[string][]string{
		"mt14": {"mt14-counter-query", "mt14-counter-uniform", "mt14-thm3-privacy", "mt14-alg2-privacy", "mt14-gamma-relaxation", "mt14-thm4-regret", "mt14-thm2-ucb1", "mt14-cor15-lower"},
		"as17": {"as17-lemma3.3-upper", "as17-lemma3.3-lower", "as17-thm3.1-privacy-printed", "as17-thm3.1-privacy-corrected",
			"as17-lemma4.2-privacy-printed", "as17-lemma4.2-privacy-corrected", "as17-thm4.5-privacy-printed", "as17-thm4.5-privacy-corrected",
			"as17-lemma4.3-full", "as17-lemma4.3-bandit", "as17-cor3.2-experts", "as17-cor3.2-sphere", "as17-cor3.2-cube",
			"as17-thm3.5-ftpl", "as17-thm4.5-scrible-ball", "as17-thm4.5-scrible-cube", "as17-thm4.1-exp2",
			"as17-counter-bound-tree", "as17-counter-bound-tree-padded", "as17-counter-bound-honaker", "as17-counter-bound-smooth",
			"as17-counter-bound-sqrt", "as17-counter-bound-blt"},
	}
	for paper, names := range want {
		var b bytes.Buffer
		if err := runCheck(&b, []string{paper, "-short", "-json"}); err != nil {
			t.Fatalf("dpb check %s -short -json: %v\n%s", paper, err, b.String())
		}
		var out struct {
			Verdicts []struct {
				Name      string `json:"name"`
				Reference string `json:"reference"`
				Pass      bool   `json:"pass"`
				Erratum   bool   `json:"erratum"`
			} `json:"verdicts"`
		}
		if err := json.Unmarshal(b.Bytes(), &out); err != nil {
			t.Fatalf("%s: output is not JSON: %v", paper, err)
		}
		var got []string
		for _, v := range out.Verdicts {
			got = append(got, v.Name)
			if !v.Pass && !v.Erratum {
				t.Errorf("%s: %s failed", paper, v.Name)
			}
			if strings.HasSuffix(v.Name, "-printed") != v.Erratum {
				t.Errorf("%s: %s erratum=%v", paper, v.Name, v.Erratum)
			}
		}
		if strings.Join(got, ",") != strings.Join(names, ",") {
			t.Errorf("%s verdicts %v, want %v", paper, got, names)
		}
	}
}
