//go:build amd64 && !purego

#include "textflag.h"

#include "transpose_amd64.h"

DATA ·cholPanelOne<>+0(SB)/8, $1.0
GLOBL ·cholPanelOne<>(SB), RODATA|NOPTR, $8

// UPD subtracts from column c′'s accumulator dst the product of column c's
// finished entries (src) and L_{j0+c′, j0+c}, broadcast from BX + off
// (BX = &lt[(j0+c)·s + j0], off = 8c′): rounded product, then subtraction.
#define UPD(off, src, dst) \
	VMULPD.BCST off(BX), src, Z9; \
	VSUBPD Z9, dst, dst

// UPDSc subtracts column c's terms from the panel's later columns c′ = c+1…7.
#define UPDS0 \
	UPD(8, Z0, Z1); \
	UPD(16, Z0, Z2); \
	UPD(24, Z0, Z3); \
	UPD(32, Z0, Z4); \
	UPD(40, Z0, Z5); \
	UPD(48, Z0, Z6); \
	UPD(56, Z0, Z7)

#define UPDS1 \
	UPD(16, Z1, Z2); \
	UPD(24, Z1, Z3); \
	UPD(32, Z1, Z4); \
	UPD(40, Z1, Z5); \
	UPD(48, Z1, Z6); \
	UPD(56, Z1, Z7)

#define UPDS2 \
	UPD(24, Z2, Z3); \
	UPD(32, Z2, Z4); \
	UPD(40, Z2, Z5); \
	UPD(48, Z2, Z6); \
	UPD(56, Z2, Z7)

#define UPDS3 \
	UPD(32, Z3, Z4); \
	UPD(40, Z3, Z5); \
	UPD(48, Z3, Z6); \
	UPD(56, Z3, Z7)

#define UPDS4 \
	UPD(40, Z4, Z5); \
	UPD(48, Z4, Z6); \
	UPD(56, Z4, Z7)

#define UPDS5 \
	UPD(48, Z5, Z6); \
	UPD(56, Z5, Z7)

#define UPDS6 \
	UPD(56, Z6, Z7)

#define UPDS7

// DIAGPIVOT finishes column j = j0+c of the panel's diagonal block (acc):
// s = lane c, false unless s > 0, L_jj = √s, inv = 1/L_jj into c[j], the
// lanes scaled by inv and lane c set to L_jj; stored at DX, DX to the next
// column.
#define DIAGPIVOT(c, acc) \
	VALIGNQ $c, acc, acc, Z18; \
	VUCOMISD X20, X18; \
	JBE  fail; \
	VSQRTSD X18, X18, X18; \
	VDIVSD X18, X21, X19; \
	VMOVSD X19, (c*8)(SI)(R8*8); \
	VBROADCASTSD X19, Z17; \
	VMULPD Z17, acc, acc; \
	MOVL $(1<<c), AX; \
	KMOVW AX, K2; \
	VBROADCASTSD X18, K2, acc; \
	VMOVUPD acc, (DX); \
	ADDQ R12, DX

// OFFSCALE finishes column j = j0+c of a block below the diagonal: its
// lanes times inv = c[j]; stored at DX, DX to the next column.
#define OFFSCALE(c, acc) \
	VBROADCASTSD (c*8)(SI)(R8*8), Z17; \
	VMULPD Z17, acc, acc; \
	VMOVUPD acc, (DX); \
	ADDQ R12, DX

// BLOCKMASK sets K1 to the entries of row R10+l of block (R10, R8) that
// belong to the lower triangle: the columns below d (R14), only those up
// to the row in a diagonal block, none for a row ≥ d. R15 = 0xff, R9 = 0;
// R11 scratch.
#define BLOCKMASK(l) \
	MOVL R14, AX; \
	MOVL $((2<<l)-1), R11; \
	CMPQ R10, R8; \
	CMOVLNE R15, R11; \
	ANDL R11, AX; \
	LEAQ l(R10), R11; \
	CMPQ R11, CX; \
	CMOVLGE R9, AX; \
	KMOVB AX, K1

// BLOCKS sets up the walk over the blocks of the lower triangle: a (SI), lt
// (DI), d (CX) and s from the arguments, R12 = 8d, R13 = 8s, R8 = 0.
#define BLOCKS \
	MOVQ a+0(FP), SI; \
	MOVQ lt+8(FP), DI; \
	MOVQ d+16(FP), CX; \
	MOVQ s+24(FP), R13; \
	SHLQ $3, R13; \
	MOVQ CX, R12; \
	SHLQ $3, R12; \
	MOVL $0xff, R15; \
	XORL R9, R9; \
	TRANSPOSE8INDICES; \
	XORQ R8, R8

// COLBLOCK sets R14 to the mask of the columns R8…R8+7 below d and R10 to
// the diagonal block's first row.
#define COLBLOCK \
	MOVQ CX, DX; \
	SUBQ R8, DX; \
	MOVQ $8, AX; \
	CMPQ DX, AX; \
	CMOVQGT AX, DX; \
	MOVL $1, AX; \
	SHLXL DX, AX, AX; \
	DECL AX; \
	MOVL AX, R14; \
	MOVQ R8, R10

// BLOCKPTRS sets BX = &a[R10·d + R8] and DX = &lt[R8·s + R10].
#define BLOCKPTRS \
	MOVQ R10, BX; \
	IMULQ R12, BX; \
	ADDQ SI, BX; \
	LEAQ (BX)(R8*8), BX; \
	MOVQ R8, DX; \
	IMULQ R13, DX; \
	ADDQ DI, DX; \
	LEAQ (DX)(R10*8), DX

// func cholPanelsAVX512(lt, c *float64, s, d int) (ok bool)
//
// linalg.Cholesky in panels of eight columns, on the lower triangle of A
// held column-major in lt (lt[j·s + i] = A_ij for i ≥ j; s, the column
// stride, is d rounded up to 8, rows d…s−1 zero), eight rows per vector
// (a lane is a row): for the panel of columns j0…j0+7 and each block of
// eight rows from j0 down, the block's eight columns are loaded into
// Z0–Z7, every term k < j0 is subtracted in increasing k (a_ij −= L_ik·L_jk,
// the product rounded, no fused multiply-add: the eight columns are eight
// independent chains), then the panel's own columns in order: in the
// diagonal block L_jj = √s (false unless s > 0) and inv = 1/L_jj (kept in
// c[j]), in every block the column times inv, then its terms subtracted
// from the panel's later columns. Every entry sees its terms in the order
// k = 0, 1, …, j−1, then the same scaling, as in linalg.Cholesky, so the
// factor (lt[j·s + i], i ≥ j) has the same bits. c holds d floats.
// Requires AVX-512F.
//
// Registers: DI lt, SI c, R12 8s, CX d, R8 j0, R9 the panel's columns
// below d (≤ 8), R10 the block's first row, R11 k, R13 &lt[k·s + row],
// R14 &lt[k·s + j0], DX the column being stored, BX &lt[(j0+c)·s + j0],
// AX scratch; Z0–Z7 the block's columns, Z8 column k, Z9–Z16 products,
// Z17 inv, X18 s and L_jj, X19 inv, X20 0, X21 1.
TEXT ·cholPanelsAVX512(SB), NOSPLIT, $0-33
	MOVQ lt+0(FP), DI
	MOVQ c+8(FP), SI
	MOVQ s+16(FP), R12
	SHLQ $3, R12
	MOVQ d+24(FP), CX
	VXORPD X20, X20, X20
	VMOVSD ·cholPanelOne<>(SB), X21
	XORQ R8, R8

panel:
	MOVQ CX, R9
	SUBQ R8, R9
	CMPQ R9, $8
	JLE  cols
	MOVQ $8, R9

cols:
	MOVQ R8, R10

tile:
	// The block's columns j0…j0+7, rows R10…R10+7.
	MOVQ R8, DX
	IMULQ R12, DX
	ADDQ DI, DX
	LEAQ (DX)(R10*8), DX        // &lt[j0·s + row]
	MOVQ DX, AX
	VMOVUPD (AX), Z0
	ADDQ R12, AX
	VMOVUPD (AX), Z1
	ADDQ R12, AX
	VMOVUPD (AX), Z2
	ADDQ R12, AX
	VMOVUPD (AX), Z3
	ADDQ R12, AX
	VMOVUPD (AX), Z4
	ADDQ R12, AX
	VMOVUPD (AX), Z5
	ADDQ R12, AX
	VMOVUPD (AX), Z6
	ADDQ R12, AX
	VMOVUPD (AX), Z7

	// Terms k < j0, in increasing k.
	LEAQ (DI)(R10*8), R13
	LEAQ (DI)(R8*8), R14
	XORQ R11, R11

kloop:
	CMPQ R11, R8
	JGE  own
	VMOVUPD (R13), Z8
	VMULPD.BCST 0(R14), Z8, Z9
	VSUBPD Z9, Z0, Z0
	VMULPD.BCST 8(R14), Z8, Z10
	VSUBPD Z10, Z1, Z1
	VMULPD.BCST 16(R14), Z8, Z11
	VSUBPD Z11, Z2, Z2
	VMULPD.BCST 24(R14), Z8, Z12
	VSUBPD Z12, Z3, Z3
	VMULPD.BCST 32(R14), Z8, Z13
	VSUBPD Z13, Z4, Z4
	VMULPD.BCST 40(R14), Z8, Z14
	VSUBPD Z14, Z5, Z5
	VMULPD.BCST 48(R14), Z8, Z15
	VSUBPD Z15, Z6, Z6
	VMULPD.BCST 56(R14), Z8, Z16
	VSUBPD Z16, Z7, Z7
	ADDQ R12, R13
	ADDQ R12, R14
	INCQ R11
	JMP  kloop

own:
	// The panel's own columns, in order; DX stores column j0+c.
	MOVQ R8, BX
	IMULQ R12, BX
	ADDQ DI, BX
	LEAQ (BX)(R8*8), BX         // &lt[j0·s + j0]
	CMPQ R10, R8
	JNE  offdiag

	CMPQ R9, $0
	JLE  tiledone
	DIAGPIVOT(0, Z0)
	UPDS0
	ADDQ R12, BX
	CMPQ R9, $1
	JLE  tiledone
	DIAGPIVOT(1, Z1)
	UPDS1
	ADDQ R12, BX
	CMPQ R9, $2
	JLE  tiledone
	DIAGPIVOT(2, Z2)
	UPDS2
	ADDQ R12, BX
	CMPQ R9, $3
	JLE  tiledone
	DIAGPIVOT(3, Z3)
	UPDS3
	ADDQ R12, BX
	CMPQ R9, $4
	JLE  tiledone
	DIAGPIVOT(4, Z4)
	UPDS4
	ADDQ R12, BX
	CMPQ R9, $5
	JLE  tiledone
	DIAGPIVOT(5, Z5)
	UPDS5
	ADDQ R12, BX
	CMPQ R9, $6
	JLE  tiledone
	DIAGPIVOT(6, Z6)
	UPDS6
	ADDQ R12, BX
	CMPQ R9, $7
	JLE  tiledone
	DIAGPIVOT(7, Z7)
	UPDS7
	ADDQ R12, BX
	JMP  tiledone

offdiag:
	CMPQ R9, $0
	JLE  tiledone
	OFFSCALE(0, Z0)
	UPDS0
	ADDQ R12, BX
	CMPQ R9, $1
	JLE  tiledone
	OFFSCALE(1, Z1)
	UPDS1
	ADDQ R12, BX
	CMPQ R9, $2
	JLE  tiledone
	OFFSCALE(2, Z2)
	UPDS2
	ADDQ R12, BX
	CMPQ R9, $3
	JLE  tiledone
	OFFSCALE(3, Z3)
	UPDS3
	ADDQ R12, BX
	CMPQ R9, $4
	JLE  tiledone
	OFFSCALE(4, Z4)
	UPDS4
	ADDQ R12, BX
	CMPQ R9, $5
	JLE  tiledone
	OFFSCALE(5, Z5)
	UPDS5
	ADDQ R12, BX
	CMPQ R9, $6
	JLE  tiledone
	OFFSCALE(6, Z6)
	UPDS6
	ADDQ R12, BX
	CMPQ R9, $7
	JLE  tiledone
	OFFSCALE(7, Z7)
	UPDS7
	ADDQ R12, BX

tiledone:
	ADDQ $8, R10
	CMPQ R10, CX
	JLT  tile
	ADDQ $8, R8
	CMPQ R8, CX
	JLT  panel
	VZEROUPPER
	MOVB $1, ok+32(FP)
	RET

fail:
	VZEROUPPER
	MOVB $0, ok+32(FP)
	RET

// func cholPackAVX512(a, lt *float64, d, s int)
//
// Copies the lower triangle of the d×d row-major a into lt column-major
// (lt[j·s + i] = a[i·d + j] for i ≥ j), an 8×8 block at a time (the rows
// loaded under BLOCKMASK, TRANSPOSE8REGS, the columns stored whole): the
// rest of every block of columns j0…j0+7 from row j0 down is zero (the
// entries above the diagonal, the rows and columns from d to s). Entries
// of a outside the lower triangle are not read. Requires AVX-512F and BMI2.
//
// Registers: BLOCKS, COLBLOCK, BLOCKPTRS; Z0–Z15 and Z28–Z31 the
// transposition.
TEXT ·cholPackAVX512(SB), NOSPLIT, $0-32
	BLOCKS

pcol:
	CMPQ R8, CX
	JGE  pdone
	COLBLOCK

prow:
	CMPQ R10, CX
	JGE  pnext
	BLOCKPTRS
	BLOCKMASK(0)
	VMOVUPD.Z (BX), K1, Z0
	ADDQ R12, BX
	BLOCKMASK(1)
	VMOVUPD.Z (BX), K1, Z1
	ADDQ R12, BX
	BLOCKMASK(2)
	VMOVUPD.Z (BX), K1, Z2
	ADDQ R12, BX
	BLOCKMASK(3)
	VMOVUPD.Z (BX), K1, Z3
	ADDQ R12, BX
	BLOCKMASK(4)
	VMOVUPD.Z (BX), K1, Z4
	ADDQ R12, BX
	BLOCKMASK(5)
	VMOVUPD.Z (BX), K1, Z5
	ADDQ R12, BX
	BLOCKMASK(6)
	VMOVUPD.Z (BX), K1, Z6
	ADDQ R12, BX
	BLOCKMASK(7)
	VMOVUPD.Z (BX), K1, Z7
	ADDQ R12, BX
	TRANSPOSE8REGS
	VMOVUPD Z4, (DX)
	ADDQ R13, DX
	VMOVUPD Z6, (DX)
	ADDQ R13, DX
	VMOVUPD Z5, (DX)
	ADDQ R13, DX
	VMOVUPD Z7, (DX)
	ADDQ R13, DX
	VMOVUPD Z0, (DX)
	ADDQ R13, DX
	VMOVUPD Z1, (DX)
	ADDQ R13, DX
	VMOVUPD Z8, (DX)
	ADDQ R13, DX
	VMOVUPD Z9, (DX)
	ADDQ $8, R10
	JMP  prow

pnext:
	ADDQ $8, R8
	JMP  pcol

pdone:
	VZEROUPPER
	RET

// func cholUnpackAVX512(a, lt *float64, d, s int)
//
// The inverse of cholPackAVX512: the lower triangle of a from lt, an 8×8
// block at a time (the columns loaded whole, TRANSPOSE8REGS, the rows
// stored under BLOCKMASK); the rest of a is not written. Requires AVX-512F
// and BMI2.
TEXT ·cholUnpackAVX512(SB), NOSPLIT, $0-32
	BLOCKS

ucol:
	CMPQ R8, CX
	JGE  udone
	COLBLOCK

urow:
	CMPQ R10, CX
	JGE  unext
	BLOCKPTRS
	VMOVUPD (DX), Z0
	ADDQ R13, DX
	VMOVUPD (DX), Z1
	ADDQ R13, DX
	VMOVUPD (DX), Z2
	ADDQ R13, DX
	VMOVUPD (DX), Z3
	ADDQ R13, DX
	VMOVUPD (DX), Z4
	ADDQ R13, DX
	VMOVUPD (DX), Z5
	ADDQ R13, DX
	VMOVUPD (DX), Z6
	ADDQ R13, DX
	VMOVUPD (DX), Z7
	TRANSPOSE8REGS
	BLOCKMASK(0)
	VMOVUPD Z4, K1, (BX)
	ADDQ R12, BX
	BLOCKMASK(1)
	VMOVUPD Z6, K1, (BX)
	ADDQ R12, BX
	BLOCKMASK(2)
	VMOVUPD Z5, K1, (BX)
	ADDQ R12, BX
	BLOCKMASK(3)
	VMOVUPD Z7, K1, (BX)
	ADDQ R12, BX
	BLOCKMASK(4)
	VMOVUPD Z0, K1, (BX)
	ADDQ R12, BX
	BLOCKMASK(5)
	VMOVUPD Z1, K1, (BX)
	ADDQ R12, BX
	BLOCKMASK(6)
	VMOVUPD Z8, K1, (BX)
	ADDQ R12, BX
	BLOCKMASK(7)
	VMOVUPD Z9, K1, (BX)
	ADDQ R12, BX
	ADDQ $8, R10
	JMP  urow

unext:
	ADDQ $8, R8
	JMP  ucol

udone:
	VZEROUPPER
	RET
