package main

import (
	"fmt"
	"sort"

	"github.com/dpbandits/dpbandits/dpb/figspec"
)

// figureRuns maps every figure of figspec.All to its run function (in the
// paper's file: ss18_figures.go, …): most go through figurePhases.
func figureRuns() map[string]func(name, out string, args []string) error {
	return map[string]func(name, out string, args []string) error{
		"ss18-fig1":         figurePhases(defineSS18Fig1),
		"ss18-fig2":         runSS18Fig2,
		"ss18-fig3":         runSS18Fig3,
		"ss18-fig4":         figurePhases(defineSS18Fig4),
		"ss18-fig5":         figurePhases(defineSS18Fig5),
		"secure-regret":     figurePhases(defineSecureRegret),
		"mt14-fig1-k5":      figurePhases(defineMT14Fig1(5)),
		"mt14-fig1-k10":     figurePhases(defineMT14Fig1(10)),
		"mt14-fig2-shuttle": func(name, out string, args []string) error { return mt14Fig2(name, out, "shuttle", args) },
		"mt14-fig2-obd":     func(name, out string, args []string) error { return mt14Fig2(name, out, "obd", args) },
		"mt14-fig2-obd-bts": mt14Fig2BTS,
		"private-mab-k5":    func(name, out string, args []string) error { return privateMAB(name, out, 5, args) },
		"private-mab-k10":   func(name, out string, args []string) error { return privateMAB(name, out, 10, args) },
		"as17-table1":       figurePhases(defineAS17Table(1)),
		"as17-table2":       figurePhases(defineAS17Table(2)),
		"beyond-counters":   runBeyondCounters,
		"beyond-ss18":       figurePhases(defineBeyondSS18),
		"beyond-mt14":       figurePhases(defineBeyondMT14),
		"beyond-as17":       figurePhases(defineBeyondAS17),
	}
}

// figureTable joins figspec's list with the run functions: a figure
// without a run, or a run without a figure, is a programmer's error.
func figureTable() []figureSpec {
	return joinFigures(figspec.All(), figureRuns())
}

// joinFigures pairs each spec with its run; it panics naming the specs
// without a run and the runs without a spec.
func joinFigures(specs []figspec.Spec, runs map[string]func(name, out string, args []string) error) []figureSpec {
	var t []figureSpec
	var missing []string
	used := map[string]bool{}
	for _, s := range specs {
		run, ok := runs[s.Name]
		if !ok {
			missing = append(missing, s.Name)
			continue
		}
		used[s.Name] = true
		t = append(t, figureSpec{Spec: s, run: run})
	}
	var extra []string
	for n := range runs {
		if !used[n] {
			extra = append(extra, n)
		}
	}
	sort.Strings(extra)
	if len(missing) > 0 || len(extra) > 0 {
		panic(fmt.Sprintf("dpb: figures without a run function: %q; run functions without a figure: %q", missing, extra))
	}
	return t
}
