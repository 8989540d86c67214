package dpb

import (
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/linalg"
)

// Scoring kernel. With V_t = L Lᵀ, M = L⁻¹ and z = M ũ_t,
//
//	⟨θ̃_t, x⟩ = ⟨z, M x⟩   and   ‖x‖²_{V_t⁻¹} = ‖M x‖²,
//
// so one triangular product w = M x per action gives both terms of the UCB
// score ⟨z, w⟩ + β_t ‖w‖. The product is computed four actions at a time
// against Mᵀ stored column-block-wise (mt[j·dp + i] = M_ij, zero-padded to
// dp = d rounded up to 4), so that each entry of M is loaded once per four
// actions and the inner loop is four independent multiply–adds per action
// lane. On amd64 with AVX2 and FMA the kernel is assembly (kernel_amd64.s,
// 4 lanes per instruction); elsewhere, or with -tags purego, it is the Go
// loop below. The two agree to rounding (kernel_test.go); one seed
// reproduces an experiment bit for bit on machines that pick the same kernel.

// padDim returns d rounded up to a multiple of 4.
func padDim(d int) int { return (d + 3) &^ 3 }

// inverseFactorTo writes M = L⁻¹ into mt in the kernel layout (mt[j·dp+i] =
// M_ij for j ≤ i < d: column j of M is contiguous) and z = M u into zp, from
// the Cholesky factor stored in the lower triangle of l (d×d row-major).
// Entries of mt and zp outside those positions are never written and must be
// zero (as in fresh slices). Column j of M solves L m = e_j:
//
//	M_jj = 1/L_jj,   M_ij = −M_ii Σ_{j≤k<i} L_ik M_kj   (i > j),
//
// each sum a dot product of contiguous slices.
func inverseFactorTo(mt, zp, l, u []float64, d, dp int) {
	for i := 0; i < d; i++ {
		mt[i*dp+i] = 1 / l[i*d+i]
	}
	for j := 0; j < d; j++ {
		col := mt[j*dp : j*dp+d]
		for i := j + 1; i < d; i++ {
			col[i] = -linalg.Dot(l[i*d+j:i*d+i], col[j:i]) * mt[i*dp+i]
		}
	}
	clear(zp[:d])
	for j := 0; j < d; j++ {
		uj := u[j]
		col := mt[j*dp : j*dp+d]
		for i := j; i < d; i++ {
			zp[i] += uj * col[i]
		}
	}
}

// quadTile4Go computes, for the four actions x[0:d], x[ldx:ldx+d],
// x[2ldx:…], x[3ldx:…], q_k = ‖M x_k‖² and s_k = ⟨z, M x_k⟩.
func quadTile4Go(mt []float64, dp int, zp []float64, d int, x []float64, ldx int, q, s *[4]float64) {
	x0, x1, x2, x3 := x[:d], x[ldx:ldx+d], x[2*ldx:2*ldx+d], x[3*ldx:3*ldx+d]
	var q0, q1, q2, q3, s0, s1, s2, s3 float64
	for i := 0; i < d; i++ {
		var w0, w1, w2, w3 float64
		for j := 0; j <= i; j++ {
			mij := mt[j*dp+i]
			w0 += mij * x0[j]
			w1 += mij * x1[j]
			w2 += mij * x2[j]
			w3 += mij * x3[j]
		}
		zi := zp[i]
		q0 += w0 * w0
		q1 += w1 * w1
		q2 += w2 * w2
		q3 += w3 * w3
		s0 += zi * w0
		s1 += zi * w1
		s2 += zi * w2
		s3 += zi * w3
	}
	*q = [4]float64{q0, q1, q2, q3}
	*s = [4]float64{s0, s1, s2, s3}
}

// quadOne computes q = ‖M x‖² and s = ⟨z, M x⟩ for one action.
func quadOne(mt []float64, dp int, zp []float64, d int, x []float64) (q, s float64) {
	for i := 0; i < d; i++ {
		var w float64
		for j := 0; j <= i; j++ {
			w += mt[j*dp+i] * x[j]
		}
		q += w * w
		s += zp[i] * w
	}
	return q, s
}

// scoreBlocksGo is the portable scoring kernel: four actions at a time.
func scoreBlocksGo(mt []float64, dp int, zp []float64, d int, x []float64, nblk int, beta float64, scores []float64) {
	var q, s [4]float64
	for b := 0; b < nblk; b++ {
		quadTile4Go(mt, dp, zp, d, x[4*b*d:4*(b+1)*d], d, &q, &s)
		for k := 0; k < 4; k++ {
			scores[4*b+k] = s[k] + beta*math.Sqrt(q[k])
		}
	}
}

// chooseBlocked returns the first action with the largest UCB score.
func (p *LinUCB) chooseBlocked(r *Round) int {
	d, dp, k := p.d, p.dp, r.K
	if cap(p.scores) < k {
		p.scores = make([]float64, k) // grows once to the largest K seen
	}
	sc := p.scores[:k]
	nblk := k / 4
	scoreBlocks(p.mt, dp, p.zp, d, r.Actions, nblk, p.beta, sc)
	for a := 4 * nblk; a < k; a++ {
		q, s := quadOne(p.mt, dp, p.zp, d, r.Actions[a*d:(a+1)*d])
		sc[a] = s + p.beta*math.Sqrt(q)
	}
	best, bestScore := 0, math.Inf(-1)
	for a, v := range sc {
		if v > bestScore {
			best, bestScore = a, v
		}
	}
	return best
}
