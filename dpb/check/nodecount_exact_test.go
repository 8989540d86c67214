package check

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// TestExactEstimators: the estimators' release matrices built from their
// definitions have the variances the counters state (Honaker: Σ v_i over
// the set bits of t; smooth: k + 1 draws every round), the smooth
// mechanism's (h, k) are the counter's, and the node-count rows pass with
// their control (a node's noise missing) caught.
func TestExactEstimators(t *testing.T) {
	for _, n := range []int{1, 2, 7, 64, 100, 128} {
		h, err := counter.New(counter.Config{Kind: counter.Honaker, Dim: 1, Horizon: n, Noise: noise.ZeroNoise{N: 1}})
		if err != nil {
			t.Fatal(err)
		}
		for r, row := range honakerReleases(n) {
			var v float64
			for _, w := range row {
				v += w * w
			}
			if want := h.VarianceAt(r + 1); math.Abs(v-want) > 1e-12*want {
				t.Errorf("Honaker n=%d t=%d: variance %v, the counter states %v", n, r+1, v, want)
			}
		}
		hh, kk := smoothParams(n)
		if h2, k2 := counter.SmoothBinaryParams(n); hh != h2 || kk != k2 {
			t.Errorf("smooth n=%d: (h, k) = (%d, %d), the counter's (%d, %d)", n, hh, kk, h2, k2)
		}
		rows := smoothReleases(n)
		if len(rows) != n {
			t.Fatalf("smooth n=%d: %d releases", n, len(rows))
		}
		for r, row := range rows {
			if len(row) != kk+1 {
				t.Errorf("smooth n=%d t=%d: %d draws, want k + 1 = %d", n, r+1, len(row), kk+1)
			}
		}
	}
	for _, kind := range []counter.Kind{counter.Honaker, counter.Smooth} {
		v, err := nodeCountVerdict(kind, nodeCountN)
		if err != nil {
			t.Fatal(err)
		}
		if !v.Pass || v.ControlCaught == nil || !*v.ControlCaught || v.ControlScore < 1 {
			t.Errorf("%s: %s, control %s (%s)", v.Name, v.Status(), v.ControlCell(), v.Note)
		}
	}
}

// TestMeasurementCountRows: the Honaker and smooth counters' Cost() is at
// least the node count of the measurement matrix built from the nodes'
// definitions (BC = A), equal to it at n = 64 and 128 (below a power of two
// the top node never closes), and the row's control (Cost − 1) is caught.
func TestMeasurementCountRows(t *testing.T) {
	for _, kind := range []counter.Kind{counter.Honaker, counter.Smooth} {
		for _, n := range []int{1, 2, 7, 64, 100, nodeCountN} {
			count, _, resid := measurementCount(kind, n)
			ctr, err := counter.New(counter.Config{Kind: kind, Dim: 1, Horizon: n, Noise: noise.ZeroNoise{N: 1}})
			if err != nil {
				t.Fatal(err)
			}
			c := ctr.Cost().L2Sq
			if resid > nodeCountTol || float64(count) > c || (n == 64 || n == nodeCountN) && float64(count) != c {
				t.Errorf("%v n=%d: count %d, Cost %v, |BC − A| %g", kind, n, count, ctr.Cost(), resid)
			}
		}
		v, err := measurementCountRow(kind, nodeCountN)
		if err != nil {
			t.Fatal(err)
		}
		if !v.Pass || v.ControlCaught == nil || !*v.ControlCaught {
			t.Errorf("%s: %s, control %s (%s)", v.Name, v.Status(), v.ControlCell(), v.Note)
		}
	}
}
