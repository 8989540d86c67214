//go:build amd64 && !purego

package simd_test

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// TestBartlettLanesSameBits compares the AVX-512 Bartlett kernel with the
// loop it replaces, bit for bit, at n = 1…70 (the kernel is called directly
// below BartlettLanesFrom too), on factors of ordinary normals, of entries
// scaled by up to 2^±500 (products that overflow to ±Inf and sums that
// become NaN, or underflow to subnormals and zeros), and of entries that are
// often ±0.
func TestBartlettLanesSameBits(t *testing.T) {
	if !simd.BartlettLanesOK {
		t.Skip("no AVX-512 and BMI2")
	}
	rng := bandit.Stream(1, 11)
	draw := func(mode int) float64 {
		v := rng.NormFloat64()
		switch mode {
		case 1:
			return math.Ldexp(v, rng.IntN(1001)-500)
		case 2:
			switch rng.IntN(4) {
			case 0:
				return 0
			case 1:
				return math.Copysign(0, -1)
			}
		}
		return v
	}
	for n := 1; n <= 70; n++ {
		np := simd.BartlettColStride(n)
		for mode := range 3 {
			offBuf := make([]float64, n*(n-1)/2+1) // a pointer even at n = 1
			off := offBuf[:n*(n-1)/2]
			diag := make([]float64, n)
			for i := range off {
				off[i] = draw(mode)
			}
			for i := range diag {
				diag[i] = math.Abs(draw(mode))
			}
			s := math.Ldexp(1+rng.Float64(), rng.IntN(21)-10)
			want := make([]float64, simd.PackedLen(n))
			noise.BartlettProductTo(want, off, diag, s)
			col := make([]float64, n*np)
			got := make([]float64, simd.PackedLen(n))
			if n >= simd.BartlettLanesFrom {
				if !simd.BartlettLanesTo(got, off, diag, col, s) {
					t.Fatalf("n=%d: bartlettLanesTo declined", n)
				}
			} else {
				simd.BartlettColumns(col, off, diag, np)
				simd.BartlettSlotsAVX512(&got[0], &col[0], n, np, s)
			}
			if p := testkit.FirstDiff(got, want); p >= 0 {
				t.Fatalf("n=%d mode %d: packed entry %d is %v (%#x), the loop gives %v (%#x)",
					n, mode, p, got[p], math.Float64bits(got[p]), want[p], math.Float64bits(want[p]))
			}
		}
	}
}

// TestBartlettColumnsSameBits compares BartlettColumnsAVX512 with
// BartlettColumns at n = 2…70 on a copy filled with a sentinel first: the
// same entries written, with the same bits (−0 and NaN payloads included),
// and every other entry still the sentinel.
func TestBartlettColumnsSameBits(t *testing.T) {
	if !simd.BartlettLanesOK {
		t.Skip("no AVX-512 and BMI2")
	}
	rng := bandit.Stream(1, 13)
	for n := 2; n <= 70; n++ {
		np := simd.BartlettColStride(n)
		off := make([]float64, n*(n-1)/2)
		diag := make([]float64, n)
		for i := range off {
			off[i] = testkit.AwkwardFloat(rng)
		}
		for i := range diag {
			diag[i] = testkit.AwkwardFloat(rng)
		}
		want, got := make([]float64, n*np+1), make([]float64, n*np+1)
		for i := range want {
			want[i], got[i] = 7, 7
		}
		simd.BartlettColumns(want[:n*np], off, diag, np)
		simd.BartlettColumnsAVX512(&got[0], &off[0], &diag[0], n, np)
		if i := testkit.FirstDiffNaN(got, want); i >= 0 {
			t.Fatalf("n=%d: col[%d] (row %d, column %d) is %v, the loop gives %v", n, i, i/np, i%np, got[i], want[i])
		}
	}
}
