// Command zig writes zig_amd64.s with avo (github.com/mmcloughlin/avo):
// ZigFastScalar, the ziggurat's fast path (simd.ZigFastGo) one draw at a
// time. go generate in dpb/internal/simd runs it (zig_amd64.go), and
// .ci/generate-check fails when the committed file differs from what it writes.
package main

import (
	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/gotypes"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The wyrand generator's constants (simd.ZigFastGo's words): the state's
// increment and the multiplier's xor mask.
const (
	wyAdd = 0xa0761d6478bd642f
	wyXor = 0xe7037ed1a0b428db
)

// twoM53 is the bits of 2⁻⁵³, which turns a word's top 53 bits into a
// uniform draw from [0, 1).
const twoM53 = 0x3ca0000000000000

// bextrLayer is BEXTR's control for the layer (u >> 32) & 255: 8 bits
// (bits 8–15 of the control) from bit 32 (bits 0–7).
const bextrLayer = 8<<8 | 32

func main() {
	ConstraintExpr("amd64,!purego")
	zigFastScalar()
	Generate()
}

// sym is the package-level Go variable name of the simd package.
func sym(name string) Mem { return NewDataAddr(Symbol{Name: "·" + name}, 0) }

// addr is the frame address of a parameter or result.
func addr(c gotypes.Component) Mem {
	b, err := c.Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// at is base + 8·idx + disp.
func at(base, idx Register, disp int) Mem {
	return Mem{Base: base, Index: idx, Scale: 8, Disp: disp}
}

// zigFastScalar writes ZigFastScalar, ZigFastGo one draw at a time: the same
// words (MULX gives bits.Mul64), the same conversion and product, and the same
// test, so the same bits. The layer i = (u >> 32) & 255 is one BEXTR; the test
// |j| < zigK[i] is uint64(j + zigKLo[i]) < zigKSpan[i] with j sign-extended,
// one add and one compare (see zigKLo). Its stores are scalar, so a caller may
// read the draws back at once.
//
// A word off the fast path in a layer i ≥ 1 is finished here when normSlow's
// chord squeeze decides it: the next word gives y; y < c − zigD[i] accepts x,
// y > c + zigD[i] rejects it and the next word starts the draw again, as in
// normSlow's loop. Only the base strip (i = 0) and a y within zigD[i] of the
// chord (where normSlow calls math.Exp) return to Go, with next the state
// after u, so normSlow(u) draws the same y. The squeeze never decides
// differently from the exact test, so the draws are normSlow's whichever words
// finish where (TestZigFastSameBits).
func zigFastScalar() {
	TEXT("ZigFastScalar", NOSPLIT, "func(dst []float64, s uint64) (n int, next, u uint64)")
	Comment(
		"ZigFastGo one draw at a time, with the same bits: see zigFastScalar in _asm/zig.",
		"Registers: DI dst, R14 len(dst), BX n, AX state, R8 &zigW, R9 &zigKLo,",
		"R10 &zigKSpan, SI and R15 the wyrand constants, R11 the BEXTR control,",
		"R13 u, R12 i, CX j, X15 zero, X0 x, X14 2⁻⁵³; the wedge: CX and DX the",
		"second word, then table addresses and |x|; X1 y, X2 zigF[i−1], X4 c,",
		"X5 c ∓ zigD[i].",
	)
	Load(Param("dst").Base(), RDI)
	Load(Param("dst").Len(), R14)
	Load(Param("s"), RAX)
	XORQ(RBX, RBX)
	LEAQ(sym("ZigW"), R8)
	LEAQ(sym("zigKLo"), R9)
	LEAQ(sym("zigKSpan"), R10)
	MOVQ(U64(wyAdd), RSI)
	MOVQ(U64(wyXor), R15)
	MOVL(U32(bextrLayer), R11L)
	VXORPD(X15, X15, X15)
	MOVQ(U64(twoM53), RCX)
	MOVQ(RCX, X14)
	TESTQ(R14, R14)
	JEQ(LabelRef("sdone"))

	Label("sloop")
	Comment("u = hi ^ lo of (state ⊕ wyXor)·state, the state advanced by wyAdd")
	ADDQ(RSI, RAX)
	MOVQ(RAX, RDX)
	XORQ(R15, RDX)
	MULXQ(RAX, R12, R13)
	XORQ(R12, R13)
	Comment("i, j and x = j·zigW[i]")
	BEXTRQ(R11, R13, R12)
	MOVLQSX(R13L, RCX)
	VCVTSI2SDQ(RCX, X15, X0)
	VMULSD(at(R8, R12, 0), X0, X0)
	Comment("fast iff j + zigK[i] − 1 is below 2·zigK[i] − 1, unsigned")
	ADDQ(at(R9, R12, 0), RCX)
	CMPQ(RCX, at(R10, R12, 0))
	JAE(LabelRef("sslow"))
	VMOVSD(X0, at(RDI, RBX, 0))
	INCQ(RBX)
	CMPQ(RBX, R14)
	JB(LabelRef("sloop"))

	Label("sdone")
	Store(RBX, Return("n"))
	Store(RAX, Return("next"))
	MOVQ(U32(0), addr(Return("u")))
	RET()

	Label("sslow")
	Comment("The base strip: the tail is normSlow's.")
	TESTQ(R12, R12)
	JEQ(LabelRef("sexit"))
	Comment("The second word, from the state after u: y = zigF[i] + w·(zigF[i−1] − zigF[i])",
		"for its uniform draw w from [0, 1).")
	MOVQ(RAX, RCX)
	ADDQ(RSI, RCX)
	MOVQ(RCX, RDX)
	XORQ(R15, RDX)
	MULXQ(RCX, RCX, RDX)
	XORQ(RCX, RDX)
	SHRQ(U8(11), RDX)
	VCVTSI2SDQ(RDX, X15, X1)
	VMULSD(X14, X1, X1)
	LEAQ(sym("ZigF"), RCX)
	VMOVSD(at(RCX, R12, -8), X2)
	VSUBSD(at(RCX, R12, 0), X2, X3)
	VMULSD(X3, X1, X1)
	VADDSD(at(RCX, R12, 0), X1, X1)
	Comment("The chord c = (|x| − zigA[i])·zigS[i] + zigF[i−1] at |x|.")
	VMOVQ(X0, RDX)
	BTRQ(U8(63), RDX)
	VMOVQ(RDX, X4)
	LEAQ(sym("ZigA"), RCX)
	VSUBSD(at(RCX, R12, 0), X4, X4)
	LEAQ(sym("ZigS"), RCX)
	VMULSD(at(RCX, R12, 0), X4, X4)
	VADDSD(X2, X4, X4)
	Comment("y < c − zigD[i]: under the density.")
	LEAQ(sym("ZigD"), RCX)
	VSUBSD(at(RCX, R12, 0), X4, X5)
	VUCOMISD(X5, X1)
	JB(LabelRef("saccept"))
	Comment("Within zigD[i] of the chord: math.Exp decides.")
	VADDSD(at(RCX, R12, 0), X4, X5)
	VUCOMISD(X5, X1)
	JBE(LabelRef("sexit"))
	Comment("Above the density: the second word is used, and the next one starts",
		"the draw again.")
	ADDQ(RSI, RAX)
	JMP(LabelRef("sloop"))

	Label("saccept")
	ADDQ(RSI, RAX)
	VMOVSD(X0, at(RDI, RBX, 0))
	INCQ(RBX)
	CMPQ(RBX, R14)
	JB(LabelRef("sloop"))
	JMP(LabelRef("sdone"))

	Label("sexit")
	Store(RBX, Return("n"))
	Store(RAX, Return("next"))
	Store(R13, Return("u"))
	RET()
}
