package check

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestProp11NoisePartNotByConstruction: with the noise switched off
// (N_t = 0, h_t = 0) the old statistic of a Prop. 11 ρ row was ⅔ (ρ_max)
// or ½ (ρ_min), which the old control (every bound halved) caught (ρ_min at
// its edge); the noise
// part is 0, which no control scaling the noise catches. The conversion
// keeps every failure: x > 1 iff r > 1.
func TestProp11NoisePartNotByConstruction(t *testing.T) {
	s := SS18Config{Short: true}.SS18CheckSetting()
	b := s.GaussianBounds()
	rMax, rMin := upperRatio(0+b.Shift, b.RhoMax), lowerRatio(0+b.Shift, b.RhoMin)
	// ρ_max at ⅔ is caught by the halved bound with no noise at all; ρ_min
	// sits at ½, the edge, where any noise at all tips it.
	if rMax*treeControlFactor <= 1 || rMin*treeControlFactor < 1 {
		t.Fatalf("the old control should be caught without noise: ratios %v, %v", rMax, rMin)
	}
	for _, c := range []float64{2, 13, 1e6} {
		if x := noisePartRatio(rMax, b, true) * c; x > 1 {
			t.Errorf("no noise: ρ_max noise part ×%g = %v, caught", c, x)
		}
		if x := noisePartRatio(rMin, b, false) * c; x > 1 {
			t.Errorf("no noise: ρ_min noise part ×%g = %v, caught", c, x)
		}
	}
	ups := b.RhoMax - b.Shift
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		lam := ups * 3 * (rng.Float64() - 0.5) * 2 // λ(N) in ±3Υ
		r := upperRatio(lam+b.Shift, b.RhoMax)
		if x := noisePartRatio(r, b, true); (x > 1) != (r > 1) || math.Abs(x-lam/ups) > 1e-9*math.Max(1, math.Abs(lam/ups)) && lam > 0 {
			t.Fatalf("ρ_max: λ=%v r=%v x=%v", lam, r, x)
		}
		r = lowerRatio(lam+b.Shift, b.RhoMin)
		if x := noisePartRatio(r, b, false); (x > 1) != (r > 1) {
			t.Fatalf("ρ_min: λ=%v r=%v x=%v", lam, r, x)
		}
	}
}
