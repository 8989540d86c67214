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
	// The finals companion: one panel per ε, UCB1 and both algorithms,
	// DP-UCB named with its γ there too.
	fp, err := PrivateMABFinals(res)
	if err != nil {
		t.Fatal(err)
	}
	if len(fp) != 3 {
		t.Fatalf("%d finals panels, want one per ε (3)", len(fp))
	}
	ps, err := FinalRegret(fp, FinalsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	drawn := drawnTexts(t, ps[1])
	for _, want := range []string{"UCB1 (non-private)", "DP-UCB (γ = 1/T)", "DP-SE"} {
		if _, ok := drawn[want]; !ok {
			t.Errorf("the ε=1 finals panel lacks the label %q: %v", want, drawn)
		}
	}
	if _, ok := drawn["DP-UCB"]; ok {
		t.Error("a bare DP-UCB label is drawn in the finals panel")
	}
}
