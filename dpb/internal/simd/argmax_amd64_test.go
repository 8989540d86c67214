//go:build amd64 && !purego

package simd_test

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// TestArgmaxSame compares the AVX-512 argmax with ArgmaxGo on 200000 arrays
// of length 0…40 whose entries are drawn from a small set (many ties) with
// NaN, ±Inf and ±0 among them, and on all-NaN and all-−Inf arrays.
// Deterministic: no false failures. Skipped on CPUs without AVX-512.
func TestArgmaxSame(t *testing.T) {
	if !simd.ArgmaxAVX {
		t.Skip("no AVX-512 on this CPU")
	}
	vals := []float64{math.NaN(), math.Inf(-1), math.Inf(1), 0, math.Copysign(0, -1), -1, 1, 2, 0.5, -3}
	f := noise.NewFastRand(bandit.Stream(4, 503))
	x := make([]float64, 40)
	for rep := range 200000 {
		n := rep % 41
		for i := range n {
			x[i] = vals[f.Uint64()%uint64(len(vals))]
		}
		if got, want := simd.ArgmaxAVX512(x[:n]), simd.ArgmaxGo(x[:n]); got != want {
			t.Fatalf("%v: AVX-512 %d, Go %d", x[:n], got, want)
		}
	}
	for _, v := range []float64{math.NaN(), math.Inf(-1)} {
		for i := range x {
			x[i] = v
		}
		if got := simd.ArgmaxAVX512(x[:33]); got != 0 {
			t.Fatalf("all %v: AVX-512 %d, want 0", v, got)
		}
	}
}
