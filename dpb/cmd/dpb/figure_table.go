package main

import "fmt"

// figureTable lists every figure of "dpb reproduce", in the order of the
// papers; each row's run is in the paper's file (ss18_figures.go, …).
func figureTable() []figureSpec {
	t := []figureSpec{
		{"ss18-fig1", "ss18", "SS18 Fig. 1: one decision set in R³, K = 1000 actions", plotOutputs, figurePhases(defineSS18Fig1)},
		{"ss18-fig2", "ss18", "SS18 Fig. 2: non-private LinUCB regret over time for several d (Exp. 1)", plotOutputs, runSS18Fig2},
		{"ss18-fig3", "ss18", "SS18 Fig. 3: total regret vs d, log–log with fitted slope (Exp. 1)", plotOutputs, runSS18Fig3},
		{"ss18-fig4", "ss18", "SS18 Fig. 4: private variants' regret over time, Δ = 0 and 0.1 (Exp. 2)", plotOutputs, figurePhases(defineSS18Fig4)},
		{"ss18-fig5", "ss18", "SS18 Fig. 5: regret vs the shift (ρ_min) for several gaps (Exp. 3)", plotOutputs, figurePhases(defineSS18Fig5)},
		{"secure-regret", "secure", "SS18 Fig. 4's setting: regret on secure (seeded) vs simulated noise, paired runs, and CPU µs per round",
			[]string{".svg", ".png", ".csv", "-cpu.csv"}, figurePhases(defineSecureRegret)},
	}
	for _, k := range []int{5, 10} {
		t = append(t, figureSpec{fmt.Sprintf("mt14-fig1-k%d", k), "mt14", fmt.Sprintf("MT14 Fig. 1: DP-UCB vs UCB1 regret over time, k=%d, Δ=0.5", k), plotOutputs,
			figurePhases(defineMT14Fig1(k))})
	}
	t = append(t,
		figureSpec{"mt14-fig2-shuttle", "mt14", "MT14 Fig. 2 on Shuttle: private contextual UCB, replay CTR vs ε and delay", plotOutputs,
			func(name, out string, args []string) error { return mt14Fig2(name, out, "shuttle", args) }},
		figureSpec{"mt14-fig2-obd", "mt14", "MT14 Fig. 2 on Open Bandit Dataset (men, random): replay CTR vs ε and delay", plotOutputs,
			func(name, out string, args []string) error { return mt14Fig2(name, out, "obd", args) }},
		figureSpec{"mt14-fig2-obd-bts", "mt14", "MT14 Fig. 2 on OBD's Bernoulli-TS log: rejection replay and DR (with ESS) beside uniform-log replay", plotOutputs, mt14Fig2BTS},
	)
	for _, k := range []int{5, 10} {
		t = append(t, figureSpec{fmt.Sprintf("private-mab-k%d", k), "private",
			fmt.Sprintf("DP-UCB vs the optimal ε-DP bandits (DP-SE, AdaP, DP-KLUCB, DP-IMED, Lazy-DP-TS) on MT14 Fig. 1's arms, k=%d, with lower bounds", k),
			[]string{".svg", ".png", ".csv", ".md"}, func(name, out string, args []string) error { return privateMAB(name, out, k, args) }})
	}
	as17 := []string{".svg", ".png", "-excess.svg", "-excess.png", "-eps.svg", "-eps.png", "-eps.csv", ".csv"}
	return append(t,
		figureSpec{"as17-table1", "as17", "AS17 Table 1: DP-FTRL/FTPL regret vs T and ε beside the bounds", as17,
			figurePhases(defineAS17Table(1))},
		figureSpec{"as17-table2", "as17", "AS17 Table 2: private SCRiBLE/EXP2 regret vs T and ε beside the bounds", as17,
			figurePhases(defineAS17Table(2))},
		figureSpec{"beyond-counters", "beyond", "continual counters at equal (ε, δ): max and mean per-round noise s.d. vs n, exact", plotOutputs, runBeyondCounters},
		figureSpec{"beyond-ss18", "beyond", "SS18 Fig. 4's setting with exact calibration and modern counters, regret over time", plotOutputs, figurePhases(defineBeyondSS18)},
		figureSpec{"beyond-mt14", "beyond", "MT14 Fig. 1 (k = 5) with DP-UCB on Honaker's, the smooth binary and the k-ary tree counters beside the tree", plotOutputs, figurePhases(defineBeyondMT14)},
		figureSpec{"beyond-as17", "beyond", "AS17 Table 1's DP-FTRL with the continual counters at one (ε, δ): regret vs T beside the Laplace tree and the bounds", plotOutputs, figurePhases(defineBeyondAS17)},
	)
}
