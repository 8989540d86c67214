// Command choose4 writes choose4_amd64.s with avo
// (github.com/mmcloughlin/avo): score4SmallAVX512, ChooseLockstep's kernel.
// Its rows are unrolled for d ≤ 8, with early exits at d, and written out
// here so that the 36 FMA addresses of M and the two row variants (fused,
// quadOne's) cannot drift apart. go generate in dpb/internal/simd runs it
// (choose4_amd64.go), and .ci/generate-check fails when the committed file differs
// from what it writes.
//
// score4SmallAVX512(x, n, pad, npad, d, dp, np, tab, a, tail, ntail) is
// scoreBlocksGo for np ≤ 4 policies of one dimension d ≤ 8 on the same
// actions, one action per lane, in groups of eight (8d floats): the n actions
// of x, then the npad of pad (a last group of four, zero-padded); then
// chooseBlocked's quadOne for the ntail ≤ 3 actions of tail (zero-padded to
// eight), numbered n + npad + l: w_i = Σ_j M_ij·x_j, q = Σ_i w_i·w_i,
// s = Σ_i z_i·w_i, each product rounded before its sum, in increasing j and i
// from +0, and the score s + β·√q.
//
// A group's d registers are loaded and transposed once, as in
// normaliseBlocksAVX512 (component i of action k, at flat position d·k+i, to
// lane k of Z_i, one merge-masked VPERMPD per source register); then for each
// policy p every lane runs its action's operations in the Go loop's order:
// w_i = fma(M_ij, x_j, w_i) for j = 0…i from +0 (the zero terms j > i
// skipped: for finite actions they change nothing, as in the lanes kernel),
// q_r = fma(w_i, w_i, q_r) and s_r = fma(z_i, w_i, s_r) for i ≡ r (mod 4),
// i < d, in increasing i, from +0, and the score
// fma(β, √((q0+q1)+(q2+q3)), (s0+s1)+(s2+s3)), stored at scores_p[8g : 8g+8].
// The policies' chains are independent, so the processor overlaps them.
//
// Each policy's argmax runs along, as in argmaxAVX512: lane l of best_p (−∞
// at first) keeps the largest score of the actions ≡ l (mod 8) that exist and
// bidx_p (0 at first) its first number, replaced only by a strictly larger
// score; at the end the largest lane value and the smallest number among the
// lanes that hold it go to res_p and resv_p (argmaxGo's answer over these
// actions, 0 when no score exceeds −∞). a holds each policy's mt (kernel
// layout) at 8p, zp at 32+8p, scores at 64+8p, β at 96+8p, best at 128+64p,
// bidx at 384+64p, res at 640+8p and resv at 672+8p (lockArgs).
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/gotypes"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// maxDim is the largest dimension the kernel unrolls (simd.LockMaxDim).
const maxDim = 8

var zs = [32]VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15,
	Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}
var ys = [32]VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15,
	Y16, Y17, Y18, Y19, Y20, Y21, Y22, Y23, Y24, Y25, Y26, Y27, Y28, Y29, Y30, Y31}

func main() {
	ConstraintExpr("amd64,!purego")
	score4Small()
	Generate()
}

// sym is the simd package's variable name.
func sym(name string) Mem { return NewDataAddr(Symbol{Name: "·" + name}, 0) }

// at is disp(base).
func at(base Register, disp int) Mem { return Mem{Base: base, Disp: disp} }

// addr is the frame address of a parameter.
func addr(c gotypes.Component) Mem {
	b, err := c.Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// mAddr is M_ij's address for row i, column j ≤ 7: column j at 8·dp·j from
// mt, with CX mt, DX mt + 8dp, R12 8dp and R13 24dp (x86 scales reach 1, 2,
// 4 and 8 only).
func mAddr(j, i int) Mem {
	off := 8 * i
	switch j {
	case 0:
		return Mem{Base: RCX, Disp: off}
	case 1:
		return Mem{Base: RCX, Index: R12, Scale: 1, Disp: off}
	case 2:
		return Mem{Base: RCX, Index: R12, Scale: 2, Disp: off}
	case 3:
		return Mem{Base: RCX, Index: R13, Scale: 1, Disp: off}
	case 4:
		return Mem{Base: RCX, Index: R12, Scale: 4, Disp: off}
	case 5:
		return Mem{Base: RDX, Index: R12, Scale: 4, Disp: off}
	case 6:
		return Mem{Base: RCX, Index: R13, Scale: 2, Disp: off}
	case 7:
		return Mem{Base: RDX, Index: R13, Scale: 2, Disp: off}
	}
	panic(fmt.Sprintf("column %d", j))
}

func score4Small() {
	// tab is a *normTables and a a *lockArgs (avo's signatures name no
	// types of the simd package: it is not loaded here).
	TEXT("score4SmallAVX512", NOSPLIT, "func(x *float64, n int, pad *float64, npad, d, dp, np int, tab *struct{}, a *struct{}, tail *float64, ntail int)")
	Comment(
		"scoreBlocksGo and quadOne for np ≤ 4 policies of one dimension d ≤ 8,",
		"with each policy's argmax: see _asm/choose4.",
		"Registers: R15 the group's actions, R9 actions left, R8 the group's score",
		"offset (64g), R10 d, AX a, K3 the group's actions below n, Z29",
		"their numbers, Z30 8; transposition: R14 tab, BX source, DX mask pointer,",
		"R11 count, Z25 index; scoring: BX policy cursor in a, R14 the policy's",
		"best, R11 policies left, CX mt, DX mt + 8dp, R12 8dp, R13 24dp, SI zp,",
		"DI scores. Z0–Z7 x_j, Z8–Z15 w_i, Z16–Z19 q_r, Z20–Z23 s_r, Z24 β,",
		"Z26–Z28 scratch. Requires AVX-512F and BMI2.",
	)
	Load(Param("x"), R15)
	Load(Param("n"), R9)
	Load(Param("d"), R10)
	Load(Param("dp"), R12)
	Comment("R12 8·dp: the byte stride of M's columns; R13 3·8·dp.")
	SHLQ(U8(3), R12)
	LEAQ(Mem{Base: R12, Index: R12, Scale: 2}, R13)
	Load(Param("a"), RAX)
	VMOVDQU64(sym("iota8"), Z29)
	XORQ(R8, R8)
	MOVQ(U32(8), RBX)
	VPBROADCASTQ(RBX, Z30)
	Comment("The argmax lanes: best −∞, bidx 0.")
	VBROADCASTSD(sym("negInfBits"), Z0)
	VPXORQ(Z1, Z1, Z1)
	LEAQ(at(RAX, 128), R14)
	Load(Param("np"), R11)
	Label("s4init")
	VMOVUPD(Z0, at(R14, 0))
	VMOVDQU64(Z1, at(R14, 256))
	ADDQ(U8(64), R14)
	DECQ(R11)
	JNZ(LabelRef("s4init"))

	Label("s4group")
	TESTQ(R9, R9)
	JG(LabelRef("s4go"))
	Comment("Then pad's group, once (npad negated marks it done).")
	Load(Param("npad"), R9)
	TESTQ(R9, R9)
	JLE(LabelRef("s4tailgroup"))
	Load(Param("pad"), R15)
	NEGQ(addr(Param("npad")))
	JMP(LabelRef("s4go"))

	Label("s4tailgroup")
	Comment("Then the tail, once (ntail −1 marks it): its numbers n + npad + l,",
		"its scores there.")
	Load(Param("ntail"), R9)
	TESTQ(R9, R9)
	JLE(LabelRef("s4reduce"))
	Load(Param("tail"), R15)
	MOVQ(I32(-1), addr(Param("ntail")))
	Load(Param("npad"), R8)
	NEGQ(R8)
	ADDQ(addr(Param("n")), R8)
	VPBROADCASTQ(R8, Z29)
	VPADDQ(sym("iota8"), Z29, Z29)
	SHLQ(U8(3), R8)

	Label("s4go")
	Comment("K3: the lanes below n.")
	MOVQ(U32(0xff), RBX)
	CMPQ(R9, U8(8))
	JAE(LabelRef("s4full"))
	MOVL(U32(1), EBX)
	SHLXL(R9L, EBX, EBX)
	SUBL(U8(1), EBX)
	Label("s4full")
	KMOVB(EBX, K3)
	Load(Param("tab"), R14)
	transpose()
	scoreFused()
	scoreTail()
	reduce()
}

// transpose moves component i of the group's action k to lane k of Z_i:
// each component's permutes are written out, with an exit after source
// register d−1 (a loop over the registers cost more than its permutes at
// d = 5, as in normaliseBlocksAVX512).
func transpose() {
	for i := range maxDim {
		Comment(fmt.Sprintf("Z%d: component %d of the eight actions", i, i))
		VMOVDQU64(at(R14, 8+64*i), Z25)
		for j := range maxDim {
			KMOVB(at(R14, 8+512+8*i+j), K1)
			if j == 0 {
				VPERMPD_Z(at(R15, 64*j), Z25, K1, zs[i])
			} else {
				VPERMPD(at(R15, 64*j), Z25, K1, zs[i])
			}
			if j < maxDim-1 {
				CMPQ(R10, U8(j+1))
				JEQ(LabelRef(fmt.Sprintf("s4c%d", i)))
			}
		}
		Label(fmt.Sprintf("s4c%d", i))
		if i < maxDim-1 {
			CMPQ(R10, U8(i+1))
			JEQ(LabelRef("s4score"))
		}
	}
}

// policyStart loads the policy's mt (CX, and DX = mt + 8dp), zp (SI),
// scores (DI) and β (Z24, or Y24 for the tail).
func policyStart(beta VecPhysical) {
	MOVQ(at(RBX, 0), RCX)
	LEAQ(Mem{Base: RCX, Index: R12, Scale: 1}, RDX)
	MOVQ(at(RBX, 32), RSI)
	MOVQ(at(RBX, 64), RDI)
	VBROADCASTSD(at(RBX, 96), beta)
}

// argmaxStep stores the scores in Z27 and updates the policy's argmax
// lanes: a score > the lane's best (ordered), below n, replaces it and its
// number; then the next policy.
func argmaxStep(loop string) {
	VMOVUPD(Z27, Mem{Base: RDI, Index: R8, Scale: 1})
	VCMPPD(U8(0x1e), at(R14, 0), Z27, K3, K1)
	VMOVUPD(Z27, K1, at(R14, 0))
	VMOVDQU64(Z29, K1, at(R14, 256))
	ADDQ(U8(8), RBX)
	ADDQ(U8(64), R14)
	DECQ(R11)
	JMP(LabelRef(loop))
}

// scoreFused scores a group of eight actions for each policy (the fused
// rows), then moves to the next group.
func scoreFused() {
	Label("s4score")
	MOVQ(RAX, RBX)
	LEAQ(at(RAX, 128), R14)
	Load(Param("np"), R11)
	CMPQ(addr(Param("ntail")), I8(-1))
	JEQ(LabelRef("s4tpolicy"))

	Label("s4policy")
	TESTQ(R11, R11)
	JEQ(LabelRef("s4next"))
	policyStart(Z24)
	for r := 16; r < 24; r++ {
		VPXORQ(zs[r], zs[r], zs[r])
	}
	for i := range maxDim {
		w := zs[8+i]
		Comment(fmt.Sprintf("row %d: w_%d = Σ_j M_%dj x_j (j ≤ %d), then q_%d and s_%d", i, i, i, i, i%4, i%4))
		VPXORQ(w, w, w)
		for j := range i + 1 {
			VFMADD231PD_BCST(mAddr(j, i), zs[j], w)
		}
		VFMADD231PD(w, w, zs[16+i%4])
		VFMADD231PD_BCST(at(RSI, 8*i), w, zs[20+i%4])
		if i < maxDim-1 {
			CMPQ(R10, U8(i+1))
			JEQ(LabelRef("s4fin"))
		}
	}

	Label("s4fin")
	Comment("fma(β, √((q0+q1)+(q2+q3)), (s0+s1)+(s2+s3))")
	VADDPD(Z17, Z16, Z26)
	VADDPD(Z19, Z18, Z27)
	VADDPD(Z27, Z26, Z26)
	VSQRTPD(Z26, Z26)
	VADDPD(Z21, Z20, Z27)
	VADDPD(Z23, Z22, Z28)
	VADDPD(Z28, Z27, Z27)
	VFMADD231PD(Z26, Z24, Z27)
	argmaxStep("s4policy")

	Label("s4next")
	Comment("The next group: 8d floats on.")
	MOVQ(R10, RBX)
	SHLQ(U8(6), RBX)
	ADDQ(RBX, R15)
	ADDQ(U8(64), R8)
	SUBQ(U8(8), R9)
	VPADDQ(Z30, Z29, Z29)
	JMP(LabelRef("s4group"))
}

// scoreTail scores the tail's actions for each policy with quadOne's
// operations in every lane: separate products and sums, one chain each for
// w_i, q and s, and s + β·√q. The tail has at most three actions, so its
// arithmetic runs on the low four lanes (256-bit registers: half the square
// root's cost, and a third port for the multiplies and adds); the score's
// upper lanes are then +0, lanes that K3 keeps out of the argmax and that lie
// past the K scores.
func scoreTail() {
	Label("s4tpolicy")
	TESTQ(R11, R11)
	JEQ(LabelRef("s4reduce"))
	policyStart(Y24)
	VPXORQ(Y16, Y16, Y16)
	VPXORQ(Y20, Y20, Y20)
	for i := range maxDim {
		// Alternate rows in Y8/Y9 and Y10/Y11, w and the product.
		w, t := ys[8+2*(i%2)], ys[9+2*(i%2)]
		Comment(fmt.Sprintf("row %d", i))
		VPXORQ(w, w, w)
		for j := range i + 1 {
			VMULPD_BCST(mAddr(j, i), ys[j], t)
			VADDPD(t, w, w)
		}
		VMULPD(w, w, t)
		VADDPD(t, Y16, Y16)
		VMULPD_BCST(at(RSI, 8*i), w, t)
		VADDPD(t, Y20, Y20)
		if i < maxDim-1 {
			CMPQ(R10, U8(i+1))
			JEQ(LabelRef("s4tfin"))
		}
	}

	Label("s4tfin")
	Comment("s + β·√q")
	VSQRTPD(Y16, Y26)
	VMULPD(Y26, Y24, Y26)
	VADDPD(Y26, Y20, Y27)
	argmaxStep("s4tpolicy")
}

// reduce finds each policy's answer from its lanes: the largest value M,
// then the smallest number among the lanes that hold M (−0 and +0 compare
// equal), to res_p and resv_p.
func reduce() {
	Label("s4reduce")
	LEAQ(at(RAX, 128), R14)
	LEAQ(at(RAX, 640), RBX)
	Load(Param("np"), R11)

	Label("s4red")
	TESTQ(R11, R11)
	JEQ(LabelRef("s4done"))
	VMOVUPD(at(R14, 0), Z0)
	VMOVDQU64(at(R14, 256), Z1)
	laneArgmax()
	VMOVQ(X7, at(RBX, 0))
	VMOVSD(X5, at(RBX, 32))
	ADDQ(U8(64), R14)
	ADDQ(U8(8), RBX)
	DECQ(R11)
	JMP(LabelRef("s4red"))

	Label("s4done")
	VZEROUPPER()
	RET()
}

// laneArgmax reduces eight argmax lanes, values in Z0 and their first
// indices in Z1 (as argmaxAVX512): the largest value M in every lane of Z5,
// then the smallest index among the lanes that hold M (−0 and +0 compare
// equal) in every lane of Z7 (2⁶⁴−1 when no lane holds M, i.e. M is NaN,
// which the lanes never hold). Clobbers Z6, Z8, K3.
func laneArgmax() {
	Comment("The lanes' argmax: M in Z5, its smallest index in Z7.")
	VSHUFF64X2(U8(0x4e), Z0, Z0, Z5)
	VMAXPD(Z5, Z0, Z5)
	VSHUFF64X2(U8(0xb1), Z5, Z5, Z6)
	VMAXPD(Z6, Z5, Z5)
	VPERMILPD(U8(0x55), Z5, Z6)
	VMAXPD(Z6, Z5, Z5)
	VCMPPD(U8(0), Z5, Z0, K3)
	VPTERNLOGQ(U8(0xff), Z7, Z7, Z7)
	VMOVDQA64(Z1, K3, Z7)
	VSHUFI64X2(U8(0x4e), Z7, Z7, Z8)
	VPMINUQ(Z8, Z7, Z7)
	VSHUFI64X2(U8(0xb1), Z7, Z7, Z8)
	VPMINUQ(Z8, Z7, Z7)
	VPSHUFD(U8(0x4e), Z7, Z8)
	VPMINUQ(Z8, Z7, Z7)
}
