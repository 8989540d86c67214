// Command normalise writes normalise_amd64.s: NormaliseBlocksGo in AVX-512,
// eight vectors of dimension d ≤ 8 per pass (normaliseBlocksAVX512) or 32
// vectors of any dimension per pass, one per lane (normaliseLanesAVX512).
// In every lane the operations are those of normaliseTo in its order — s +=
// v·v, u += v·θ_i for i = 0…d−1, each product rounded (no fused
// multiply-add), inv = 1/√s, the vector scaled by inv, mean = u·inv — so the
// bits are the same (TestNormaliseBlocksSameBits).
package main

import (
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/dpbandits/dpbandits/dpb/internal/simd/_asm/internal/transpose"
)

// Offsets in normTables (normalise_amd64.go): d at 0, idx at 8, mask at
// 520, exp at 584.
const (
	tabIdx  = 8
	tabMask = 8 + 512
	tabExp  = 8 + 512 + 64
)

var one Mem

func main() {
	ConstraintExpr("amd64,!purego")
	one = GLOBL("normOne", RODATA|NOPTR)
	// The bits of 1.0: avo prints F64(1) as $(1), an integer to the assembler.
	DATA(0, U64(math.Float64bits(1)))
	blocks()
	lanes()
	Generate()
}

// a holds the registers A_0…A_7 of a pass of blocks.
var a = [8]VecPhysical{Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23}

func mem(base Register, disp int) Mem { return Mem{Base: base, Disp: disp} }

// exitAfter goes to label when register j was the last (j+1 = d, d in CX).
func exitAfter(j int, label string) {
	CMPQ(RCX, Imm(uint64(j+1)))
	JEQ(LabelRef(label))
}

// loadFull loads A_j of a whole pass of eight vectors from acts (DI).
func loadFull(j int, done string) {
	VMOVUPD(mem(RDI, 64*j), a[j])
	exitAfter(j, done)
}

// scaleFull scales A_j by inv (Z12) expanded to its lanes (tab.exp[j]: lane
// l belongs to vector (8j+l)/d) and stores it.
func scaleFull(j int, done string) {
	VMOVDQU64(mem(R8, tabExp+64*j), Z14)
	VPERMPD(Z12, Z14, Z15)
	VMULPD(a[j], Z15, Z15)
	VMOVUPD(Z15, mem(RDI, 64*j))
	exitAfter(j, done)
}

// eachReg applies op to A_0…A_7 in order, each of which goes to done after
// A_{d−1}: written out, so that a pass runs without a taken branch until its
// exits.
func eachReg(op func(j int, done string), done string) {
	for j := range a {
		op(j, done)
	}
}

// comp gathers component i of the pass's eight vectors into Z0 (lane k ←
// flat position d·k+i, from register (d·k+i)/8: tab.idx[i] in Z14, one
// VPERMPD under tab.mask[i][j] per register, the first zeroing the other
// lanes) and then adds it to s (Z8) and u (Z9) in lane order as normaliseTo
// does: s += v·v, u += v·θ_i, each product rounded.
func comp(i int) {
	next := fmt.Sprintf("comp%d", i)
	VMOVDQU64(mem(R8, tabIdx+64*i), Z14)
	KMOVB(mem(R8, tabMask+8*i), K1)
	VPERMPD_Z(a[0], Z14, K1, Z0)
	exitAfter(0, next)
	for j := 1; j < 8; j++ {
		KMOVB(mem(R8, tabMask+8*i+j), K1)
		VPERMPD(a[j], Z14, K1, Z0)
		exitAfter(j, next)
	}
	Label(next)
	VMULPD(Z0, Z0, Z10)
	VADDPD(Z10, Z8, Z8)
	VBROADCASTSD(mem(RSI, 8*i), Z11)
	VMULPD(Z11, Z0, Z10)
	VADDPD(Z10, Z9, Z9)
	exitAfter(i, "norm")
}

// blocks writes normaliseBlocksAVX512: normaliseTo for the k vectors
// acts[a·d : (a+1)·d] (d = tab.d ≤ 8), eight per pass. A pass loads the d
// registers A_0…A_{d−1} (Z16…) that hold its eight vectors, transposes them
// (comp), makes in every lane the operations of normaliseTo in its order,
// then scales the A_j by inv expanded to the vectors' positions and stores
// them, and means = u·inv. k is a multiple of 8: NormaliseBlocks leaves the
// k mod 8 last vectors to the Go loop, since a last pass under masks would
// load registers past the last vector, and where that memory is a page not
// yet mapped in, each such load takes a microcode assist.
//
// Every loop over i and j is written out, with an exit after d, so that a
// pass runs without a taken branch until its exits: with a loop for each
// register the loop's own instructions filled the reorder buffer and a pass
// of d = 5 took about three times its arithmetic.
//
// Registers: DI acts (the pass's first vector), SI theta, DX means, R8 tab,
// CX d, R9 vectors left, R13 d·64 bytes a pass; Z16–Z23 A_j, Z0 a component,
// Z8 s, Z9 u, Z10 product, Z11 θ_i, Z12 inv, Z13 1, Z14 index, Z15 scaled
// A_j; K1 a permute's mask.
func blocks() {
	// tab is a *normTables (normalise_amd64.go), a type avo cannot see.
	TEXT("normaliseBlocksAVX512", NOSPLIT, "func(acts, theta, means []float64, tab *byte, k int)")
	Load(Param("acts").Base(), RDI)
	Load(Param("theta").Base(), RSI)
	Load(Param("means").Base(), RDX)
	Load(Param("tab"), R8)
	Load(Param("k"), R9)
	MOVQ(mem(R8, 0), RCX) // d
	TESTQ(R9, R9)
	JLE(LabelRef("done"))
	MOVQ(RCX, R13)
	SHLQ(U8(6), R13)
	VBROADCASTSD(one, Z13)

	Label("pass")
	eachReg(loadFull, "loaded")

	Label("loaded")
	VPXORQ(Z8, Z8, Z8)
	VPXORQ(Z9, Z9, Z9)
	for i := range 8 {
		comp(i)
	}

	Label("norm")
	VSQRTPD(Z8, Z8)
	VDIVPD(Z8, Z13, Z12) // inv = 1/√s
	VMULPD(Z12, Z9, Z9)  // means = u·inv
	VMOVUPD(Z9, mem(RDX, 0))
	eachReg(scaleFull, "scaled")

	Label("scaled")
	ADDQ(R13, RDI)
	ADDQ(U8(64), RDX)
	SUBQ(U8(8), R9)
	JNZ(LabelRef("pass"))

	Label("done")
	VZEROUPPER()
	RET()
}

// acc adds coordinate j0+c (register x, θ at c·8(R8)) of one group to its
// sums in lane order: s = s + x·x, u = u + x·θ_j, each product rounded, as
// normaliseTo.
func acc(c int, x, s, u VecPhysical) {
	VMULPD(x, x, Z25)
	VADDPD(Z25, s, s)
	VBROADCASTSD(mem(R8, 8*c), Z24)
	VMULPD(Z24, x, Z26)
	VADDPD(Z26, u, u)
}

// group transposes coordinates j0…j0+7 (those below d: BX of them, mask
// K1) of the group whose block starts at DX and adds them to its sums s, u
// in increasing j; skip labels the end.
func group(s, u VecPhysical, skip string) {
	LEAQ(Mem{Base: RDX, Index: R12, Scale: 4}, R9)
	transpose.Block()
	for c, x := range transpose.Cols {
		if c > 0 {
			CMPQ(RBX, Imm(uint64(c)))
			JLE(LabelRef(skip))
		}
		acc(c, x, s, u)
	}
	Label(skip)
}

// finish sets inv = 1/√s for one group, stores it at off(SP) and the
// group's means u·inv at off(R15).
func finish(s, u VecPhysical, local Mem, off int) {
	VSQRTPD(s, s)
	VDIVPD(s, Z27, s)
	VMOVUPD(s, local.Offset(off))
	VMULPD(s, u, u)
	VMOVUPD(u, mem(R15, off))
}

// lanes writes normaliseLanesAVX512: normaliseBlocksGo for 32·n32 vectors
// of any dimension d, one vector per lane. A pass of 32 vectors (four groups
// of eight) takes eight coordinates at a time, transposes each group's 8×8
// block and adds coordinate j to the lanes' s and u in increasing j — in
// every lane the operations of normaliseTo in its order; the eight chains (s
// and u of four groups) keep the adder busy. Then inv = 1/√s, means = u·inv,
// and each vector, contiguous in acts, is scaled by its lane's inv eight
// components at a time.
//
// Registers: R10 the pass's first vector, SI theta, R15 means cursor, CX d,
// R12 S = 8d, R11 3S, R13 8S, R14 passes left, AX j0, BX coordinates of the
// block below d, R8 &theta[j0], DX, R9 block rows; Z16–Z23 s and u of the
// four groups, Z24–Z26 scratch, Z27 1; the 32 lanes' inv on the stack.
func lanes() {
	TEXT("normaliseLanesAVX512", NOSPLIT, "func(acts, theta, means []float64, d, n32 int)")
	inv := AllocLocal(256)
	Load(Param("acts").Base(), R10)
	Load(Param("theta").Base(), RSI)
	Load(Param("means").Base(), R15)
	Load(Param("d"), RCX)
	Load(Param("n32"), R14)
	MOVQ(RCX, R12)
	SHLQ(U8(3), R12)
	LEAQ(Mem{Base: R12, Index: R12, Scale: 2}, R11)
	MOVQ(R12, R13)
	SHLQ(U8(3), R13)
	VBROADCASTSD(one, Z27)
	transpose.Indices()
	TESTQ(R14, R14)
	JLE(LabelRef("ldone"))

	Label("lpass")
	sums := []VecPhysical{Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23}
	for _, z := range sums {
		VPXORQ(z, z, z)
	}
	XORQ(RAX, RAX)

	Label("lcoords")
	MOVQ(RCX, RBX)
	SUBQ(RAX, RBX) // coordinates left
	MOVQ(U32(0xff), RDX)
	BZHIQ(RBX, RDX, RDX)
	KMOVQ(RDX, K1)
	LEAQ(Mem{Base: RSI, Index: RAX, Scale: 8}, R8)
	LEAQ(Mem{Base: R10, Index: RAX, Scale: 8}, RDX)
	for g := range 4 {
		if g > 0 {
			ADDQ(R13, RDX)
		}
		group(sums[2*g], sums[2*g+1], fmt.Sprintf("lg%d", g))
	}
	ADDQ(U8(8), RAX)
	CMPQ(RAX, RCX)
	JLT(LabelRef("lcoords"))

	for g := range 4 {
		finish(sums[2*g], sums[2*g+1], inv, 64*g)
	}

	Comment("Scale vector a (at R10 + aS) by inv[a] (at 8a(SP)).")
	XORQ(R8, R8) // a
	MOVQ(R10, RDX)

	Label("lscale")
	VBROADCASTSD(inv.Idx(R8, 8), Z24)
	MOVQ(RDX, R9)
	MOVQ(RCX, RBX)

	Label("lscale8")
	CMPQ(RBX, U8(8))
	JLT(LabelRef("lscaletail"))
	VMULPD(mem(R9, 0), Z24, Z25)
	VMOVUPD(Z25, mem(R9, 0))
	ADDQ(U8(64), R9)
	SUBQ(U8(8), RBX)
	JMP(LabelRef("lscale8"))

	Label("lscaletail")
	TESTQ(RBX, RBX)
	JEQ(LabelRef("lscaled"))
	MOVQ(U32(0xff), RAX)
	BZHIQ(RBX, RAX, RAX)
	KMOVQ(RAX, K2)
	VMOVUPD_Z(mem(R9, 0), K2, Z25)
	VMULPD(Z25, Z24, Z25)
	VMOVUPD(Z25, K2, mem(R9, 0))

	Label("lscaled")
	ADDQ(R12, RDX)
	INCQ(R8)
	CMPQ(R8, U8(32))
	JLT(LabelRef("lscale"))

	MOVQ(RDX, R10) // the next pass (32 vectors on)
	ADDQ(U32(256), R15)
	DECQ(R14)
	JNZ(LabelRef("lpass"))

	Label("ldone")
	VZEROUPPER()
	RET()
}
