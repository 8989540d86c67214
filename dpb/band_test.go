package dpb

import (
	"math"
	"testing"
)

// normSlowExp is normSlow with the exact wedge test alone (no squeeze): the
// reference the squeeze must reproduce draw for draw.
func (f *fastRand) normSlowExp(u uint64) float64 {
	for first := true; ; first = false {
		if !first {
			u = f.uint64()
		}
		j := int32(u)
		i := (u >> 32) & (zigN - 1)
		x := float64(j) * zigW[i]
		aj := uint32(j)
		if j < 0 {
			aj = uint32(-j)
		}
		if aj < zigK[i] {
			return x
		}
		if i == 0 {
			for {
				x = -math.Log(f.float64()) / zigR
				y := -math.Log(f.float64())
				if y+y >= x*x {
					break
				}
			}
			if j > 0 {
				return zigR + x
			}
			return -(zigR + x)
		}
		if zigF[i]+f.float64()*(zigF[i-1]-zigF[i]) < math.Exp(-0.5*x*x) {
			return x
		}
	}
}

// TestZigSqueeze checks that the chord squeeze of normSlow changes nothing:
// from the same state and first word, normSlow and the exponential-only
// reference return the same draw and leave the same state, over 10⁶ slow
// draws (2·10⁵ with -short) from a fixed seed. It also checks the squeeze's
// error bound itself on a grid of every wedge. Deterministic: no false
// failures.
func TestZigSqueeze(t *testing.T) {
	for i := 1; i < zigN; i++ {
		a, b := zigA[i], zigW[i]*zigM
		for k := 0; k <= 1000; k++ {
			x := a + (b-a)*float64(k)/1000
			c := zigF[i-1] + (x-a)*zigS[i]
			if e := math.Abs(math.Exp(-0.5*x*x) - c); e > zigD[i] {
				t.Fatalf("layer %d, x = %v: chord error %.3g above the bound %.3g", i, x, e, zigD[i])
			}
		}
	}
	n := 1_000_000
	if testing.Short() {
		n = 200_000
	}
	f := newFastRand(Stream(1, 502))
	for done := 0; done < n; {
		s, u, _, ok := zig(f.s)
		f.s = s
		if ok {
			continue
		}
		done++
		g := f
		x, y := f.normSlow(u), g.normSlowExp(u)
		if x != y || f != g {
			t.Fatalf("slow draw %d: squeeze gives %v (state %x), exponential %v (state %x)", done, x, f.s, y, g.s)
		}
	}
}
