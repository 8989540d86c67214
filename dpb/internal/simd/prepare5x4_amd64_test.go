//go:build amd64 && !purego

package simd_test

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/internal/testutil"
)

// TestCholInv5x4SameBits runs CholInv5x4AVX2 on four lanes at a time,
// 20000 lanes in all, against PrepareFactors5 on each lane: the same
// verdict (bad bit set exactly where PrepareFactors5 reports false) and,
// where both succeed, the same L (V's upper triangle untouched), mt (only
// M's lower triangle written) and z. NaNs compare equal whatever their
// payloads (which of two NaN terms a sum keeps depends on the operand order
// Go's compiler picks). Deterministic: no false failures.
func TestCholInv5x4SameBits(t *testing.T) {
	if !simd.Prep4AVX2 {
		t.Skip("no AVX2 on this CPU")
	}
	rng := bandit.Stream(1, 18)
	var s [simd.Prep5x4Scratch]float64
	var pass, fail int
	for trial := range 5000 {
		var cs, want [4]testutil.Prep5x4Case
		var wantZ, gotZ [4][5]float64
		var lanes [16]*float64
		wantOK := [4]bool{}
		for b := range 4 {
			cs[b] = testutil.DrawPrep5x4Case(rng, 4*trial+b)
			want[b] = cs[b]
			wantOK[b] = simd.PrepareFactors5(&want[b].V, &want[b].Mt, &wantZ[b], &want[b].U)
			lanes[b], lanes[4+b], lanes[8+b], lanes[12+b] = &cs[b].V[0], &cs[b].U[0], &cs[b].Mt[0], &gotZ[b][0]
		}
		for i := range s {
			s[i] = math.NaN() // the kernel must not read what it did not write
		}
		bad := simd.CholInv5x4AVX2(&lanes, &s)
		for b := range 4 {
			if got := bad&(1<<b) == 0; got != wantOK[b] {
				t.Fatalf("trial %d lane %d: kernel ok %v, prepareFactors5 %v", trial, b, got, wantOK[b])
			}
			if !wantOK[b] {
				fail++
				continue
			}
			pass++
			for _, c := range []struct {
				what      string
				got, want []float64
			}{{"V", cs[b].V[:], want[b].V[:]}, {"mt", cs[b].Mt[:], want[b].Mt[:]}, {"z", gotZ[b][:], wantZ[b][:]}, {"ũ", cs[b].U[:], want[b].U[:]}} {
				if p := testkit.FirstDiffNaN(c.got, c.want); p >= 0 {
					t.Fatalf("trial %d lane %d: %s[%d] is %v from the kernel, %v from prepareFactors5", trial, b, c.what, p, c.got[p], c.want[p])
				}
			}
		}
	}
	if pass < 5000 || fail < 2000 {
		t.Fatalf("%d lanes succeeded and %d failed: both paths need exercising", pass, fail)
	}
}
