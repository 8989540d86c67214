// Command prepare4 writes prepare4_amd64.s: CholInv4AVX2, four LinUCB
// factorisations side by side, one per AVX2 vector lane.
package main

import (
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

var one, sign Mem

func main() {
	ConstraintExpr("amd64,!purego")
	// Bits, not F64: avo prints F64(1) as $(1), an integer to the assembler.
	one = GLOBL("prep4One", RODATA|NOPTR)
	DATA(0, U64(math.Float64bits(1)))
	sign = GLOBL("prep4Sign", RODATA|NOPTR)
	DATA(0, U64(0x8000000000000000))
	cholInv4()
	Generate()
}

func mem(base Register, disp int) Mem { return Mem{Base: base, Disp: disp} }

// baseless is the memory operand (index*scale) with no base register, as
// text. avo prints a LabelRef as it stands and finds no registers in it, so
// the instruction that holds it must name them in its Inputs.
func baseless(index Register, scale int) LabelRef {
	return LabelRef(fmt.Sprintf("(%s*%d)", index.Asm(), scale))
}

// lane is the float64 at byte offset R14 from the pointer in AX.
var lane = Mem{Base: RAX, Index: R14, Scale: 1}

// load4 sets Y0 to the float64 at byte offset R14 from each of the four
// pointers at base(R8). Clobbers AX, X1.
func load4(base int) {
	MOVQ(mem(R8, base), RAX)
	VMOVSD(lane, X0)
	MOVQ(mem(R8, base+8), RAX)
	VMOVHPD(lane, X0, X0)
	MOVQ(mem(R8, base+16), RAX)
	VMOVSD(lane, X1)
	MOVQ(mem(R8, base+24), RAX)
	VMOVHPD(lane, X1, X1)
	VINSERTF128(U8(1), X1, Y0, Y0)
}

// store4 writes Y0's four lanes to byte offset R14 from each of the four
// pointers at base(R8). Clobbers AX, X1.
func store4(base int) {
	MOVQ(mem(R8, base), RAX)
	VMOVSD(X0, lane)
	MOVQ(mem(R8, base+8), RAX)
	VMOVHPD(X0, lane)
	VEXTRACTF128(U8(1), Y0, X1)
	MOVQ(mem(R8, base+16), RAX)
	VMOVSD(X1, lane)
	MOVQ(mem(R8, base+24), RAX)
	VMOVHPD(X1, lane)
}

// interleave writes the loop label that runs body BX times, moving R13 on
// by one vector (32 bytes) and R14 by one float64 each time, then goes to
// next.
func interleave(label, next string, body func()) {
	Label(label)
	TESTQ(RBX, RBX)
	JZ(LabelRef(next))
	body()
	ADDQ(U8(32), R13)
	ADDQ(U8(8), R14)
	DECQ(RBX)
	JMP(LabelRef(label))
}

// cholInv4 writes CholInv4AVX2(lanes *[16]*float64, s []float64, d, dp int)
// (bad int): lane b's V_t (d×d row-major), ũ_t, kernel-layout M and z are
// at lanes[b], lanes[4+b], lanes[8+b] and lanes[12+b]. s is zeroed scratch
// of 2·d²·4 + 2·d·4 float64 (its strict upper triangle of m must stay zero):
// the four matrices and vectors are interleaved there (entry (i, j) of
// matrix b at [(i·d+j)·4+b]), factored and inverted, and written back: L
// into V's lower triangle (the upper one unchanged), M into mt[j·dp+i], z
// into zp. In every lane the operations are those of linalg.Cholesky and of
// inverseFactorTo: M_ii = 1/L_ii, M_ij = −Dot(L_i[j:i], M[j:i]_j)·M_ii with
// linalg.Dot's four chains, tail and final sums, and z_i = Σ_j u_j M_ij (j
// ascending), every product rounded before its sum; row i of M is computed
// as soon as column i of L is (as prepareFactors does at d ≤ 15), so the
// two chains overlap. Lanes are independent IEEE operations, so each lane
// has the bits of the scalar code. Bit b of bad is set when matrix b met a
// pivot that is not > 0 (nothing is written back for it; the caller factors
// it again, jittered).
//
// Registers: SI a, DI m, R8 lanes (then u), R9 z, CX d, R15 row stride d·32,
// R14 byte offset in the lanes' arrays (load4, store4); Y15 1.0, Y14 bad
// lanes, Y13 zero, Y12 all ones, Y11 sign bit.
func cholInv4() {
	TEXT("CholInv4AVX2", NOSPLIT, "func(lanes *[16]*float64, s []float64, d, dp int) (bad int)")
	Load(Param("lanes"), R8)
	Load(Param("s").Base(), RSI)
	Load(Param("d"), RCX)
	MOVQ(RCX, R15)
	SHLQ(U8(5), R15)
	MOVQ(RCX, RBX)
	IMULQ(R15, RBX)
	LEAQ(Mem{Base: RSI, Index: RBX, Scale: 1}, RDI) // m = a + d²·32
	LEAQ(Mem{Base: RDI, Index: RBX, Scale: 1}, R10) // u = m + d²·32
	LEAQ(Mem{Base: R10, Index: R15, Scale: 1}, R9)  // z = u + d·32
	VBROADCASTSD(one, Y15)
	VBROADCASTSD(sign, Y11)
	VXORPD(Y14, Y14, Y14)
	VXORPD(Y13, Y13, Y13)
	VCMPPD(U8(0), Y13, Y13, Y12)

	Comment("Interleave V (d² entries) into a, ũ (d) into u.")
	MOVQ(RCX, RBX)
	IMULQ(RCX, RBX)
	XORQ(R14, R14)
	MOVQ(RSI, R13)
	interleave("inV", "inU", func() {
		load4(0)
		VMOVUPD(Y0, mem(R13, 0))
	})

	Label("inU")
	MOVQ(RCX, RBX)
	XORQ(R14, R14)
	MOVQ(R10, R13)
	interleave("inU1", "inDone", func() {
		load4(32)
		VMOVUPD(Y0, mem(R13, 0))
	})

	Label("inDone")
	MOVQ(R10, R8) // u (lanes reloaded at the end)

	Comment("Cholesky, column j (R10).")
	XORQ(R10, R10)

	Label("cholJ")
	CMPQ(R10, RCX)
	JAE(LabelRef("cholDone"))
	MOVQ(R10, RAX)
	IMULQ(R15, RAX)
	LEAQ(Mem{Base: RSI, Index: RAX, Scale: 1}, R11)   // row j
	MOVQ(R10, RBX)                                    //
	SHLQ(U8(5), RBX)                                  // column j's offset
	VMOVUPD(Mem{Base: R11, Index: RBX, Scale: 1}, Y0) // s = a_jj
	XORQ(RDX, RDX)

	Label("diagK")
	CMPQ(RDX, R10)
	JAE(LabelRef("diagDone"))
	MOVQ(RDX, RAX)
	SHLQ(U8(5), RAX)
	VMOVUPD(Mem{Base: R11, Index: RAX, Scale: 1}, Y1)
	VMULPD(Y1, Y1, Y1)
	VSUBPD(Y1, Y0, Y0) // s −= L_jk·L_jk
	INCQ(RDX)
	JMP(LabelRef("diagK"))

	Label("diagDone")
	VCMPPD(U8(0x1e), Y13, Y0, Y2) // s > 0 (ordered: false for NaN)
	VANDNPD(Y12, Y2, Y3)
	VORPD(Y3, Y14, Y14)
	VSQRTPD(Y0, Y0)
	VMOVUPD(Y0, Mem{Base: R11, Index: RBX, Scale: 1})
	VDIVPD(Y0, Y15, Y4) // 1/L_jj
	LEAQ(mem(R10, 1), R12)

	Label("rowI")
	CMPQ(R12, RCX)
	JAE(LabelRef("rowDone"))
	MOVQ(R12, RAX)
	IMULQ(R15, RAX)
	LEAQ(Mem{Base: RSI, Index: RAX, Scale: 1}, R13)   // row i
	VMOVUPD(Mem{Base: R13, Index: RBX, Scale: 1}, Y0) // s = a_ij
	XORQ(RDX, RDX)

	Label("offK")
	CMPQ(RDX, R10)
	JAE(LabelRef("offDone"))
	MOVQ(RDX, RAX)
	SHLQ(U8(5), RAX)
	VMOVUPD(Mem{Base: R13, Index: RAX, Scale: 1}, Y1)
	VMULPD(Mem{Base: R11, Index: RAX, Scale: 1}, Y1, Y1)
	VSUBPD(Y1, Y0, Y0) // s −= L_ik·L_jk
	INCQ(RDX)
	JMP(LabelRef("offK"))

	Label("offDone")
	VMULPD(Y4, Y0, Y0)
	VMOVUPD(Y0, Mem{Base: R13, Index: RBX, Scale: 1})
	INCQ(R12)
	JMP(LabelRef("rowI"))

	Label("rowDone")
	Comment(
		"Row j (R10) of M, now that row j of L is complete: M_jj = 1/L_jj",
		"(Y4, the factorisation's own reciprocal), then M_jk for k < j (R12),",
		"each the dot product of terms t = 0…n−1, n = j−k, L_{j,k+t}·M_{k+t,k}",
		"(L at row j + (k+t)·32, M at (k+t)·R15 + k·32). The next columns of",
		"L do not wait for it, so the processor overlaps the two chains.",
	)
	MOVQ(R10, RAX)
	IMULQ(R15, RAX)
	LEAQ(Mem{Base: RDI, Index: RAX, Scale: 1}, R11) // row j of M
	MOVQ(R10, RBX)
	SHLQ(U8(5), RBX)
	VMOVUPD(Y4, Mem{Base: R11, Index: RBX, Scale: 1}) // M_jj
	XORQ(R12, R12)

	Label("invK")
	CMPQ(R12, R10)
	JAE(LabelRef("invRowDone"))
	MOVQ(R10, RAX)
	IMULQ(R15, RAX)
	LEAQ(Mem{Base: RSI, Index: RAX, Scale: 1}, R13)
	MOVQ(R12, RBX)
	SHLQ(U8(5), RBX) // k·32
	ADDQ(RBX, R13)   // &L_jk: L_{j,k+t} at R13 + t·32
	MOVQ(R12, RAX)
	IMULQ(R15, RAX)
	LEAQ(Mem{Base: RDI, Index: RAX, Scale: 1}, R14)
	ADDQ(RBX, R14) // &M_kk: M_{k+t,k} at R14 + t·R15
	MOVQ(R10, RDX)
	SUBQ(R12, RDX) // n
	chains := []VecPhysical{Y0, Y1, Y2, Y3}
	for _, y := range chains {
		VXORPD(y, y, y)
	}

	// linalg.Dot's four chains: term t into chain t mod 4.
	Label("dot4")
	CMPQ(RDX, U8(4))
	JB(LabelRef("dotTail"))
	for t, y := range chains {
		x := []VecPhysical{Y5, Y6, Y7, Y8}[t]
		VMOVUPD(mem(R13, 32*t), x)
		VMULPD(mem(R14, 0), x, x)
		VADDPD(x, y, y)
		ADDQ(R15, R14)
	}
	ADDQ(U8(128), R13)
	SUBQ(U8(4), RDX)
	JMP(LabelRef("dot4"))

	Label("dotTail")
	TESTQ(RDX, RDX)
	JZ(LabelRef("dotSum"))
	VMOVUPD(mem(R13, 0), Y5)
	VMULPD(mem(R14, 0), Y5, Y5)
	VADDPD(Y5, Y0, Y0)
	ADDQ(R15, R14)
	ADDQ(U8(32), R13)
	DECQ(RDX)
	JMP(LabelRef("dotTail"))

	Label("dotSum")
	VADDPD(Y1, Y0, Y0)
	VADDPD(Y3, Y2, Y2)
	VADDPD(Y2, Y0, Y0)                                // (s0 + s1) + (s2 + s3)
	VXORPD(Y11, Y0, Y0)                               // −Dot
	VMULPD(Y4, Y0, Y0)                                // ·M_jj
	VMOVUPD(Y0, Mem{Base: R11, Index: RBX, Scale: 1}) // M_jk
	INCQ(R12)
	JMP(LabelRef("invK"))

	Label("invRowDone")
	INCQ(R10)
	JMP(LabelRef("cholJ"))

	Label("cholDone")
	Comment("z_i = Σ_{j ≤ i} u_j M_ij, j ascending (z starts at zero).")
	XORQ(R12, R12)

	Label("zClear")
	CMPQ(R12, RCX)
	JAE(LabelRef("zCols"))
	MOVQ(R12, RAX)
	SHLQ(U8(5), RAX)
	VMOVUPD(Y13, Mem{Base: R9, Index: RAX, Scale: 1})
	INCQ(R12)
	JMP(LabelRef("zClear"))

	Label("zCols")
	XORQ(R10, R10)

	Label("zJ")
	CMPQ(R10, RCX)
	JAE(LabelRef("zDone"))
	MOVQ(R10, RBX)
	SHLQ(U8(5), RBX)
	VMOVUPD(Mem{Base: R8, Index: RBX, Scale: 1}, Y4) // u_j
	MOVQ(R10, R12)

	Label("zI")
	CMPQ(R12, RCX)
	JAE(LabelRef("zNextJ"))
	MOVQ(R12, RAX)
	IMULQ(R15, RAX)
	LEAQ(Mem{Base: RDI, Index: RAX, Scale: 1}, R13)
	VMULPD(Mem{Base: R13, Index: RBX, Scale: 1}, Y4, Y0) // u_j·M_ij
	MOVQ(R12, RAX)
	SHLQ(U8(5), RAX)
	VADDPD(Mem{Base: R9, Index: RAX, Scale: 1}, Y0, Y0)
	VMOVUPD(Y0, Mem{Base: R9, Index: RAX, Scale: 1})
	INCQ(R12)
	JMP(LabelRef("zI"))

	Label("zNextJ")
	INCQ(R10)
	JMP(LabelRef("zJ"))

	Label("zDone")
	Comment(
		"Write back every lane (a bad lane's caller refactors it from the",
		"statistics, overwriting V, M's lower triangle and z).",
	)
	Load(Param("lanes"), R8)
	MOVQ(RCX, RBX)
	IMULQ(RCX, RBX)
	XORQ(R14, R14)
	MOVQ(RSI, R13)
	interleave("outV", "outZ", func() {
		VMOVUPD(mem(R13, 0), Y0)
		store4(0)
	})

	Label("outZ")
	MOVQ(RCX, RBX)
	XORQ(R14, R14)
	MOVQ(R9, R13)
	interleave("outZ1", "outM", func() {
		VMOVUPD(mem(R13, 0), Y0)
		store4(96)
	})

	Label("outM")
	Comment("mt[j·dp+i] = M_ij for all i, j < d (m's upper triangle is zero).")
	Load(Param("dp"), R11)
	SHLQ(U8(3), R11) // dp·8
	XORQ(R10, R10)   // i
	MOVQ(RDI, R13)   // &m[i][0]

	Label("outMI")
	CMPQ(R10, RCX)
	JAE(LabelRef("outDone"))
	// R14 = (0·dp + i)·8: LEAQ (R10*8), R14, a memory operand without a
	// base, which the Go assembler takes and avo's Mem does not
	// (pass.VerifyMemOperands), so the instruction is added with the
	// operand as text (baseless) and its register named as its input.
	Instruction(&ir.Instruction{
		Opcode:   "LEAQ",
		Operands: []Op{baseless(R10, 8), R14},
		Inputs:   []Op{R10},
		Outputs:  []Op{R14},
	})
	XORQ(RBX, RBX) // j

	Label("outMJ")
	CMPQ(RBX, RCX)
	JAE(LabelRef("outMNext"))
	VMOVUPD(mem(R13, 0), Y0)
	store4(64)
	ADDQ(U8(32), R13)
	ADDQ(R11, R14)
	INCQ(RBX)
	JMP(LabelRef("outMJ"))

	Label("outMNext")
	INCQ(R10)
	JMP(LabelRef("outMI"))

	Label("outDone")
	VMOVMSKPD(Y14, EAX)
	Store(RAX, Return("bad"))
	VZEROUPPER()
	RET()
}
