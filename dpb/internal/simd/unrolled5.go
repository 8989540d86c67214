package simd

// Two loops of the scoring preparation written out for d = 5 (SS18's
// experiments; dp = 8), whose nested loops of one to five iterations cost
// more in exits and bounds checks than in arithmetic. The same operations in
// the same order, each product rounded before its sum (the Float64
// conversions forbid fusion), so the bits of ZFromFactorLoop and
// quadOneLoop (TestUnrolled5SameBits). M is read up to its last entry,
// Mt[(d−1)·dp + d−1] = mt[36].

// zFromFactor5 is ZFromFactorTo for d = 5, dp = 8: z_i = Σ_{j ≤ i} u_j·M_ij
// from +0, in increasing j.
func zFromFactor5(zp *[5]float64, mt *[37]float64, u *[5]float64) {
	zp[0] = 0 + float64(u[0]*mt[0])
	zp[1] = (0 + float64(u[0]*mt[1])) + float64(u[1]*mt[9])
	zp[2] = ((0 + float64(u[0]*mt[2])) + float64(u[1]*mt[10])) + float64(u[2]*mt[18])
	zp[3] = (((0 + float64(u[0]*mt[3])) + float64(u[1]*mt[11])) + float64(u[2]*mt[19])) + float64(u[3]*mt[27])
	zp[4] = ((((0 + float64(u[0]*mt[4])) + float64(u[1]*mt[12])) + float64(u[2]*mt[20])) + float64(u[3]*mt[28])) + float64(u[4]*mt[36])
}

// quadOne5 is QuadOne for d = 5, dp = 8: w_i = Σ_{j ≤ i} M_ij·x_j from +0,
// then q = Σ w_i² and s = Σ z_i·w_i from +0, in increasing i.
func quadOne5(mt *[37]float64, zp *[5]float64, x *[5]float64) (q, s float64) {
	w0 := 0 + float64(mt[0]*x[0])
	w1 := (0 + float64(mt[1]*x[0])) + float64(mt[9]*x[1])
	w2 := ((0 + float64(mt[2]*x[0])) + float64(mt[10]*x[1])) + float64(mt[18]*x[2])
	w3 := (((0 + float64(mt[3]*x[0])) + float64(mt[11]*x[1])) + float64(mt[19]*x[2])) + float64(mt[27]*x[3])
	w4 := ((((0 + float64(mt[4]*x[0])) + float64(mt[12]*x[1])) + float64(mt[20]*x[2])) + float64(mt[28]*x[3])) + float64(mt[36]*x[4])
	q = ((((0 + float64(w0*w0)) + float64(w1*w1)) + float64(w2*w2)) + float64(w3*w3)) + float64(w4*w4)
	s = ((((0 + float64(zp[0]*w0)) + float64(zp[1]*w1)) + float64(zp[2]*w2)) + float64(zp[3]*w3)) + float64(zp[4]*w4)
	return q, s
}
