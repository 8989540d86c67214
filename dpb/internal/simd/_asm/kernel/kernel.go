// Command kernel writes kernel_amd64.s: the scoring kernels that hold a
// block of four or eight actions side by side (scoreBlocksAVX2,
// scoreBlocks8AVX2, scoreBlocks8AVX512) and cpuid. For each action x_k
// (d floats, contiguous):
//
//	w_k = M x_k (M lower triangular, given as mt[j·dp+i] = M_ij, zero-padded)
//	scores[k] = Σ_i z_i w_ki + β·sqrt(Σ_i w_ki²)
//
// with the summation order of scoreBlocksGo, so the bits are the same
// (TestKernelsSameBits).
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// sig is the scoring kernels' signature; n is the name of the block count.
func sig(n string) string {
	return fmt.Sprintf("func(mt *float64, dp int, zp *float64, d int, x *float64, %s int, beta float64, scores *float64)", n)
}

func main() {
	ConstraintExpr("amd64,!purego")
	cpuid()
	scoreBlocksAVX2()
	scoreBlocks8AVX2()
	scoreBlocks8AVX512()
	Generate()
}

func mem(base Register, disp int) Mem { return Mem{Base: base, Disp: disp} }

func idx(base Register, disp int, index Register, scale uint8) Mem {
	return Mem{Base: base, Disp: disp, Index: index, Scale: scale}
}

// param is the address of the active function's argument name.
func param(name string) Mem {
	b, err := Param(name).Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// cpuid writes cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32):
// CPUID, for what golang.org/x/sys/cpu does not report (the vendor and
// family of zmmHalfWidth, the brand string of CpuModel).
func cpuid() {
	TEXT("cpuid", NOSPLIT, "func(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)")
	Load(Param("eaxArg"), EAX)
	Load(Param("ecxArg"), ECX)
	CPUID()
	Store(EAX, Return("eax"))
	Store(EBX, Return("ebx"))
	Store(ECX, Return("ecx"))
	Store(EDX, Return("edx"))
	RET()
}

// zero clears the registers (VXORPD for YMM, VPXORQ for ZMM).
func zero(rs ...VecPhysical) {
	for _, r := range rs {
		if r.Size() == 64 {
			VPXORQ(r, r, r)
		} else {
			VXORPD(r, r, r)
		}
	}
}

func ymm(i int) VecPhysical { return ymms(i, 1)[0] }

func ymms(from, n int) []VecPhysical {
	all := []VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15,
		Y16, Y17, Y18, Y19, Y20, Y21, Y22, Y23, Y24, Y25, Y26, Y27, Y28, Y29, Y30, Y31}
	return all[from : from+n]
}

func zmms(from, n int) []VecPhysical {
	all := []VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15,
		Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}
	return all[from : from+n]
}

// scoreBlocksAVX2 writes scoreBlocksAVX2: blocks of four consecutive actions,
// k = 0…4·nblk−1. Rows of M are processed four at a time (one YMM per
// action); for the row block [i0, i0+4) only columns j < min(i0+4, d) can be
// non-zero.
//
// Registers: SI mt, DI zp, BX row stride of mt in bytes, R9 d, R10–R13 the
// four action pointers, AX i0, CX j, DX end of j, R8 mt cursor, R14 blocks
// left, R15 scores cursor, SP untouched. Y0–Y3 w, Y4 mt row, Y5 broadcast x,
// Y6 z block, Y7 β, Y8–Y11 q, Y12–Y15 s.
func scoreBlocksAVX2() {
	TEXT("scoreBlocksAVX2", NOSPLIT, sig("nblk"))
	Load(Param("mt"), RSI)
	Load(Param("dp"), RBX)
	SHLQ(U8(3), RBX)
	Load(Param("zp"), RDI)
	Load(Param("d"), R9)
	Load(Param("x"), R10)
	Load(Param("nblk"), R14)
	VBROADCASTSD(param("beta"), Y7)
	Load(Param("scores"), R15)
	MOVQ(R9, RDX)
	SHLQ(U8(3), RDX) // DX = d·8, the stride between actions
	LEAQ(idx(R10, 0, RDX, 1), R11)
	LEAQ(idx(R11, 0, RDX, 1), R12)
	LEAQ(idx(R12, 0, RDX, 1), R13)

	Label("block")
	TESTQ(R14, R14)
	JEQ(LabelRef("ret"))
	zero(ymms(8, 8)...)
	XORQ(RAX, RAX)

	Label("rowblock")
	CMPQ(RAX, R9)
	JGE(LabelRef("blockdone"))
	zero(ymms(0, 4)...)
	MOVQ(RAX, RDX)
	ADDQ(U8(4), RDX)
	CMPQ(RDX, R9)
	CMOVQGT(R9, RDX)              // DX = min(i0+4, d)
	LEAQ(idx(RSI, 0, RAX, 8), R8) // &mt[0·dp + i0]
	XORQ(RCX, RCX)

	Label("col")
	VMOVUPD(mem(R8, 0), Y4)
	for a, x := range []Register{R10, R11, R12, R13} {
		VBROADCASTSD(idx(x, 0, RCX, 8), Y5)
		VFMADD231PD(Y4, Y5, ymm(a))
	}
	ADDQ(RBX, R8)
	INCQ(RCX)
	CMPQ(RCX, RDX)
	JLT(LabelRef("col"))

	VMOVUPD(idx(RDI, 0, RAX, 8), Y6)
	for a, w := range ymms(0, 4) {
		VFMADD231PD(w, w, ymm(8+a))
	}
	for a, w := range ymms(0, 4) {
		VFMADD231PD(w, Y6, ymm(12+a))
	}
	ADDQ(U8(4), RAX)
	JMP(LabelRef("rowblock"))

	Label("blockdone")
	Comment("q = (Σ lanes of Y8, …, Σ lanes of Y11), s likewise from Y12–Y15.")
	VHADDPD(Y9, Y8, Y0)   // (q0a+q0b, q1a+q1b, q0c+q0d, q1c+q1d)
	VHADDPD(Y11, Y10, Y1) // (q2…, q3…, q2…, q3…)
	VPERM2F128(U8(0x20), Y1, Y0, Y2)
	VPERM2F128(U8(0x31), Y1, Y0, Y3)
	VADDPD(Y3, Y2, Y2) // (q0, q1, q2, q3)
	VHADDPD(Y13, Y12, Y0)
	VHADDPD(Y15, Y14, Y1)
	VPERM2F128(U8(0x20), Y1, Y0, Y4)
	VPERM2F128(U8(0x31), Y1, Y0, Y5)
	VADDPD(Y5, Y4, Y4) // (s0, s1, s2, s3)
	VSQRTPD(Y2, Y2)
	VFMADD231PD(Y2, Y7, Y4) // s + β·sqrt(q)
	VMOVUPD(Y4, mem(R15, 0))
	ADDQ(U8(32), R15)

	MOVQ(R9, RDX)
	SHLQ(U8(5), RDX) // 4 actions · d · 8 bytes
	for _, x := range []Register{R10, R11, R12, R13} {
		ADDQ(RDX, x)
	}
	DECQ(R14)
	JMP(LabelRef("block"))

	Label("ret")
	VZEROUPPER()
	RET()
}

// reduce4 reduces four actions' lane sums q_r (Y8–Y11) and s_r (Y12–Y15) to
// scores[k] = fma(β, √((q0+q1)+(q2+q3)), (s0+s1)+(s2+s3)) for the four
// actions, β in Y7, stored at dst. Clobbers Y0–Y5.
func reduce4(dst Mem) {
	VHADDPD(Y9, Y8, Y0)
	VHADDPD(Y11, Y10, Y1)
	VPERM2F128(U8(0x20), Y1, Y0, Y2)
	VPERM2F128(U8(0x31), Y1, Y0, Y3)
	VADDPD(Y3, Y2, Y2)
	VHADDPD(Y13, Y12, Y0)
	VHADDPD(Y15, Y14, Y1)
	VPERM2F128(U8(0x20), Y1, Y0, Y4)
	VPERM2F128(U8(0x31), Y1, Y0, Y5)
	VADDPD(Y5, Y4, Y4)
	VSQRTPD(Y2, Y2)
	VFMADD231PD(Y2, Y7, Y4)
	VMOVUPD(Y4, dst)
}

// args8 loads the eight-action kernels' arguments into their registers (see
// scoreBlocks8AVX2).
func args8() {
	Load(Param("mt"), RSI)
	Load(Param("dp"), RBX)
	SHLQ(U8(3), RBX)
	Load(Param("zp"), RDI)
	Load(Param("d"), R9)
	Load(Param("x"), R10)
	Load(Param("n8"), R14)
	Load(Param("scores"), R15)
	MOVQ(R9, R12)
	SHLQ(U8(3), R12)
	LEAQ(idx(R12, 0, R12, 2), R13)
}

// x8 are the addresses of x_a[j] for the eight actions a of a block, from
// the cursors CX (x_0[j]) and DX (x_1[j]) with S = R12 and 3S = R13.
var x8 = [8]Mem{
	idx(RCX, 0, nil, 0), idx(RCX, 0, R12, 1), idx(RCX, 0, R12, 2), idx(RCX, 0, R13, 1),
	idx(RCX, 0, R12, 4), idx(RDX, 0, R12, 4), idx(RCX, 0, R13, 2), idx(RDX, 0, R13, 2),
}

// step8 steps the cursors to column j+1 and compares the x cursor with its
// end (R11).
func step8() {
	ADDQ(RBX, R8)
	ADDQ(U8(8), RCX)
	ADDQ(U8(8), RDX)
	CMPQ(RCX, R11)
}

// scoreBlocks8AVX2 writes scoreBlocks8AVX2: scoreBlocksAVX2 for n8 blocks
// of eight actions. Eight independent FMA chains (one per action) hide the
// FMA latency, and each row of M loaded serves eight actions. The q and s
// lane sums live in the 512-byte frame (q_a at 32a(SP), s_a at
// 256+32a(SP)); the summation order is that of scoreBlocksGo.
//
// Registers: SI mt, BX row stride of mt in bytes, DI zp, R9 d, R10 action 0
// of the block, R12 S = 8d (the stride between actions), R13 3S, CX and DX
// cursors at x_0[j] and x_1[j] (x_a[j] is addressed from them with S and
// 3S), R11 end of the j loop, AX i0, R8 mt cursor, R14 blocks left, R15
// scores cursor. Y0–Y7 w, Y8 mt row, Y9–Y15 broadcasts and lane sums.
func scoreBlocks8AVX2() {
	TEXT("scoreBlocks8AVX2", 0, sig("n8"))
	sums := AllocLocal(512)
	args8()

	Label("block8")
	TESTQ(R14, R14)
	JEQ(LabelRef("ret8"))
	VXORPD(Y0, Y0, Y0)
	MOVQ(U32(0), RAX)

	Label("zero8")
	VMOVUPD(Y0, sums.Idx(RAX, 1))
	ADDQ(U8(32), RAX)
	CMPQ(RAX, U32(512))
	JLT(LabelRef("zero8"))
	XORQ(RAX, RAX)

	Label("rows8")
	CMPQ(RAX, R9)
	JGE(LabelRef("done8"))
	zero(ymms(0, 8)...)
	MOVQ(RAX, R11)
	ADDQ(U8(4), R11)
	CMPQ(R11, R9)
	CMOVQGT(R9, R11)               // jend = min(i0+4, d)
	LEAQ(idx(R10, 0, R11, 8), R11) // &x_0[jend]
	MOVQ(R10, RCX)
	LEAQ(idx(R10, 0, R12, 1), RDX)
	LEAQ(idx(RSI, 0, RAX, 8), R8) // &mt[0·dp + i0]

	Label("col8")
	VMOVUPD(mem(R8, 0), Y8)
	// The broadcasts rotate through Y9–Y15, then Y9 again.
	for a, x := range x8 {
		b := ymm(9 + a%7)
		VBROADCASTSD(x, b)
		VFMADD231PD(Y8, b, ymm(a))
	}
	step8()
	JLT(LabelRef("col8"))

	VMOVUPD(idx(RDI, 0, RAX, 8), Y8) // z[i0:i0+4]
	for a, w := range ymms(0, 8) {
		q, s := sums.Offset(32*a), sums.Offset(256+32*a)
		VMOVUPD(q, Y9)
		VMOVUPD(s, Y10)
		VFMADD231PD(w, w, Y9)
		VFMADD231PD(w, Y8, Y10)
		VMOVUPD(Y9, q)
		VMOVUPD(Y10, s)
	}
	ADDQ(U8(4), RAX)
	JMP(LabelRef("rows8"))

	Label("done8")
	VBROADCASTSD(param("beta"), Y7)
	for h := range 2 {
		for r := range 4 {
			VMOVUPD(sums.Offset(128*h+32*r), ymm(8+r))
		}
		for r := range 4 {
			VMOVUPD(sums.Offset(256+128*h+32*r), ymm(12+r))
		}
		reduce4(mem(R15, 32*h))
	}
	ADDQ(U8(64), R15)
	LEAQ(idx(R10, 0, R12, 8), R10) // the next eight actions
	DECQ(R14)
	JMP(LabelRef("block8"))

	Label("ret8")
	VZEROUPPER()
	RET()
}

// fmaBcst8 adds m times x_a[j] to w_a for the eight actions a of the block
// (embedded broadcast, AVX-512VL for YMM m), then steps to column j+1.
func fmaBcst8(m VecPhysical, w []VecPhysical) {
	for a, x := range x8 {
		VFMADD231PD_BCST(x, m, w[a])
	}
	step8()
}

// scoreBlocks8AVX512 writes scoreBlocks8AVX512: scoreBlocks8AVX2 with eight
// rows of M per ZMM register. Per column j one load of M[i0:i0+8, j] and
// eight FMAs with an embedded broadcast of x_a[j], eight independent chains.
// The two halves of w are folded into the four lane sums in row order (rows
// i0..i0+3, then i0+4..i0+7), so the summation order is that of
// scoreBlocksGo. When dp − i0 = 4 the last row block is done with YMM
// registers. Lane sums: q_a in Y16+a, s_a in Y24+a. Requires AVX-512F and
// AVX-512VL.
//
// Registers as in scoreBlocks8AVX2; Z0–Z7 w, Z8 mt rows, Y9–Y10 z halves,
// Y11 scratch.
func scoreBlocks8AVX512() {
	TEXT("scoreBlocks8AVX512", NOSPLIT, sig("n8"))
	args8()
	q, s := ymms(16, 8), ymms(24, 8)

	Label("block16")
	TESTQ(R14, R14)
	JEQ(LabelRef("ret16"))
	zero(zmms(16, 16)...)
	XORQ(RAX, RAX)

	Label("rows16")
	CMPQ(RAX, R9)
	JGE(LabelRef("done16"))
	zero(zmms(0, 8)...)
	MOVQ(R10, RCX)
	LEAQ(idx(R10, 0, R12, 1), RDX)
	LEAQ(idx(RSI, 0, RAX, 8), R8) // &mt[0·dp + i0]
	LEAQ(mem(RAX, 8), R11)
	SHLQ(U8(3), R11)
	CMPQ(R11, RBX)
	JGT(LabelRef("tail16")) // fewer than eight padded rows left: dp − i0 = 4
	LEAQ(mem(RAX, 8), R11)
	CMPQ(R11, R9)
	CMOVQGT(R9, R11)               // jend = min(i0+8, d)
	LEAQ(idx(R10, 0, R11, 8), R11) // &x_0[jend]

	Label("col16")
	VMOVUPD(mem(R8, 0), Z8)
	fmaBcst8(Z8, zmms(0, 8))
	JLT(LabelRef("col16"))

	VMOVUPD(idx(RDI, 0, RAX, 8), Y9)   // z[i0:i0+4]
	VMOVUPD(idx(RDI, 32, RAX, 8), Y10) // z[i0+4:i0+8]
	for a, z := range zmms(0, 8) {
		y := ymm(a)
		VFMADD231PD(y, y, q[a])
		VFMADD231PD(y, Y9, s[a])
		VEXTRACTF64X4(U8(1), z, Y11)
		VFMADD231PD(Y11, Y11, q[a])
		VFMADD231PD(Y11, Y10, s[a])
	}
	ADDQ(U8(8), RAX)
	JMP(LabelRef("rows16"))

	Label("tail16")
	LEAQ(mem(RAX, 4), R11)
	CMPQ(R11, R9)
	CMOVQGT(R9, R11) // jend = min(i0+4, d)
	LEAQ(idx(R10, 0, R11, 8), R11)

	Label("coltail16")
	VMOVUPD(mem(R8, 0), Y8)
	fmaBcst8(Y8, ymms(0, 8))
	JLT(LabelRef("coltail16"))

	VMOVUPD(idx(RDI, 0, RAX, 8), Y9)
	for a, y := range ymms(0, 8) {
		VFMADD231PD(y, y, q[a])
		VFMADD231PD(y, Y9, s[a])
	}

	Label("done16")
	VBROADCASTSD(param("beta"), Y7)
	for h := range 2 {
		for r := range 4 {
			VMOVAPD(q[4*h+r], ymm(8+r))
		}
		for r := range 4 {
			VMOVAPD(s[4*h+r], ymm(12+r))
		}
		reduce4(mem(R15, 32*h))
	}
	ADDQ(U8(64), R15)
	LEAQ(idx(R10, 0, R12, 8), R10)
	DECQ(R14)
	JMP(LabelRef("block16"))

	Label("ret16")
	VZEROUPPER()
	RET()
}
