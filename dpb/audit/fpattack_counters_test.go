package audit

import (
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/noise"
)

// TestFPAttackCounterRows runs the counters' float-attack rows at the short
// size (10,000 runs per input, 5,000 evaluated, seed 1, deterministic):
// on the simulated sampler the attack must be shown (lower bound above ε:
// the negative control, the test can fail) where round 1's release is one
// draw; on the secure sampler every release is a grid multiple or a
// function of grid-valued node values and the bound must stay at or below
// ε. The observed counts make both margins wide: off the grid, 3 of 5,000
// runs under D against 5,000 of 5,000 under D′ on the simulated tree and
// k-ary rows (bound 7.2, seven times the claim), and 5,000 of 5,000 under
// both on the secure rows (bound 0).
func TestFPAttackCounterRows(t *testing.T) {
	var names []string
	for _, m := range fpAttackCounterAudits(noise.SecureSeeded) {
		names = append(names, m.Name)
	}
	rs, err := RunNamed(names, Options{Short: true, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	shown := map[string]bool{"tree": true, "honaker": true, "kary": true, "sqrt": true, "blt": true}
	for _, r := range rs {
		kind := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(r.Name, "fp-attack-counter-"), "-default"), "-secure")
		switch {
		case strings.HasSuffix(r.Name, "-secure"):
			if !(r.Lower <= r.Epsilon) {
				t.Errorf("%s: lower bound %.3f above the claim %g", r.Name, r.Lower, r.Epsilon)
			}
		case shown[kind]:
			if !(r.Lower > r.Epsilon) || r.Verdict != "attack shown" {
				t.Errorf("%s: lower bound %.3f, verdict %q; want the attack shown", r.Name, r.Lower, r.Verdict)
			}
		}
	}
	if len(rs) != 14 {
		t.Errorf("%d rows, want 14 (7 simulated, 7 secure)", len(rs))
	}
}
