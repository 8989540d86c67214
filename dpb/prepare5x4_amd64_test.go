//go:build amd64 && !purego

package dpb

import (
	"math"
	"math/rand/v2"
	"testing"
)

// prep5x4Case is one lane's input to cholInv5x4AVX2 and prepareFactors5.
type prep5x4Case struct {
	v  [25]float64
	u  [5]float64
	mt [37]float64
}

// drawPrep5x4Case draws a lane's V_t as TestPrepareFactors5SameBits does
// (drawGram5), a standard normal ũ, and an awkwardFloat (−0, NaN, a huge or
// tiny normal) in one entry of V or ũ one time in four; mt's entries are
// random (the kernel must leave all but M's lower triangle as they are).
func drawPrep5x4Case(rng *rand.Rand, trial int) prep5x4Case {
	c := prep5x4Case{v: drawGram5(rng, trial)}
	for i := range c.u {
		c.u[i] = rng.NormFloat64()
	}
	switch rng.IntN(8) {
	case 0:
		c.v[rng.IntN(25)] = awkwardFloat(rng)
	case 1:
		c.u[rng.IntN(5)] = awkwardFloat(rng)
	}
	for i := range c.mt {
		c.mt[i] = rng.NormFloat64()
	}
	return c
}

// TestCholInv5x4SameBits runs cholInv5x4AVX2 on four lanes at a time,
// 20000 lanes in all, against prepareFactors5 on each lane: the same
// verdict (bad bit set exactly where prepareFactors5 reports false) and,
// where both succeed, the same L (V's upper triangle untouched), mt (only
// M's lower triangle written) and z. NaNs compare equal whatever their
// payloads (which of two NaN terms a sum keeps depends on the operand order
// Go's compiler picks). Deterministic: no false failures.
func TestCholInv5x4SameBits(t *testing.T) {
	if !prep4AVX2 {
		t.Skip("no AVX2 on this CPU")
	}
	rng := Stream(1, 18)
	var s [prep5x4Scratch]float64
	var pass, fail int
	for trial := range 5000 {
		var cs, want [4]prep5x4Case
		var wantZ, gotZ [4][5]float64
		var lanes [16]*float64
		wantOK := [4]bool{}
		for b := range 4 {
			cs[b] = drawPrep5x4Case(rng, 4*trial+b)
			want[b] = cs[b]
			wantOK[b] = prepareFactors5(&want[b].v, &want[b].mt, &wantZ[b], &want[b].u)
			lanes[b], lanes[4+b], lanes[8+b], lanes[12+b] = &cs[b].v[0], &cs[b].u[0], &cs[b].mt[0], &gotZ[b][0]
		}
		for i := range s {
			s[i] = math.NaN() // the kernel must not read what it did not write
		}
		bad := cholInv5x4AVX2(&lanes, &s)
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
			}{{"V", cs[b].v[:], want[b].v[:]}, {"mt", cs[b].mt[:], want[b].mt[:]}, {"z", gotZ[b][:], wantZ[b][:]}, {"ũ", cs[b].u[:], want[b].u[:]}} {
				if p := firstDiffNaN(c.got, c.want); p >= 0 {
					t.Fatalf("trial %d lane %d: %s[%d] is %v from the kernel, %v from prepareFactors5", trial, b, c.what, p, c.got[p], c.want[p])
				}
			}
		}
	}
	if pass < 5000 || fail < 2000 {
		t.Fatalf("%d lanes succeeded and %d failed: both paths need exercising", pass, fail)
	}
}
