package check

import (
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// TestLeverSecureSensitivity: each noise lever's secure-μ row passes on the
// built regularizer and catches its control (the noise built for twice the
// sensitivity); the split rows see four classes of discrete scales (the
// block's diagonal and off-diagonal, u and the corner), the unsplit two.
// Arithmetic on the built object: no sampling, no false-failure rate.
func TestLeverSecureSensitivity(t *testing.T) {
	vs, err := LeverSecureSensitivity(ss18.Setting{D: 5, N: 1000, Epsilon: 1, Delta: 0.1, Lt2: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != len(ss18.NoiseLeverAlgs) {
		t.Fatalf("%d rows, want %d", len(vs), len(ss18.NoiseLeverAlgs))
	}
	for _, v := range vs {
		if !v.Pass || v.ControlCaught == nil || !*v.ControlCaught || v.Kind != KindArithmetic {
			t.Errorf("%s: pass %v, slack %.10g, control slack %.10g caught %v", v.Name, v.Pass, v.Slack, v.ControlSlack, v.ControlCaught)
		}
		want := "4 classes"
		if strings.Contains(v.Name, "Toeplitz") {
			want = "2 classes"
		}
		if !strings.Contains(v.Claim, want) {
			t.Errorf("%s: claim %q, want %s", v.Name, v.Claim, want)
		}
	}
}
