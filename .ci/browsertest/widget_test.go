package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnwire: the committed knob notebook declares its widget, and the
// control's one-line edit applies exactly once; a notebook where the line
// is missing (the edit would silently leave the slider wired) is refused.
func TestUnwire(t *testing.T) {
	src := filepath.Join("..", "..", "notebooks", "privacy_knob.ipynb")
	w, err := readWidget(src)
	if err != nil || w == nil {
		t.Fatalf("readWidget: %v, %v", w, err)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "knob.ipynb")
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := unwire(dst); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(dst)
	var nb struct {
		Cells []struct {
			Source any `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(got, &nb); err != nil {
		t.Fatal(err)
	}
	var code strings.Builder
	for _, c := range nb.Cells {
		code.WriteString(sourceText(c.Source))
	}
	if strings.Contains(code.String(), w.Unwire[0]) || !strings.Contains(code.String(), w.Unwire[1]) {
		t.Error("the unwired copy still holds the wiring line, or lacks its replacement")
	}
	// Applied again, the line is gone: refused.
	if err := unwire(dst); err == nil || !strings.Contains(err.Error(), "occurs 0 times") {
		t.Errorf("unwire of a notebook without the line: %v", err)
	}
}

// TestConsistent: a chart that draws what the kernel computed at the
// controls' values passes; each kind of disagreement is caught.
func TestConsistent(t *testing.T) {
	w := &widgetSpec{Epsilons: []float64{0.1, 1}, Options: []string{"tree", "blt"}}
	good := knobState{Slider: 1, Select: 0, Epsilon: 1, Counter: "tree", Title: "tree counter, ε = 1, δ = 1e-06",
		AttrLast: []float64{12.5, 14}, ChartLast: []float64{12.5, 14}, Points: 1024}
	if p := w.consistent("test", good); len(p) > 0 {
		t.Fatalf("a consistent state fails: %v", p)
	}
	for name, mod := range map[string]func(*knobState){
		"slider elsewhere":   func(s *knobState) { s.Slider = 0 },
		"select elsewhere":   func(s *knobState) { s.Select = 1 },
		"stale title":        func(s *knobState) { s.Title = "tree counter, ε = 0.1, δ = 1e-06" },
		"chart not the data": func(s *knobState) { s.ChartLast = []float64{12.5, 14.5} },
		"empty chart":        func(s *knobState) { s.Points = 0 },
	} {
		s := good
		s.AttrLast = append([]float64(nil), good.AttrLast...)
		s.ChartLast = append([]float64(nil), good.ChartLast...)
		mod(&s)
		if p := w.consistent("test", s); len(p) == 0 {
			t.Errorf("%s: not caught", name)
		}
	}
}
