//go:build amd64 && !purego

#include "textflag.h"

#include "transpose_amd64.h"

// BROW(a, zr) loads row j = j0 + a of A's 8×8 block (R9 = j0, R8 = l0) into
// zr: its entries A_jl, l = l0…min(l0+7, j−1), from off at element R11 (row
// j at j(j−1)/2), the other lanes 0 (none for j ≥ n), and moves R11 to row
// j + 1. R12 = 0xff, R13 = 0.
#define BROW(a, zr) \
	LEAQ      a(R9), AX; \
	MOVQ      AX, DX; \
	SUBQ      R8, DX; \
	CMPQ      AX, CX; \
	CMOVQGE   R13, DX; \
	BZHIQ     DX, R12, DX; \
	KMOVB     DX, K1; \
	VMOVUPD.Z (SI)(R11*8), K1, zr; \
	ADDQ      AX, R11

// BCOL(c, zr) stores column l = l0 + c of the block (zr, rows j0…j0+7 in the
// lanes) at col[l·np + j0] in the rows j > l below n: R14 holds the rows
// below n, and R15 = j0 − l0 is 0 in the diagonal block, where only the
// rows after c are below the diagonal; nothing for l ≥ n.
#define BCOL(c, zr) \
	MOVL    $(0xff & (0xff << (c+1))), DX; \
	TESTQ   R15, R15; \
	CMOVLNE R12, DX; \
	ANDL    R14, DX; \
	LEAQ    c(R8), AX; \
	CMPQ    AX, CX; \
	CMOVLGE R13, DX; \
	KMOVB   DX, K2; \
	IMULQ   BX, AX; \
	ADDQ    DI, AX; \
	VMOVUPD zr, K2, (AX)(R9*8)

// func bartlettColumnsAVX512(col, off, diag *float64, n, np int)
//
// bartlettColumns in 8×8 blocks: for each block of A's lower triangle (rows
// j0…j0+7, columns l0…l0+7, j0 ≥ l0), the rows loaded from off under masks
// (the entries below the diagonal, rows below n), transposed
// (TRANSPOSE8REGS), and the columns stored under masks (rows j > l below n,
// columns below n), so that nothing else of col is written; then the
// diagonal from diag. A copy, so the same values. Requires AVX-512F and
// BMI2.
//
// Registers: DI col, SI off, R10 diag, CX n, BX 8·np, R8 l0, R9 j0, R11
// the element of off where row j starts plus l0, R12 0xff, R13 0, R14 the
// block's rows below n, R15 j0 − l0, AX and DX scratch; Z0–Z15 and
// Z28–Z31 the transposition.
TEXT ·BartlettColumnsAVX512(SB), NOSPLIT, $0-40
	MOVQ col+0(FP), DI
	MOVQ off+8(FP), SI
	MOVQ diag+16(FP), R10
	MOVQ n+24(FP), CX
	MOVQ np+32(FP), BX
	SHLQ $3, BX
	MOVL $0xff, R12
	XORQ R13, R13
	TRANSPOSE8INDICES
	XORQ R8, R8

lblk:
	CMPQ R8, CX
	JGE  diag
	MOVQ R8, R9

jblk:
	CMPQ  R9, CX
	JGE   lnext
	LEAQ  -1(R9), R11
	IMULQ R9, R11
	SHRQ  $1, R11
	ADDQ  R8, R11            // row j0 of off, column l0
	MOVQ  CX, AX
	SUBQ  R9, AX
	BZHIQ AX, R12, R14       // rows below n
	MOVQ  R9, R15
	SUBQ  R8, R15            // 0 in the diagonal block
	BROW(0, Z0)
	BROW(1, Z1)
	BROW(2, Z2)
	BROW(3, Z3)
	BROW(4, Z4)
	BROW(5, Z5)
	BROW(6, Z6)
	BROW(7, Z7)
	TRANSPOSE8REGS
	BCOL(0, Z4)
	BCOL(1, Z6)
	BCOL(2, Z5)
	BCOL(3, Z7)
	BCOL(4, Z0)
	BCOL(5, Z1)
	BCOL(6, Z8)
	BCOL(7, Z9)
	ADDQ  $8, R9
	JMP   jblk

lnext:
	ADDQ $8, R8
	JMP  lblk

diag:
	XORQ AX, AX
	MOVQ DI, DX

dloop:
	CMPQ   AX, CX
	JGE    done
	VMOVSD (R10)(AX*8), X0
	VMOVSD X0, (DX)(AX*8)
	ADDQ   BX, DX
	INCQ   AX
	JMP    dloop

done:
	VZEROUPPER
	RET
