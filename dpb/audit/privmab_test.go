package audit

import (
	"slices"
	"testing"
)

// TestPrivMABAuditsListed: every optimal private K-armed algorithm of dpb is
// in the table (TestShortAudit runs them and fails on a violation), and the
// DP-SE audit, whose neighbours put the elimination at a coin toss, sees a
// good part of the claimed ε (its short bound is ≈ 0.55 at ε = 1).
func TestPrivMABAuditsListed(t *testing.T) {
	names := Names()
	for _, n := range []string{"privmab-dp-se", "privmab-adap-ucb", "privmab-adap-klucb", "privmab-dp-klucb", "privmab-dp-imed", "privmab-lazy-dp-ts"} {
		if !slices.Contains(names, n) {
			t.Errorf("audit %s missing from %v", n, names)
		}
	}
	m, err := Lookup("privmab-dp-se")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(m, Options{Short: true, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r.Failed() || !(r.Lower >= 0.3) {
		t.Errorf("DP-SE audit: lower bound %.3f (verdict %s), want in [0.3, 1]", r.Lower, r.Verdict)
	}
}
