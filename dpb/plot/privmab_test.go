package plot

import (
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/mabfig"
)

// TestPrivateMABStatesGamma: the private-MAB figure names DP-UCB's failure
// probability γ = 1/T in its legend and in the title of the regret-at-T
// panel, and labels the other series by their names.
func TestPrivateMABStatesGamma(t *testing.T) {
	res, err := mabfig.Run(mabfig.Config{Arms: 3, Horizon: 500, Reps: 2, Seed: 1, Epsilons: []float64{0.1, 1, 10}, Points: 4,
		Algorithms: []string{"DP-UCB", "DP-SE"}})
	if err != nil {
		t.Fatal(err)
	}
	g, err := PrivateMAB(res, []float64{1}, 2)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, row := range g {
		for _, p := range row {
			if p == nil {
				continue
			}
			for s := range drawnTexts(t, p) {
				texts = append(texts, s)
			}
		}
	}
	all := strings.Join(texts, "\n")
	for _, want := range []string{"DP-UCB (γ = 1/T)", "UCB1 (non-private)", "DP-UCB at γ = 1/T"} {
		if !strings.Contains(all, want) {
			t.Errorf("figure texts lack %q:\n%s", want, all)
		}
	}
	if strings.Contains("\n"+all+"\n", "\nDP-UCB\n") {
		t.Errorf("a bare DP-UCB label is drawn:\n%s", all)
	}
}
