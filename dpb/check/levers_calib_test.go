package check

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// The lever calibration rows pass at a small setting, each with its control
// caught (the rows are exact: no false failure).
func TestLeverCalibrationRows(t *testing.T) {
	vs, err := LeverCalibrationRows(ss18.Setting{D: 3, N: 128, Epsilon: 1, Delta: 0.1, Lt2: 2, Alpha: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 9 {
		t.Fatalf("%d rows, want 9 (split μ ×3, Toeplitz variance and cost ×3)", len(vs))
	}
	for _, v := range vs {
		if !v.Pass || v.Kind != KindArithmetic || v.ControlCaught == nil || !*v.ControlCaught {
			t.Errorf("%s: pass %v kind %q control caught %v: %s", v.Name, v.Pass, v.Kind, v.ControlCaught, v.Note)
		}
	}
}

// costFromImpulse on the square root's b_j = C(2j, j)/4ʲ: C = B⁻¹A has the
// same coefficients ((1−z)^{−½} twice is (1−z)^{−1}), so the cost is Σ b_j².
// A recurrence that dropped a term of the convolution fails it.
func TestCostFromImpulseSquareRoot(t *testing.T) {
	const n = 200
	b := make([]float64, n)
	b[0] = 1
	var want float64
	for j := range n {
		if j > 0 {
			b[j] = b[j-1] * float64(2*j-1) / float64(2*j)
		}
		want += b[j] * b[j]
	}
	if got := costFromImpulse(b); math.Abs(got/want-1) > 1e-12 {
		t.Fatalf("cost %v, want Σ b_j² = %v", got, want)
	}
}

// The brute force agrees with the closed form of ss18.SplitFactor on both
// sides of κ = 1 (two independent derivations of one maximum).
func TestSplitMuSqMaxClosedForm(t *testing.T) {
	for _, r := range []float64{0.5, 1, 1.57, 3} {
		sv := 2.0
		got := splitMuSqMax(1, 1, sv, r*sv)
		f := ss18.SplitFactor(1, 1, r)
		if want := f * f / (sv * sv); math.Abs(got/want-1) > 1e-9 {
			t.Errorf("r = %v: brute force %v, closed form %v", r, got, want)
		}
	}
}

func TestLinUCBConfigZeroGapConflict(t *testing.T) {
	c := LinUCBConfig{D: 2, K: 4, N: 10, Reps: 1, Gap: 0.1, ZeroGap: true}
	if err := c.defaults(); err == nil {
		t.Fatal("ZeroGap with a gap set: no error")
	}
	c = LinUCBConfig{D: 2, K: 4, N: 10, Reps: 1, ZeroGap: true}
	if err := c.defaults(); err != nil || c.Gap != 0 {
		t.Fatalf("ZeroGap: gap %v, err %v", c.Gap, err)
	}
}
