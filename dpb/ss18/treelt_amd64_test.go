//go:build amd64 && !purego

package ss18

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
)

// TestTreeLTSameBits compares TreeLT with SumTo's additions followed by
// ltFromPacked, bit for bit over the whole of lt (entries the loop leaves
// alone must keep their sentinel), at d = 1…70 with and without the middle
// part (padded and plain releases), on parts with −0, NaN payloads, huge
// and tiny entries, and shifts of either sign.
func TestTreeLTSameBits(t *testing.T) {
	if !simd.TreeLTOK {
		t.Skip("no AVX-512 and BMI2")
	}
	rng := bandit.Stream(1, 41)
	for d := 1; d <= 70; d++ {
		s := simd.CholStride(d)
		m := simd.PackedLen(d + 1)
		for rep := range 6 {
			a, b, c := make([]float64, m), make([]float64, m), make([]float64, m)
			for i := range m {
				a[i], b[i], c[i] = testkit.AwkwardFloat(rng), testkit.AwkwardFloat(rng), testkit.AwkwardFloat(rng)
			}
			if rep%2 == 1 {
				b = nil
			}
			shift := math.Ldexp(rng.NormFloat64(), rng.IntN(40)-20)
			p := make([]float64, m)
			if b != nil {
				simd.VecAdd3Go(p, a, b, c)
			} else {
				simd.VecAddGo(p, a, c)
			}
			want, got := make([]float64, s*s+1), make([]float64, s*s+1)
			wantU, gotU := make([]float64, d+1), make([]float64, d+1)
			for i := range want {
				want[i], got[i] = 7, 7
			}
			wantU[d], gotU[d] = 7, 7
			ltFromPacked(want[:s*s], s, p, d, shift, wantU[:d])
			if !simd.TreeLT(got[:s*s], s, a, b, c, d, shift, gotU[:d]) {
				t.Fatal("treeLT declined on a CPU that has it")
			}
			if i := testkit.FirstDiffNaN(got, want); i >= 0 {
				t.Fatalf("d=%d rep %d: lt[%d] (row %d, column %d) is %v, the loop gives %v", d, rep, i, i%s, i/s, got[i], want[i])
			}
			if i := testkit.FirstDiffNaN(gotU, wantU); i >= 0 {
				t.Fatalf("d=%d rep %d: u[%d] is %v, the loop gives %v", d, rep, i, gotU[i], wantU[i])
			}
		}
	}
}
