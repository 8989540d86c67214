//go:build amd64 && !purego

package simd

import (
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
)

// TestPackOuterSameBits compares packOuterAVX512 with PackOuterLoop, bit for
// bit, at n = 1…70 and 129 on vectors with awkward entries (−0, NaNs with
// payloads, products that overflow or underflow to subnormals and zeros),
// and requires the entry after the packed matrix untouched.
func TestPackOuterSameBits(t *testing.T) {
	if !VecAVX512 {
		t.Skip("no AVX-512")
	}
	rng := bandit.Stream(1, 31)
	for n := 1; n <= 129; n++ {
		if n > 70 && n != 129 {
			continue
		}
		for rep := range 20 {
			z := make([]float64, n)
			for i := range z {
				z[i] = testkit.AwkwardFloat(rng)
			}
			m := PackedLen(n)
			want := make([]float64, m)
			PackOuterLoop(want, z)
			got := make([]float64, m+1)
			got[m] = 12345
			if !PackOuterFast(got[:m], z) {
				t.Fatal("packOuterFast declined on an AVX-512 CPU")
			}
			if p := testkit.FirstDiffNaN(got[:m], want); p >= 0 {
				t.Fatalf("n=%d rep %d: packed entry %d is %v, the loop gives %v", n, rep, p, got[p], want[p])
			}
			if got[m] != 12345 {
				t.Fatalf("n=%d: wrote past the packed matrix", n)
			}
		}
	}
}
