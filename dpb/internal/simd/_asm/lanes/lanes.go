// Command lanes writes kernel_lanes_amd64.s: scoreLanesAVX512, the scoring
// kernel that holds one action per AVX-512 lane.
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/dpbandits/dpbandits/dpb/internal/simd/_asm/internal/transpose"
)

const (
	// xtg is the frame's group stride: the transposed actions of group g (g
	// = 0, 1) at xtg·g + 64·j (coordinate j of its eight actions, j <
	// lanesMaxDim = 128) from R13, the frame's first 64-byte boundary.
	xtg = 8192
	// lead is the frame slot (above the aligned transposed actions) that
	// holds the rows the leading four-row blocks cover.
	lead = 16448
	// frame is the frame's size: two groups, 64 bytes of alignment, lead.
	frame = 16456
)

func main() {
	ConstraintExpr("amd64,!purego")
	scoreLanes()
	Generate()
}

func mem(base Register, disp int) Mem { return Mem{Base: base, Disp: disp} }

func idx(base Register, disp int, index Register, scale uint8) Mem {
	return Mem{Base: base, Disp: disp, Index: index, Scale: scale}
}

func zmm(i int) VecPhysical {
	return []VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15,
		Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}[i]
}

func ymm(i int) VecPhysical {
	return []VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7}[i]
}

func zero(from, n int) {
	for i := from; i < from+n; i++ {
		VPXORQ(zmm(i), zmm(i), zmm(i))
	}
}

// trans8 transposes the 8×8 block at DX (transpose.Block) and stores
// coordinate j0+c of its eight actions at 64c(R8).
func trans8() {
	transpose.Block()
	for c, z := range transpose.Cols {
		VMOVAPD(z, mem(R8, 64*c))
	}
}

// trans8Full is trans8 for a block of eight coordinates (no mask) with fewer
// shuffles: each register is loaded as two 256-bit halves, rows a and a+4
// (a load and an insert, which may issue on either FMA port), so that the
// unpacks and one VPERMT2PD stage (transpose.Pairs) finish the
// transposition (16 uops that need the shuffle port, against
// transpose.Block's 24). Rows a at DX + a·S (R11 = 3S, R9 = DX + 4S); uses
// Z0–Z15, Z28–Z29 (transpose.Indices).
func trans8Full() {
	rows := []struct {
		index Register
		scale uint8
	}{{nil, 0}, {R12, 1}, {R12, 2}, {R11, 1}}
	for h := range 2 {
		for a, r := range rows {
			VMOVUPD(idx(RDX, 32*h, r.index, r.scale), ymm(4*h+a))
			VINSERTF64X4(U8(1), idx(R9, 32*h, r.index, r.scale), zmm(4*h+a), zmm(4*h+a))
		}
	}
	transpose.Pairs()
	for c, z := range transpose.HalvesCols {
		VMOVAPD(z, mem(R8, 64*c))
	}
}

// fmaRow adds M_{i0+r, j} (broadcast in m) times coordinate j of the two
// groups (x0, x1) to row r's two accumulators w0, w1.
func fmaRow(x0, x1, m, w0, w1 VecPhysical) {
	VFMADD231PD(x0, m, w0)
	VFMADD231PD(x1, m, w1)
}

// loadX loads coordinate j of the two groups (xt cursor DX, plus off) into
// x0, x1.
func loadX(off int, x0, x1 VecPhysical) {
	VMOVAPD(mem(RDX, off), x0)
	VMOVAPD(mem(RDX, xtg+off), x1)
}

// fold folds row r's w (two groups) into its lane sums, held in registers:
// q = fma(w, w, q), s = fma(z_{i0+r}, w, s), z broadcast in zz. Row r's
// sums (r = i mod 4) are q_{r,g} in Z(14+2r+g) and s_{r,g} in Z(22+2r+g).
func fold(zz VecPhysical, w0, w1 VecPhysical, r int) {
	q0, q1, s0, s1 := zmm(14+2*r), zmm(15+2*r), zmm(22+2*r), zmm(23+2*r)
	VFMADD231PD(w0, w0, q0)
	VFMADD231PD(w1, w1, q1)
	VFMADD231PD(w0, zz, s0)
	VFMADD231PD(w1, zz, s1)
}

// m6 is the register of M_{i0+r, j} (then z_{i0+r}) in a six-row block:
// Z30 and Z31 alternately.
func m6(r int) VecPhysical { return zmm(30 + r%2) }

// col6 adds column j of a six-row block (x_j at xoff(DX), M_{i0..i0+5, j}
// from the address m on) to its twelve chains (row r, group g in Z(2r+g)).
func col6(xoff int, m Mem) {
	loadX(xoff, Z12, Z13)
	for r := range 6 {
		VBROADCASTSD(m.Offset(8*r), m6(r))
		fmaRow(Z12, Z13, m6(r), zmm(2*r), zmm(2*r+1))
	}
}

// triangle writes the last columns of a row block of n rows (columns i0…
// i0+n−1, where row r has M_{i0+r, j} for j ≤ i0+r only): column t serves
// rows t…n−1, and after column t the block goes to done when i0+t+1 = d.
// cols writes column t.
func triangle(n int, done string, cols func(t int)) {
	for t := range n {
		if t > 0 {
			LEAQ(mem(RAX, t), R11)
			CMPQ(R11, RCX)
			JGE(LabelRef(done))
			ADDQ(U8(64), RDX)
			ADDQ(RBX, R8)
		}
		cols(t)
	}
}

// prefetch prefetches n lines of the next pass's actions from R9 on.
func prefetch(n int) {
	for l := range n {
		PREFETCHT0(mem(R9, 64*l))
	}
	ADDQ(U32(uint64(64*n)), R9)
}

// score writes one group's scores at off(R15): fma(β, √((q0+q1)+(q2+q3)),
// (s0+s1)+(s2+s3)).
func score(g int, off int) {
	q := func(r int) VecPhysical { return zmm(14 + 2*r + g) }
	s := func(r int) VecPhysical { return zmm(22 + 2*r + g) }
	VADDPD(q(1), q(0), Z10)
	VADDPD(q(3), q(2), Z11)
	VADDPD(Z11, Z10, Z10)
	VSQRTPD(Z10, Z10)
	VADDPD(s(1), s(0), Z12)
	VADDPD(s(3), s(2), Z13)
	VADDPD(Z13, Z12, Z12)
	b, err := Param("beta").Resolve()
	if err != nil {
		panic(err)
	}
	VBROADCASTSD(b.Addr, Z31)
	VFMADD231PD(Z10, Z31, Z12)
	VMOVUPD(Z12, mem(R15, off))
}

// scoreLanes writes scoreLanesAVX512(mt *float64, dp int, zp *float64, d
// int, x *float64, n16 int, beta float64, scores *float64): scoreBlocksGo
// for n16 passes of 16 actions, one action per lane. A pass transposes its
// two groups of eight actions into the frame (coordinate j of a group is
// one register; blocks of eight coordinates by trans8Full, the last partial
// one by trans8), then for each row block runs the chains w_i of the two
// groups — each lane the chain fma(M_ij, x_j, w) over j in increasing
// order, as quadLanes — and folds them into the lane sums q_r, s_r (r = i
// mod 4) in row order. The terms with i < j < i0+4, whose M_ij = 0, are
// skipped: for finite actions they leave w unchanged (w is never −0), so
// the bits are those of scoreBlocksGo.
//
// Row blocks: first four-row blocks (eight chains) over the first dp mod 12
// rows, where the triangle gives them at most eight columns, then six-row
// blocks (twelve chains) in pairs, i0 ≡ 0 and i0 ≡ 2 mod 4, to dp. (With
// the four-row blocks last, at d = 64 the one of rows 60–63 would run 64
// columns of eight chains; alternated call by call with that order, K =
// 4096, the kernel's fastest call is 0.5–0.7 % quicker at d = 16 and 64.)
// Per column a six-row block broadcasts six M_ij and loads two x_j for
// twelve FMAs, two columns an iteration. Eight chains are exactly the FMA
// latency times its two ports, so any cycle an FMA loses to another uop is
// lost for good: a loop of eight chains ran at ≈ 81 % of the peak, one of
// twelve at ≈ 97 % (the kernel alone at d = 64, K = 512: 1.27 → 1.19× the
// FMA bound, paired; Intel Xeon family 6 model 207). The sixteen lane sums
// stay in registers (with four groups a pass they would live in the frame,
// and each row block's fold would take 32 loads and 32 stores). While a
// pass computes, the next pass's actions are prefetched, two lines a row.
// Requires AVX-512F, AVX-512VL and BMI2, and d ≤ lanesMaxDim.
//
// Registers: SI mt, BX row stride of mt in bytes, DI zp, CX d, R10 the
// pass's first action, R12 S = 8d, R14 passes left, R15 scores cursor, R13
// the frame (aligned), R9 prefetch cursor; AX i0, DX xt cursor, R8 mt
// cursor, R11 count. Z14–Z21 q_{r,g} (Z(14+2r+g)), Z22–Z29 s_{r,g}
// (Z(22+2r+g)). Six-row blocks: Z0–Z11 w (row r, group g in Z(2r+g)),
// Z12–Z13 x_j of the groups, Z30–Z31 M_{i0+r, j} (then z_{i0+r}),
// alternately. Four-row blocks: Z0–Z7 w, Z8–Z9 x_j, Z10–Z13 M_{i0+r, j}
// (then z_{i0+r}). Z31 β at the end; the transposition uses Z0–Z15 and
// Z28–Z31 before the sums are zeroed.
func scoreLanes() {
	TEXT("scoreLanesAVX512", 0, "func(mt *float64, dp int, zp *float64, d int, x *float64, n16 int, beta float64, scores *float64)")
	local := AllocLocal(frame)
	Load(Param("mt"), RSI)
	Load(Param("dp"), RBX)
	SHLQ(U8(3), RBX)
	Load(Param("zp"), RDI)
	Load(Param("d"), RCX)
	Load(Param("x"), R10)
	Load(Param("n16"), R14)
	Load(Param("scores"), R15)
	MOVQ(RCX, R12)
	SHLQ(U8(3), R12)
	LEAQ(local.Offset(63), R13)
	ANDQ(I8(-64), R13)

	Label("pass")
	TESTQ(R14, R14)
	JEQ(LabelRef("ret"))
	transpose.Indices()
	LEAQ(idx(R12, 0, R12, 2), R11)
	MOVQ(R10, RSI)
	MOVQ(R13, RDI)

	Label("group")
	MOVQ(RSI, RDX)
	MOVQ(RDI, R8)
	MOVQ(RCX, RAX)

	Label("coords")
	LEAQ(idx(RDX, 0, R12, 4), R9)
	CMPQ(RAX, U8(8))
	JLT(LabelRef("partial"))
	trans8Full()
	JMP(LabelRef("cnext"))

	Label("partial")
	MOVQ(U32(0xff), R9)
	BZHIQ(RAX, R9, R9)
	KMOVQ(R9, K1)
	LEAQ(idx(RDX, 0, R12, 4), R9)
	trans8()

	Label("cnext")
	ADDQ(U8(64), RDX)
	ADDQ(U32(512), R8)
	SUBQ(U8(8), RAX)
	JGT(LabelRef("coords"))

	LEAQ(idx(RSI, 0, R12, 8), RSI)
	ADDQ(U32(xtg), RDI)
	LEAQ(mem(R13, 2*xtg), R9)
	CMPQ(RDI, R9)
	JLT(LabelRef("group"))
	Load(Param("mt"), RSI)
	Load(Param("zp"), RDI)
	zero(14, 16)
	MOVQ(R12, R9)
	SHLQ(U8(4), R9)
	ADDQ(R10, R9) // prefetch cursor: the next pass (16S on)
	XORQ(RAX, RAX)

	Comment(
		"Four-row blocks first, dp mod 12 rows of them (0, 4 or 8), where the",
		"triangle leaves them a few columns; then six-row blocks in pairs (i0",
		"≡ 0 and 2 mod 4) to d. The frame slot lead holds dp mod 12.",
	)
	LEAQ(mem(RCX, 3), R11)
	ANDQ(I8(-4), R11)

	Label("lead")
	CMPQ(R11, U8(12))
	JLT(LabelRef("leadset"))
	SUBQ(U8(12), R11)
	JMP(LabelRef("lead"))

	Label("leadset")
	MOVQ(R11, local.Offset(lead))

	Label("blocks")
	CMPQ(RAX, local.Offset(lead))
	JLT(LabelRef("rows"))
	CMPQ(RAX, RCX)
	JGE(LabelRef("scored"))

	// A six-row block.
	prefetch(12)
	zero(0, 12)
	LEAQ(idx(RSI, 0, RAX, 8), R8)
	MOVQ(R13, RDX)
	MOVQ(RAX, R11)
	TESTQ(R11, R11)
	JEQ(LabelRef("tri6"))

	TESTQ(U32(1), R11)
	JEQ(LabelRef("pairs6"))
	col6(0, mem(R8, 0))
	ADDQ(U8(64), RDX)
	ADDQ(RBX, R8)
	DECQ(R11)
	JEQ(LabelRef("tri6"))

	Label("pairs6")
	col6(0, mem(R8, 0))
	col6(64, idx(R8, 0, RBX, 1))
	ADDQ(U32(128), RDX)
	LEAQ(idx(R8, 0, RBX, 2), R8)
	SUBQ(U8(2), R11)
	JNZ(LabelRef("pairs6"))

	Label("tri6")
	triangle(6, "fold6", func(t int) {
		loadX(0, Z12, Z13)
		for r := t; r < 6; r++ {
			VBROADCASTSD(mem(R8, 8*r), m6(r))
			fmaRow(Z12, Z13, m6(r), zmm(2*r), zmm(2*r+1))
		}
	})

	// Row r of a six-row block goes to the sums of index (i0+r) mod 4.
	for _, b := range []struct {
		label string
		i0    int // i0 mod 4
	}{{"fold6", 0}, {"fold6b", 2}} {
		Label(b.label)
		if b.i0 == 0 {
			TESTQ(U32(2), RAX)
			JNZ(LabelRef("fold6b"))
		}
		for r := range 6 {
			VBROADCASTSD(idx(RDI, 8*r, RAX, 8), m6(r))
			fold(m6(r), zmm(2*r), zmm(2*r+1), (b.i0+r)%4)
		}
		ADDQ(U8(6), RAX)
		JMP(LabelRef("blocks"))
	}

	// A four-row block.
	Label("rows")
	prefetch(8)
	zero(0, 8)
	LEAQ(idx(RSI, 0, RAX, 8), R8)
	MOVQ(R13, RDX)
	MOVQ(RAX, R11)
	TESTQ(R11, R11)
	JEQ(LabelRef("tri"))

	// col4 writes column t of a four-row block (rows t…3).
	col4 := func(t int) {
		loadX(0, Z8, Z9)
		for r := t; r < 4; r++ {
			VBROADCASTSD(mem(R8, 8*r), zmm(10+r))
		}
		for r := t; r < 4; r++ {
			fmaRow(Z8, Z9, zmm(10+r), zmm(2*r), zmm(2*r+1))
		}
	}
	Label("full")
	col4(0)
	ADDQ(U8(64), RDX)
	ADDQ(RBX, R8)
	DECQ(R11)
	JNZ(LabelRef("full"))

	Label("tri")
	triangle(4, "fold", col4)

	Label("fold")
	for r := range 4 {
		VBROADCASTSD(idx(RDI, 8*r, RAX, 8), zmm(10+r))
	}
	for r := range 4 {
		fold(zmm(10+r), zmm(2*r), zmm(2*r+1), r)
	}
	ADDQ(U8(4), RAX)
	JMP(LabelRef("blocks"))

	Label("scored")
	score(0, 0)
	score(1, 64)
	ADDQ(U32(128), R15)
	MOVQ(R12, R9)
	SHLQ(U8(4), R9)
	ADDQ(R9, R10)
	DECQ(R14)
	JMP(LabelRef("pass"))

	Label("ret")
	VZEROUPPER()
	RET()
}
