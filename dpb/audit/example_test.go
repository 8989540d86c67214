package audit_test

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/audit"
)

// Auditing one mechanism: pure-ε DP-FTRL (AS17's Laplace TreeBasedAgg, ε = 1)
// run many times on two neighbouring loss streams, its predictions scored by
// the exact log-likelihood ratio. The empirical ε lower bound (95 %
// Clopper–Pearson, on a held-out half of the runs) must stay within the
// claimed ε, and the row's negative control (the same mechanism with its
// noise scale divided by 2) must be caught above it.
func ExampleRun() {
	m, err := audit.Lookup("as17-ftrl-e2e-laplace")
	if err != nil {
		panic(err)
	}
	r, err := audit.Run(m, audit.Options{Trials: 6000, Short: true, Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println("runs on each input:", r.Trials)
	fmt.Println("claimed ε:", r.Epsilon)
	fmt.Println("lower bound within the claim:", r.Lower <= r.Epsilon)
	fmt.Println("control caught:", r.PowerShown())
	fmt.Println("verdict:", r.Verdict)
	// Output:
	// runs on each input: 6000
	// claimed ε: 1
	// lower bound within the claim: true
	// control caught: true
	// verdict: ok
}
