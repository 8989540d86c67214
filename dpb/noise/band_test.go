package noise

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
)

// normSlowExp is NormSlow with the exact wedge test alone (no squeeze): the
// reference the squeeze must reproduce draw for draw.
func (f *FastRand) normSlowExp(u uint64) float64 {
	for first := true; ; first = false {
		if !first {
			u = f.Uint64()
		}
		j := int32(u)
		i := (u >> 32) & (simd.ZigN - 1)
		x := float64(j) * simd.ZigW[i]
		aj := uint32(j)
		if j < 0 {
			aj = uint32(-j)
		}
		if aj < simd.ZigK[i] {
			return x
		}
		if i == 0 {
			for {
				x = -math.Log(f.Float64()) / simd.ZigR
				y := -math.Log(f.Float64())
				if y+y >= x*x {
					break
				}
			}
			if j > 0 {
				return simd.ZigR + x
			}
			return -(simd.ZigR + x)
		}
		if simd.ZigF[i]+f.Float64()*(simd.ZigF[i-1]-simd.ZigF[i]) < math.Exp(-0.5*x*x) {
			return x
		}
	}
}

// TestZigSqueeze checks that the chord squeeze of NormSlow changes nothing:
// from the same state and first word, NormSlow and the exponential-only
// reference return the same draw and leave the same state, over 10⁶ slow
// draws (2·10⁵ with -short) from a fixed seed. It also checks the squeeze's
// error bound itself on a grid of every wedge. Deterministic: no false
// failures.
func TestZigSqueeze(t *testing.T) {
	for i := 1; i < simd.ZigN; i++ {
		a, b := simd.ZigA[i], simd.ZigW[i]*simd.ZigM
		for k := 0; k <= 1000; k++ {
			x := a + (b-a)*float64(k)/1000
			c := simd.ZigF[i-1] + (x-a)*simd.ZigS[i]
			if e := math.Abs(math.Exp(-0.5*x*x) - c); e > simd.ZigD[i] {
				t.Fatalf("layer %d, x = %v: chord error %.3g above the bound %.3g", i, x, e, simd.ZigD[i])
			}
		}
	}
	n := 1_000_000
	if testing.Short() {
		n = 200_000
	}
	f := NewFastRand(bandit.Stream(1, 502))
	for done := 0; done < n; {
		s, u, _, ok := simd.Zig(f.S)
		f.S = s
		if ok {
			continue
		}
		done++
		g := f
		x, y := f.NormSlow(u), g.normSlowExp(u)
		if x != y || f != g {
			t.Fatalf("slow draw %d: squeeze gives %v (state %x), exponential %v (state %x)", done, x, f.S, y, g.S)
		}
	}
}
