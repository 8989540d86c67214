package accounting

import (
	"math"
	"testing"
)

// One Laplace mechanism has the closed form δ(ε) = 1 − e^{(ε−ε₀)/2} for
// 0 ≤ ε ≤ ε₀ (integrate (1 − e^{ε−L})₊ over the loss law): the pessimistic
// PLD must be above it, the optimistic one below, both within the grid's
// shift of one step h in ε.
func TestLaplacePLDSingle(t *testing.T) {
	for _, e0 := range []float64{0.1, 0.5, 2} {
		h := 1e-4
		up, err := LaplacePLD(e0, h, true)
		if err != nil {
			t.Fatal(err)
		}
		down, err := LaplacePLD(e0, h, false)
		if err != nil {
			t.Fatal(err)
		}
		var su, sd float64
		for i := range up.Mass {
			su += up.Mass[i]
		}
		for i := range down.Mass {
			sd += down.Mass[i]
		}
		if !(math.Abs(su-1) < 1e-12 && math.Abs(sd-1) < 1e-12) {
			t.Errorf("ε₀=%g: masses sum to %g and %g", e0, su, sd)
		}
		for _, f := range []float64{0, 0.25, 0.5, 0.9} {
			eps := f * e0
			exact := 1 - math.Exp((eps-e0)/2)
			u, d := up.Delta(eps), down.Delta(eps)
			if !(d <= exact+1e-12 && exact <= u+1e-12) {
				t.Errorf("ε₀=%g ε=%g: optimistic %g, exact %g, pessimistic %g not ordered", e0, eps, d, exact, u)
			}
			if !(up.Delta(eps+h) <= exact+1e-12 && exact <= down.Delta(eps-h)+1e-12) {
				t.Errorf("ε₀=%g ε=%g: bounds off by more than one grid step", e0, eps)
			}
		}
	}
}

// Two composed Laplace mechanisms, against a direct 2-D numerical
// integration of max(0, p₁p₂ − e^ε q₁q₂) (independent of the PLD).
func TestLaplacePLDComposed(t *testing.T) {
	e0, eps, h := 0.6, 0.5, 1e-4
	up, _ := LaplacePLD(e0, h, true)
	down, _ := LaplacePLD(e0, h, false)
	u2, err := up.SelfCompose(2)
	if err != nil {
		t.Fatal(err)
	}
	d2, _ := down.SelfCompose(2)
	// Midpoint rule on [−25, 25]² (the tails beyond carry < e^{−25}), with
	// the kinks 0 and ε₀ on cell boundaries: step ε₀/60.
	step := e0 / 60
	n := int(math.Round(50 / step))
	lo := -25.0
	lo = math.Floor(lo/step) * step
	var s float64
	for i := range n {
		x := lo + (float64(i)+0.5)*step
		lx := -math.Abs(x) + math.Abs(x-e0) // ln p(x) − ln q(x)
		px := math.Exp(-math.Abs(x)) / 2
		for j := range n {
			y := lo + (float64(j)+0.5)*step
			l := lx - math.Abs(y) + math.Abs(y-e0)
			if l > eps {
				s += px * math.Exp(-math.Abs(y)) / 2 * -math.Expm1(eps-l)
			}
		}
	}
	s *= step * step
	if !(d2.Delta(eps) <= s+1e-6 && s <= u2.Delta(eps)+1e-6) {
		t.Errorf("optimistic %g, integration %g, pessimistic %g not ordered", d2.Delta(eps), s, u2.Delta(eps))
	}
	if !(u2.Delta(eps)-d2.Delta(eps) < 1e-3) {
		t.Errorf("pessimistic and optimistic differ by %g", u2.Delta(eps)-d2.Delta(eps))
	}
}

// Calibration of the per-node ε₀ of a Laplace tree: m composed nodes at
// ε₀ must be (ε, δ)-DP by the pessimistic PLD, ε₀ is never below basic
// composition's ε/m, and it is below the (ε₀, 0)-DP optimal composition's
// limit plus the grid error (Laplace is one particular ε₀-DP mechanism, so
// it can only do better than KOV: its ε₀ is at least KOV's).
func TestLaplaceEps0(t *testing.T) {
	m, eps, delta, h := 20, 1.0, 1e-3, 1e-4
	e0, err := LaplaceEps0(m, eps, delta, h)
	if err != nil {
		t.Fatal(err)
	}
	got, err := LaplaceComposedEpsilon(m, e0, delta, h)
	if err != nil {
		t.Fatal(err)
	}
	if !(got <= eps) {
		t.Errorf("ε₀=%g gives ε=%g > %g", e0, got, eps)
	}
	kov := KOVEpsilon0(m, 0, eps, delta)
	t.Logf("Laplace ε₀ = %.5g (basic %.5g, KOV %.5g)", e0, eps/float64(m), kov)
	if !(e0 >= kov) {
		t.Errorf("Laplace ε₀ %g below the KOV ε₀ %g", e0, kov)
	}
	if pure, _ := LaplaceEps0(m, eps, 0, h); pure != eps/float64(m) {
		t.Errorf("pure-DP ε₀ = %g, want ε/m", pure)
	}
	if _, err := LaplaceEps0(0, eps, delta, h); err == nil {
		t.Error("m = 0 accepted")
	}
}
