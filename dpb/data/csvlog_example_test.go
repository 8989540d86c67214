package data_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/data"
	"github.com/dpbandits/dpbandits/dpb/ope"
)

// Off-policy evaluation of a fixed policy on one's own log: write a CSV in
// the documented schema (here simulated: a logger that prefers arm 0),
// read it back and estimate the value of "play arm 1 when x0 > 0, else arm
// 2" by IPS, SNIPS, DM and DR, with 95% intervals and the effective sample
// size.
func ExampleLoadCSVLog() {
	dir, _ := os.MkdirTemp("", "dpb-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "log.csv")
	f, _ := os.Create(path)
	fmt.Fprintln(f, "action,reward,propensity,x0")
	rng := rand.New(rand.NewPCG(1, 2))
	logging := []float64{0.6, 0.2, 0.2}
	for range 20000 {
		x := rng.Float64()*2 - 1
		a := 0
		if u := rng.Float64(); u >= 0.6 {
			a = 1 + int((u-0.6)/0.2)
		}
		mean := []float64{0.3, 0.5 + 0.3*x, 0.5 - 0.3*x}[a] // arm 1 is better when x > 0
		r := 0
		if rng.Float64() < mean {
			r = 1
		}
		fmt.Fprintf(f, "%d,%d,%g,%.4f\n", a, r, logging[a], x)
	}
	f.Close()

	log, err := data.LoadCSVLog(path, data.CSVLogConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	// Disjoint features: arm a's vector holds x0 in its block a.
	target := ope.TargetFunc(func(r *bandit.Round) int {
		if r.Action(1)[1] > 0 {
			return 1
		}
		return 2
	})
	// A context-free reward model (each arm's mean): DM inherits its bias, DR
	// corrects it. (Fit on the same events it adds an O(1/n) bias to DR; fit
	// it on a held-out log when there is one.)
	model, _ := ope.FitArmMeans(log, 0, log.Len(), 0.5)
	est, err := ope.EstimateAll(log, target, model, ope.Estimators, ope.EstimateConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range est {
		// True value 0.5 + 0.3·E|x| = 0.65.
		fmt.Printf("%-5v covers 0.65: %v, ESS %.0f of %d\n", e.Estimator, e.Lo <= 0.65 && 0.65 <= e.Hi, e.ESS, e.Events)
	}
	// Output:
	// IPS   covers 0.65: true, ESS 3982 of 20000
	// SNIPS covers 0.65: true, ESS 3982 of 20000
	// DM    covers 0.65: false, ESS 20000 of 20000
	// DR    covers 0.65: true, ESS 3982 of 20000
}
