package audit

import (
	"slices"
	"testing"
)

// TestPrivMABAuditsListed: every optimal private K-armed algorithm of dpb is
// in the table (TestShortAudit runs them and fails on a violation), and the
// DP-SE and Lazy-DP-TS audits, which test the released mean with the
// Neyman–Pearson region, see a good part of the claimed ε (their short
// bounds are 0.65 and 0.93 at ε = 1, seeded; 0.98 and 0.97 in the full
// run) and catch their controls.
func TestPrivMABAuditsListed(t *testing.T) {
	names := Names()
	for _, n := range []string{"privmab-dp-se", "privmab-adap-ucb", "privmab-adap-klucb", "privmab-dp-klucb", "privmab-dp-imed", "privmab-lazy-dp-ts"} {
		if !slices.Contains(names, n) {
			t.Errorf("audit %s missing from %v", n, names)
		}
	}
	for _, n := range []string{"privmab-dp-se", "privmab-lazy-dp-ts"} {
		m, err := Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Run(m, Options{Short: true, Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != "ok" || !(r.Lower >= 0.5) || !r.PowerShown() {
			t.Errorf("%s audit: lower bound %.3f (verdict %s, control %+v), want in [0.5, 1] with the control caught", n, r.Lower, r.Verdict, r.Control)
		}
	}
}
