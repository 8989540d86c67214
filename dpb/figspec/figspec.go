// Package figspec lists the figures "dpb reproduce" writes: each figure's
// name, its paper (the group "dpb reproduce PAPER" runs), a one-line summary
// and the files it writes. The command line runs them (dpb/cmd/dpb joins
// each spec with its run function); a notebook or script imports this
// package to name a figure's files without copying the list.
package figspec

import "fmt"

// Spec is one figure of "dpb reproduce".
type Spec struct {
	Name    string
	Paper   string // ss18, mt14, as17, private, secure or beyond: the name's first word
	Summary string
	// Outputs are the files the figure writes at its default flags besides
	// NAME.json (which lists them with their SHA-256s), as suffixes of
	// NAME: ".svg" is NAME.svg.
	Outputs []string
}

// Files returns the names of the files the figure writes besides its JSON.
func (s Spec) Files() []string {
	f := make([]string, len(s.Outputs))
	for i, o := range s.Outputs {
		f[i] = s.Name + o
	}
	return f
}

// plot is the outputs of a figure with one plot and one table.
func plot() []string { return []string{".svg", ".png", ".csv"} }

// withFinals is plot() and the companion figure of the distribution of
// final regret across runs, with its table (NAME-finals.svg, .png, .csv).
func withFinals(o []string) []string {
	return append(o, "-finals.svg", "-finals.png", "-finals.csv")
}

// All returns every figure, in the order of "dpb reproduce -list"'s papers
// (the list itself is sorted by name).
func All() []Spec {
	t := []Spec{
		{"ss18-fig1", "ss18", "SS18 Fig. 1: one decision set in R³, K = 1000 actions", plot()},
		{"ss18-fig2", "ss18", "SS18 Fig. 2: non-private LinUCB regret over time for several d (Exp. 1)", plot()},
		{"ss18-fig3", "ss18", "SS18 Fig. 3: total regret vs d, log–log with fitted slope (Exp. 1)", plot()},
		{"ss18-fig4", "ss18", "SS18 Fig. 4: private variants' regret over time, Δ = 0 and 0.1 (Exp. 2), and the final regret of each run", withFinals(plot())},
		{"ss18-fig5", "ss18", "SS18 Fig. 5: regret vs the shift (ρ_min) for several gaps (Exp. 3)", plot()},
		{"secure-regret", "secure", "SS18 Fig. 4's setting: regret on secure (seeded) vs simulated noise, paired runs, and CPU µs per round",
			[]string{".svg", ".png", ".csv", "-cpu.csv"}},
	}
	for _, k := range []int{5, 10} {
		t = append(t, Spec{fmt.Sprintf("mt14-fig1-k%d", k), "mt14", fmt.Sprintf("MT14 Fig. 1: DP-UCB vs UCB1 regret over time, k=%d, Δ=0.5, and the final regret of each run", k), withFinals(plot())})
	}
	t = append(t,
		Spec{"mt14-fig2-shuttle", "mt14", "MT14 Fig. 2 on Shuttle: private contextual UCB, replay CTR vs ε and delay", plot()},
		Spec{"mt14-fig2-obd", "mt14", "MT14 Fig. 2 on Open Bandit Dataset (men, random): replay CTR vs ε and delay", plot()},
		Spec{"mt14-fig2-obd-bts", "mt14", "MT14 Fig. 2 on OBD's Bernoulli-TS log: rejection replay and DR (with ESS) beside uniform-log replay", plot()},
	)
	for _, k := range []int{5, 10} {
		t = append(t, Spec{fmt.Sprintf("private-mab-k%d", k), "private",
			fmt.Sprintf("DP-UCB vs the optimal ε-DP bandits (DP-SE, AdaP, DP-KLUCB, DP-IMED, Lazy-DP-TS) on MT14 Fig. 1's arms, k=%d, with lower bounds", k),
			withFinals([]string{".svg", ".png", ".csv", ".md"})})
	}
	as17 := func() []string {
		return []string{".svg", ".png", "-excess.svg", "-excess.png", "-eps.svg", "-eps.png", "-eps.csv", ".csv"}
	}
	return append(t,
		Spec{"as17-table1", "as17", "AS17 Table 1: DP-FTRL/FTPL regret vs T and ε beside the bounds", as17()},
		Spec{"as17-table2", "as17", "AS17 Table 2: private SCRiBLE/EXP2 regret vs T and ε beside the bounds", as17()},
		Spec{"beyond-counters", "beyond", "continual counters at equal (ε, δ): max and mean per-round noise s.d. vs n, exact", plot()},
		Spec{"beyond-ss18", "beyond", "SS18 Fig. 4's setting with exact calibration and modern counters, regret over time and the final regret of each run", withFinals(plot())},
		Spec{"beyond-mt14", "beyond", "MT14 Fig. 1 (k = 5) with DP-UCB on Honaker's, the smooth binary and the k-ary tree counters beside the tree", plot()},
		Spec{"beyond-as17", "beyond", "AS17 Table 1's DP-FTRL with the continual counters at one (ε, δ): regret vs T beside the Laplace tree and the bounds", plot()},
	)
}

// Lookup returns the figure named name.
func Lookup(name string) (Spec, bool) {
	for _, s := range All() {
		if s.Name == name {
			return s, true
		}
	}
	return Spec{}, false
}
