package simd_test

import (
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/linalg"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/internal/testutil"
)

// TestPrepareFactors5SameBits compares PrepareFactors5 with the loops it
// writes out (linalg.CholeskyCols with InvRow after each column, then
// ZFromFactorLoop), on Gram matrices whose entries are scaled by up to
// 2^±400 (so that products overflow or underflow), with zero columns, and
// on matrices that are not positive definite: the same verdict, and when
// both succeed the same L, M and z, bit for bit.
func TestPrepareFactors5SameBits(t *testing.T) {
	const d, dp = 5, 8
	rng := bandit.Stream(1, 17)
	var pass, fail int
	for trial := range 20000 {
		a := testutil.DrawGram5(rng, trial)
		u := [5]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		l := a
		var mt [64]float64
		var zp [8]float64
		ok := linalg.CholeskyCols(l[:], d, func(j int, inv float64) {
			mt[j*dp+j] = inv
			if j > 0 {
				simd.InvRow(l[j*d:j*d+j], mt[:], dp, j, inv)
			}
		})
		if ok {
			simd.ZFromFactorLoop(zp[:], mt[:], u[:], d, dp)
		}
		l5 := a
		var mt5 [64]float64
		var zp5 [5]float64
		ok5 := simd.PrepareFactors5(&l5, (*[37]float64)(mt5[:37]), &zp5, &u)
		if ok5 != ok {
			t.Fatalf("trial %d: written out %v, loops %v", trial, ok5, ok)
		}
		if !ok {
			fail++
			continue
		}
		pass++
		for _, c := range []struct {
			what      string
			got, want []float64
		}{{"L", l5[:], l[:]}, {"M", mt5[:], mt[:]}, {"z", zp5[:], zp[:d]}} {
			if p := testkit.FirstDiff(c.got, c.want); p >= 0 {
				t.Fatalf("trial %d: %s[%d] is %v written out, %v from the loops", trial, c.what, p, c.got[p], c.want[p])
			}
		}
	}
	if pass < 1000 || fail < 1000 {
		t.Fatalf("%d factorisations succeeded and %d failed: both paths need exercising", pass, fail)
	}
}
