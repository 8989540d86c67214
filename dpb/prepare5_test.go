package dpb

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/internal/linalg"
)

// TestPrepareFactors5SameBits compares prepareFactors5 with the loops it
// writes out (linalg.CholeskyCols with invRow after each column, then
// zFromFactorLoop), on Gram matrices whose entries are scaled by up to
// 2^±400 (so that products overflow or underflow), with zero columns, and
// on matrices that are not positive definite: the same verdict, and when
// both succeed the same L, M and z, bit for bit.
func TestPrepareFactors5SameBits(t *testing.T) {
	const d, dp = 5, 8
	rng := Stream(1, 17)
	var pass, fail int
	for trial := range 20000 {
		a := drawGram5(rng, trial)
		u := [5]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		l := a
		var mt [64]float64
		var zp [8]float64
		ok := linalg.CholeskyCols(l[:], d, func(j int, inv float64) {
			mt[j*dp+j] = inv
			if j > 0 {
				invRow(l[j*d:j*d+j], mt[:], dp, j, inv)
			}
		})
		if ok {
			zFromFactorLoop(zp[:], mt[:], u[:], d, dp)
		}
		l5 := a
		var mt5 [64]float64
		var zp5 [5]float64
		ok5 := prepareFactors5(&l5, (*[37]float64)(mt5[:37]), &zp5, &u)
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
			if p := firstDiff(c.got, c.want); p >= 0 {
				t.Fatalf("trial %d: %s[%d] is %v written out, %v from the loops", trial, c.what, p, c.got[p], c.want[p])
			}
		}
	}
	if pass < 1000 || fail < 1000 {
		t.Fatalf("%d factorisations succeeded and %d failed: both paths need exercising", pass, fail)
	}
}

// drawGram5 draws the 5×5 V of trial number trial: B Bᵀ for a standard
// normal B scaled by 2^s (s = 0, or uniform in −400…400 for trial ≡ 1 mod 3,
// so that products overflow or underflow), with a zero column in B (singular)
// for trial ≡ 3 mod 7 and a diagonal entry negated (indefinite) for trial ≡ 4
// mod 5.
func drawGram5(rng *rand.Rand, trial int) (a [25]float64) {
	var bm [25]float64
	scale := 0
	if trial%3 == 1 {
		scale = rng.IntN(801) - 400
	}
	for i := range bm {
		bm[i] = math.Ldexp(rng.NormFloat64(), scale)
		if trial%7 == 3 && i%5 == 2 {
			bm[i] = 0 // a zero column: singular
		}
	}
	for i := range 5 {
		for j := range 5 {
			var s float64
			for k := range 5 {
				s += float64(bm[i*5+k] * bm[j*5+k])
			}
			a[i*5+j] = s
		}
	}
	if trial%5 == 4 {
		a[rng.IntN(5)*6] *= -1 // a negative pivot somewhere
	}
	return a
}
