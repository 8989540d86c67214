package simd

import (
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/linalg"
)

// Scoring kernel. With V_t = L Lᵀ, M = L⁻¹ and z = M ũ_t,
//
//	⟨θ̃_t, x⟩ = ⟨z, M x⟩   and   ‖x‖²_{V_t⁻¹} = ‖M x‖²,
//
// so one triangular product w = M x per action gives both terms of the UCB
// score ⟨z, w⟩ + β_t ‖w‖. M is stored transposed and column-block-wise
// (mt[j·dp + i] = M_ij, zero-padded to dp = d rounded up to 4), so a row
// block M[i0:i0+4, j] is four contiguous floats.
//
// Summation order. Every kernel computes each score with the same sequence
// of correctly rounded operations, so one seed gives the same bits whichever
// kernel the CPU selects (kernel_test.go compares them bit for bit):
//
//	w_i = fma(M_ij, x_j, w_i) for j = 0, 1, …, min(i0+4, d)−1 in turn, from
//	      w_i = 0, where i0 = i − i mod 4 (the terms with j > i are M_ij = 0
//	      and leave w_i unchanged);
//	q_r = fma(w_i, w_i, q_r) and s_r = fma(z_i, w_i, s_r) for the rows
//	      i ≡ r (mod 4), i = r, r+4, …, < dp, in increasing i, from 0;
//	score = fma(β, √((q_0+q_1)+(q_2+q_3)), (s_0+s_1)+(s_2+s_3)).
//
// That is the order of one 4-lane vector per row block, which the kernels
// keep however many rows or actions they process at once: the AVX-512
// rows-in-lanes kernels hold eight rows per register and fold its two halves
// into the four lanes in row order; the AVX2 kernels hold four; the AVX-512
// lanes kernel (kernel_lanes_amd64.s) holds one action per lane and runs
// every w_i and every lane sum of it as its own chain in the order above;
// the Go loop (ScoreBlocksGo, math.FMA) is the definition. Blocks of four
// actions go through the vector kernel, the K mod 4 remaining actions
// through QuadOne (the same Go code on every machine).
//
// The kernels may add more or fewer of the zero terms M_ij·x_j (j > i): the
// eight-row kernels run j to min(i0+8, d), the lanes kernel stops at j = i.
// For finite actions a zero term leaves w_i unchanged (w_i starts at +0 and
// a sum is never −0 unless both terms are), so the bits are the same; an
// infinite or NaN action component can give NaN in one kernel where another
// gives ±Inf (every such score is meaningless anyway).

// PadDim returns d rounded up to a multiple of 4.
func PadDim(d int) int { return (d + 3) &^ 3 }

// InverseFactorTo writes M = L⁻¹ into mt in the kernel layout (mt[j·dp+i] =
// M_ij for j ≤ i < d: column j of M is contiguous) and z = M u into zp, from
// the Cholesky factor stored in the lower triangle of l (d×d row-major).
// Entries of mt and zp outside those positions are never written and must be
// zero (as in fresh slices); scratch holds d·dp floats, or is nil (the
// AVX-512 path needs InvPanelScratch(d), which d·dp is from d = 16 on). Column
// j of M solves L m = e_j:
//
//	M_jj = 1/L_jj,   M_ij = −M_ii Σ_{j≤k<i} L_ik M_kj   (i > j),
//
// each sum a dot product of contiguous slices.
func InverseFactorTo(mt, zp, l, u, scratch []float64, d, dp int) {
	for i := 0; i < d; i++ {
		mt[i*dp+i] = 1 / l[i*d+i]
	}
	// On AVX-512 at larger d, rows and z eight columns a vector, in the
	// order of the loops below.
	if inverseFactorLanes(mt, zp, l, u, scratch, d, dp) {
		return
	}
	// Row by row: the entries of row i (one per column j < i) depend only on
	// earlier rows, so the processor overlaps their sums; each entry is the
	// same Dot as column by column.
	for i := 1; i < d; i++ {
		InvRow(l[i*d:i*d+i], mt, dp, i, mt[i*dp+i])
	}
	ZFromFactorTo(zp, mt, u, d, dp)
}

// ZFromFactorTo writes z = M u into zp from M in the kernel layout.
func ZFromFactorTo(zp, mt, u []float64, d, dp int) {
	if d == 5 && dp == 8 {
		zFromFactor5((*[5]float64)(zp), (*[37]float64)(mt), (*[5]float64)(u))
		return
	}
	ZFromFactorLoop(zp, mt, u, d, dp)
}

// ZFromFactorLoop is ZFromFactorTo's loop (the definition zFromFactor5
// writes out).
func ZFromFactorLoop(zp, mt, u []float64, d, dp int) {
	clear(zp[:d])
	for j := 0; j < d; j++ {
		uj := u[j]
		col := mt[j*dp : j*dp+d]
		for i := j; i < d; i++ {
			zp[i] += float64(uj * col[i]) // no fusion: same bits for every GOAMD64
		}
	}
}

// InvRowGo writes row i of M below the diagonal: mt[j·dp+i] =
// −M_ii ⟨li[j:i], M[j:i, j]⟩ for j < i, li being row i of L; each entry is
// one linalg.Dot (the definition the AVX2 routine reproduces).
func InvRowGo(li, mt []float64, dp, i int, mii float64) {
	for j := 0; j < i; j++ {
		col := mt[j*dp : j*dp+i+1]
		col[i] = -linalg.Dot(li[j:i], col[j:i]) * mii
	}
}

// QuadOne computes q = ‖M x‖² and s = ⟨z, M x⟩ for one action (the K mod 4
// actions after the last block), with separately rounded products and sums:
// the Float64 conversions forbid the compiler to fuse them (as it may for
// GOAMD64=v3), so every build gives the same bits.
func QuadOne(mt []float64, dp int, zp []float64, d int, x []float64) (q, s float64) {
	if d == 5 && dp == 8 {
		return quadOne5((*[37]float64)(mt), (*[5]float64)(zp), (*[5]float64)(x))
	}
	return quadOneLoop(mt, dp, zp, d, x)
}

// quadOneLoop is QuadOne's loop (the definition quadOne5 writes out).
func quadOneLoop(mt []float64, dp int, zp []float64, d int, x []float64) (q, s float64) {
	for i := 0; i < d; i++ {
		var w float64
		for j := 0; j <= i; j++ {
			w += float64(mt[j*dp+i] * x[j])
		}
		q += float64(w * w)
		s += float64(zp[i] * w)
	}
	return q, s
}

// ScoreBlocksGo is the portable scoring kernel and the definition of the
// summation order above: four actions at a time.
func ScoreBlocksGo(mt []float64, dp int, zp []float64, d int, x []float64, nblk int, beta float64, scores []float64) {
	for b := 0; b < nblk; b++ {
		xb := x[4*b*d : 4*(b+1)*d]
		for k := 0; k < 4; k++ {
			q, s := quadLanes(mt, dp, zp, d, xb[k*d:(k+1)*d])
			scores[4*b+k] = math.FMA(beta, math.Sqrt((q[0]+q[1])+(q[2]+q[3])), (s[0]+s[1])+(s[2]+s[3]))
		}
	}
}

// quadLanes returns the four lane sums q_r and s_r of one action in the
// kernels' summation order (see above).
func quadLanes(mt []float64, dp int, zp []float64, d int, x []float64) (q, s [4]float64) {
	for i0 := 0; i0 < d; i0 += 4 {
		jend := min(i0+4, d)
		var w [4]float64
		for j, xj := range x[:jend] {
			m := mt[j*dp+i0 : j*dp+i0+4]
			w[0] = math.FMA(m[0], xj, w[0])
			w[1] = math.FMA(m[1], xj, w[1])
			w[2] = math.FMA(m[2], xj, w[2])
			w[3] = math.FMA(m[3], xj, w[3])
		}
		z := zp[i0 : i0+4]
		for r := range 4 {
			q[r] = math.FMA(w[r], w[r], q[r])
			s[r] = math.FMA(z[r], w[r], s[r])
		}
	}
	return q, s
}

// ArgmaxGo returns the index of the first largest entry of x, ignoring NaN;
// 0 when no entry is larger than −Inf.
func ArgmaxGo(x []float64) int {
	best, bestScore := 0, math.Inf(-1)
	for a, v := range x {
		if v > bestScore {
			best, bestScore = a, v
		}
	}
	return best
}
