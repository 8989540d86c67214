package simd

import (
	"math"
)

// PrepareFactors5 is prepareFactors' interleaved factorisation for d = 5,
// Dp = 8, written out: linalg.CholeskyCols on the 5×5 row-major a (the lower
// triangle overwritten by L), each row j of M = L⁻¹ (the kernel layout,
// Mt[j·dp+i] = M_ij) right after column j of L, as InvRow computes it
// (linalg.Dot's order: four chains, the tail in the first, then
// (s0+s1)+(s2+s3)), and z = M ũ (zFromFactor5). The same operations in the
// same order, each product rounded before its sum or difference (the
// Float64 conversions forbid fusion): the bits of the loops
// (TestPrepareFactors5SameBits). It reports false, a partly overwritten,
// where CholeskyCols does (a pivot that is not > 0, or NaN). At d = 5 the
// loops' calls (a closure and an assembly routine a column) and exits
// cost as much as the arithmetic.
func PrepareFactors5(a *[25]float64, mt *[37]float64, zp *[5]float64, u *[5]float64) bool {
	s0 := a[0]
	if !(s0 > 0) {
		return false
	}
	l0 := math.Sqrt(s0)
	a[0] = l0
	inv0 := 1 / l0
	a[5] = float64(a[5]) * inv0
	a[10] = float64(a[10]) * inv0
	a[15] = float64(a[15]) * inv0
	a[20] = float64(a[20]) * inv0
	mt[0] = inv0
	s1 := a[6] - float64(a[5]*a[5])
	if !(s1 > 0) {
		return false
	}
	l1 := math.Sqrt(s1)
	a[6] = l1
	inv1 := 1 / l1
	a[11] = float64(a[11]-float64(a[10]*a[5])) * inv1
	a[16] = float64(a[16]-float64(a[15]*a[5])) * inv1
	a[21] = float64(a[21]-float64(a[20]*a[5])) * inv1
	mt[9] = inv1
	mt[1] = -float64(((0+float64(a[5]*mt[0]))+0)+(0+0)) * inv1
	s2 := (a[12] - float64(a[10]*a[10])) - float64(a[11]*a[11])
	if !(s2 > 0) {
		return false
	}
	l2 := math.Sqrt(s2)
	a[12] = l2
	inv2 := 1 / l2
	a[17] = float64((a[17]-float64(a[15]*a[10]))-float64(a[16]*a[11])) * inv2
	a[22] = float64((a[22]-float64(a[20]*a[10]))-float64(a[21]*a[11])) * inv2
	mt[18] = inv2
	mt[2] = -float64((((0+float64(a[10]*mt[0]))+float64(a[11]*mt[1]))+0)+(0+0)) * inv2
	mt[10] = -float64(((0+float64(a[11]*mt[9]))+0)+(0+0)) * inv2
	s3 := ((a[18] - float64(a[15]*a[15])) - float64(a[16]*a[16])) - float64(a[17]*a[17])
	if !(s3 > 0) {
		return false
	}
	l3 := math.Sqrt(s3)
	a[18] = l3
	inv3 := 1 / l3
	a[23] = float64(((a[23]-float64(a[20]*a[15]))-float64(a[21]*a[16]))-float64(a[22]*a[17])) * inv3
	mt[27] = inv3
	mt[3] = -float64(((((0+float64(a[15]*mt[0]))+float64(a[16]*mt[1]))+float64(a[17]*mt[2]))+0)+(0+0)) * inv3
	mt[11] = -float64((((0+float64(a[16]*mt[9]))+float64(a[17]*mt[10]))+0)+(0+0)) * inv3
	mt[19] = -float64(((0+float64(a[17]*mt[18]))+0)+(0+0)) * inv3
	s4 := (((a[24] - float64(a[20]*a[20])) - float64(a[21]*a[21])) - float64(a[22]*a[22])) - float64(a[23]*a[23])
	if !(s4 > 0) {
		return false
	}
	l4 := math.Sqrt(s4)
	a[24] = l4
	inv4 := 1 / l4
	mt[36] = inv4
	mt[4] = -float64(((0+float64(a[20]*mt[0]))+(0+float64(a[21]*mt[1])))+((0+float64(a[22]*mt[2]))+(0+float64(a[23]*mt[3])))) * inv4
	mt[12] = -float64(((((0+float64(a[21]*mt[9]))+float64(a[22]*mt[10]))+float64(a[23]*mt[11]))+0)+(0+0)) * inv4
	mt[20] = -float64((((0+float64(a[22]*mt[18]))+float64(a[23]*mt[19]))+0)+(0+0)) * inv4
	mt[28] = -float64(((0+float64(a[23]*mt[27]))+0)+(0+0)) * inv4
	zFromFactor5(zp, mt, u)
	return true
}
