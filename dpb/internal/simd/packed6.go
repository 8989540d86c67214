package simd

// The packed (d+1)×(d+1) statistics at d = 5 (SS18's experiments, Fig. 4's
// four policies a round): the loops of PackOuterTo and
// TreeRegularizer.unpack written out, since at n = 6 their short inner loops
// cost more in bounds checks and exits than in moves (10 pairs, Intel family
// 6 model 207: unpack 31 → 10 ns, PackOuterTo 31 → 8 ns; SS18 Fig. 4's
// job-round −6 %). The same operations, operands in the same order: each
// product of PackOuterTo rounded once, the diagonal's one addition
// (TestPacked6SameBits).

// PackOuter6To is PackOuterTo for n = 6.
func PackOuter6To(dst *[21]float64, z *[6]float64) {
	dst[0] = z[0] * z[0]
	dst[1] = z[0] * z[1]
	dst[2] = z[0] * z[2]
	dst[3] = z[0] * z[3]
	dst[4] = z[0] * z[4]
	dst[5] = z[0] * z[5]
	dst[6] = z[1] * z[1]
	dst[7] = z[1] * z[2]
	dst[8] = z[1] * z[3]
	dst[9] = z[1] * z[4]
	dst[10] = z[1] * z[5]
	dst[11] = z[2] * z[2]
	dst[12] = z[2] * z[3]
	dst[13] = z[2] * z[4]
	dst[14] = z[2] * z[5]
	dst[15] = z[3] * z[3]
	dst[16] = z[3] * z[4]
	dst[17] = z[3] * z[5]
	dst[18] = z[4] * z[4]
	dst[19] = z[4] * z[5]
	dst[20] = z[5] * z[5]
}

// Unpack5 is TreeRegularizer.unpack for d = 5: V (5×5, both triangles) with
// diag added to its diagonal, and ũ, from the packed 6×6 statistics.
func Unpack5(v *[25]float64, u *[5]float64, buf *[21]float64, diag float64) {
	v[0] = buf[0] + diag
	v[1], v[5] = buf[1], buf[1]
	v[2], v[10] = buf[2], buf[2]
	v[3], v[15] = buf[3], buf[3]
	v[4], v[20] = buf[4], buf[4]
	u[0] = buf[5]
	v[6] = buf[6] + diag
	v[7], v[11] = buf[7], buf[7]
	v[8], v[16] = buf[8], buf[8]
	v[9], v[21] = buf[9], buf[9]
	u[1] = buf[10]
	v[12] = buf[11] + diag
	v[13], v[17] = buf[12], buf[12]
	v[14], v[22] = buf[13], buf[13]
	u[2] = buf[14]
	v[18] = buf[15] + diag
	v[19], v[23] = buf[16], buf[16]
	u[3] = buf[17]
	v[24] = buf[18] + diag
	u[4] = buf[19]
}
