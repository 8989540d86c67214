package check

import (
	"math/rand/v2"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// TestLearnerDefinitionRows runs the rows that compare the built learners
// with the check's own transcription of their papers' constants (issue 51:
// ss18-gaussian-shift, mt14-dpucb-index, privmab-lazydpts-posterior,
// as17-exp2-mixture): each must pass with its control caught. That each
// catches the defect it exists for (Υ or the Gaussian shift halved, Γ
// halved, Lazy-DP-TS's Laplace variance ÷4, EXP2's γ halved) is shown by
// the mutate tool (docs/mutation.md), on the planted defects themselves.
func TestLearnerDefinitionRows(t *testing.T) {
	s := ss18.Setting{D: 5, N: 1024, Epsilon: 1, Delta: 0.1, Lt2: 2}
	runs := []struct {
		name string
		run  func(*rand.Rand) (Verdicts, error)
	}{
		{"ss18-gaussian-shift", func(r *rand.Rand) (Verdicts, error) { return SS18GaussianShift(r, s) }},
		{"mt14-dpucb-index", MT14DPUCBIndex},
		{"privmab-lazydpts-posterior", MABLazyDPTSPosterior},
		{"as17-exp2-mixture", AS17Exp2Mixture},
	}
	for i, c := range runs {
		vs, err := c.run(rand.New(rand.NewPCG(uint64(i), 51)))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, v := range vs {
			t.Logf("%s: %s slack %.4g, control %s; %s", v.Name, v.Status(), v.Slack, v.ControlCell(), v.Note)
			if v.Name != c.name || !v.Pass || v.ControlCaught == nil || !*v.ControlCaught {
				t.Errorf("%s: %s (control caught %v), want a pass with its control caught", v.Name, v.Status(), v.ControlCaught)
			}
		}
	}
}
