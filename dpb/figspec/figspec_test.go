package figspec

import (
	"slices"
	"strings"
	"testing"
)

// TestAllWellFormed: names are unique, each paper is its name's first word,
// every figure has outputs, and Lookup finds each.
func TestAllWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range All() {
		if seen[s.Name] {
			t.Errorf("%s listed twice", s.Name)
		}
		seen[s.Name] = true
		if p, _, _ := strings.Cut(s.Name, "-"); p != s.Paper {
			t.Errorf("%s: paper %q, want %q (the name's first word)", s.Name, s.Paper, p)
		}
		if len(s.Outputs) == 0 || s.Summary == "" {
			t.Errorf("%s: no outputs or summary", s.Name)
		}
		if got, ok := Lookup(s.Name); !ok || got.Name != s.Name {
			t.Errorf("Lookup(%q) = %v, %v", s.Name, got.Name, ok)
		}
	}
	if _, ok := Lookup("ss18-fig9"); ok {
		t.Error("Lookup found a figure that does not exist")
	}
}

func TestFiles(t *testing.T) {
	s, _ := Lookup("secure-regret")
	want := []string{"secure-regret.svg", "secure-regret.png", "secure-regret.csv", "secure-regret-cpu.csv"}
	if got := s.Files(); !slices.Equal(got, want) {
		t.Errorf("Files() = %q, want %q", got, want)
	}
}
