package check

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/accounting"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// TestGaussianNodeRows: the measured row passes Gaussian node noise at the
// σ the claim needs, with its σ/√2 control caught; it fails noise that is
// too quiet for the claim (σ/√2 of what it needs); the law row rejects a
// mis-stated σ. Each assertion on a passing row fails spuriously with
// probability ≤ 10⁻⁵ (the rows' own rule, seed fixed).
func TestGaussianNodeRows(t *testing.T) {
	const eps, delta, count, sens = 1.0, 1e-5, 8.0, 2.0
	sigma, err := accounting.GaussianSigma(eps, delta, sens*math.Sqrt(count))
	if err != nil {
		t.Fatal(err)
	}
	g, err := noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Simulated, Dim: 3, Sigma: sigma}, bandit.Stream(6, 1))
	if err != nil {
		t.Fatal(err)
	}
	ok, err := gaussianNodeVerdicts("x", "test", g, sigma, count, sens, eps, delta)
	if err != nil {
		t.Fatal(err)
	}
	if !ok[0].Pass || !ok[1].Pass || !*ok[0].ControlCaught || !*ok[1].ControlCaught {
		t.Errorf("a calibrated mechanism: %+v", ok)
	}
	quiet, err := noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Simulated, Dim: 3, Sigma: sigma / math.Sqrt2}, bandit.Stream(6, 2))
	if err != nil {
		t.Fatal(err)
	}
	bad, err := gaussianNodeVerdicts("x", "test", quiet, sigma/math.Sqrt2, count, sens, eps, delta)
	if err != nil {
		t.Fatal(err)
	}
	if bad[0].Held() {
		t.Errorf("an under-noised mechanism passed: %+v", bad[0])
	}
	wrong, err := gaussianNodeVerdicts("x", "test", g, 1.1*sigma, count, sens, eps, delta) // the law stated as N(0, (1.1σ)²)
	if err != nil {
		t.Fatal(err)
	}
	if wrong[1].Held() {
		t.Errorf("a mis-stated law passed: %+v", wrong[1])
	}
}

// TestCountNodes: the count from the impulse responses is the number of
// tree nodes a record enters (m = 1 + log₂ n at a power of two, attained by
// the first record; one less at n = 100, where the top node never closes),
// the padded tree's padding is left out, and a claimed count one too small
// fails the row while the counter's own Cost passes it.
func TestCountNodes(t *testing.T) {
	for _, tc := range []struct {
		kind counter.Kind
		n    int
		want float64
		pad  int
	}{
		{counter.Tree, 128, 8, 0},
		{counter.TreePadded, 128, 8, 8},
		{counter.Tree, 100, 7, 0},
		{counter.Tree, 1, 1, 0},
	} {
		nc, err := CountNodes(tc.kind, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(nc.L2Sq-tc.want) > 1e-9 || math.Abs(nc.L1-tc.want) > 1e-9 || nc.Padding != tc.pad || nc.Draws != tc.n {
			t.Errorf("%v n=%d: %+v, want %g nodes, %d padding draws", tc.kind, tc.n, nc, tc.want, tc.pad)
		}
	}
	nc, err := CountNodes(counter.Tree, 128)
	if err != nil {
		t.Fatal(err)
	}
	if v := nodeCountRow(counter.Tree, 128, nc, counter.Cost{L2Sq: 8, L1: 8}); !v.Pass || !*v.ControlCaught {
		t.Errorf("the tree's own count: %+v", v)
	}
	if v := nodeCountRow(counter.Tree, 128, nc, counter.Cost{L2Sq: 7, L1: 7}); v.Held() {
		t.Errorf("a claimed count one too small passed: %+v", v)
	}
	one, err := CountNodes(counter.Tree, 1)
	if err != nil {
		t.Fatal(err)
	}
	if v := nodeCountRow(counter.Tree, 1, one, counter.Cost{L2Sq: 1, L1: 1}); !v.Pass || !*v.ControlCaught || v.ControlScore != maxRatio {
		t.Errorf("one round, one node (the control claims none): %+v", v)
	}
	for _, n := range []int{0, 1 << 13} {
		if _, err := CountNodes(counter.Tree, n); err == nil {
			t.Errorf("n = %d: no error", n)
		}
	}
}

// TestCounterMechanisms: every counter's measured rows hold with their
// controls caught: the node noise, the tree-shaped counts against their
// claims, and the Honaker and smooth counts against their estimators' exact
// L2Sq (their releases reveal less than their nodes) and their Cost()
// against the measurement matrix of their nodes (the "-cost" rows).
func TestCounterMechanisms(t *testing.T) {
	vs, err := CounterMechanisms(bandit.Stream(9, 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 3*len(counter.Kinds)+2 || !vs.OK() {
		t.Fatalf("%d verdicts, failed %+v", len(vs), vs.Failed())
	}
	for _, v := range vs {
		if !v.Pass || v.Vacuous {
			t.Errorf("%s: pass %v, vacuous %v (%s)", v.Name, v.Pass, v.Vacuous, v.Note)
		}
	}
}

// TestAlg2Mechanism: MT14 Algorithm 2's built entry trees pass the measured
// row (calibrated exactly: slack ≈ 1) with the σ/√2 control caught.
func TestAlg2Mechanism(t *testing.T) {
	vs, err := Alg2Mechanism(bandit.Stream(9, 1))
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 || !vs[0].Pass || !vs[1].Pass || !*vs[0].ControlCaught || !*vs[1].ControlCaught {
		t.Errorf("%+v", vs)
	}
}
