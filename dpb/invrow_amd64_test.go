//go:build amd64 && !purego

package dpb

import (
	"math"
	"testing"
)

// TestInvRowSameBits compares invRowAVX2 with invRowGo bit for bit: on
// arbitrary rows (entries with random signs and exponents over ±2⁴⁰, so that
// any change in the order of the roundings shows, and ±0, subnormals and
// overflow to ±Inf among them) for every row index i = 1…70 and a padded
// stride, and through inverseFactorTo on random lower-triangular L for
// d = 1…70 (randomFactor) with the routine on and off.
// Deterministic: no false failures. Skipped on CPUs without AVX2.
func TestInvRowSameBits(t *testing.T) {
	if !invRowAVX {
		t.Skip("no AVX2 on this CPU")
	}
	f := newFastRand(Stream(4, 509))
	val := func() float64 {
		switch f.uint64() % 64 {
		case 0:
			return math.Copysign(0, -1)
		case 1:
			return 5e-324 * float64(1+f.uint64()%7)
		case 2:
			return 1e300 * float64(1+f.uint64()%3)
		}
		v := math.Ldexp(1+float64(f.uint64()>>11)/(1<<53), int(f.uint64()%81)-40)
		if f.uint64()&1 == 0 {
			v = -v
		}
		return v
	}
	const dmax = 70
	for rep := range 40 {
		for i := 1; i <= dmax; i++ {
			dp := padDim(dmax) + 4*(rep%2)
			li := make([]float64, i)
			for k := range li {
				li[k] = val()
			}
			mt := make([]float64, dp*dp)
			for k := range mt {
				mt[k] = val()
			}
			mii := val()
			got, want := append([]float64(nil), mt...), append([]float64(nil), mt...)
			invRowAVX2(&li[0], &got[0], dp, i, -mii)
			invRowGo(li, want, dp, i, mii)
			for k := range got {
				if math.Float64bits(got[k]) != math.Float64bits(want[k]) && !(math.IsNaN(got[k]) && math.IsNaN(want[k])) {
					t.Fatalf("rep %d, i = %d, dp = %d: mt[%d] = %v (AVX2), %v (Go)", rep, i, dp, k, got[k], want[k])
				}
			}
		}
	}
	defer func(on bool) { invRowAVX = on }(invRowAVX)
	rng := Stream(4, 510)
	for d := 1; d <= dmax; d++ {
		dp := padDim(d)
		l, u := randomFactor(rng, d)
		var out [2][]float64
		for s, on := range []bool{true, false} {
			invRowAVX = on
			mt, zp := make([]float64, dp*dp), make([]float64, dp)
			inverseFactorTo(mt, zp, l, u, d, dp)
			out[s] = append(mt, zp...)
		}
		for k := range out[0] {
			if math.Float64bits(out[0][k]) != math.Float64bits(out[1][k]) {
				t.Fatalf("d = %d: inverse factor entry %d = %v (AVX2), %v (Go)", d, k, out[0][k], out[1][k])
			}
		}
	}
}
