//go:build amd64 && !purego

#include "textflag.h"

// SUMV sets Z0 to (a + b) + c, or a + c when b is nil (R13 = 0), over the
// lanes of K1 (the others read as 0) at element offset R14 of each source.
#define SUMV \
	VMOVUPD.Z (SI)(R14*8), K1, Z0; \
	TESTQ     R13, R13; \
	JEQ       3(PC); \
	VMOVUPD.Z (DX)(R14*8), K1, Z1; \
	VADDPD    Z1, Z0, Z0; \
	VMOVUPD.Z (R9)(R14*8), K1, Z2; \
	VADDPD    Z2, Z0, Z0

// func treeLTAVX512(lt *float64, s int, a, b, c *float64, d int, shift float64, u *float64)
//
// TreeRegularizer.statsLT's copy from the tree's parts in one pass: packed
// row j of the release, (a + b) + c entry by entry (TreeSum.SumTo's vecAdd3;
// a + c, vecAdd's, when b is nil), goes to column j of lt (stride s) from
// row j on, eight entries a vector with a masked tail; then lt[j·s + j]
// gets the shift added (the unpacking's row[0] + shift) and u[j] the row's
// last entry; rows j rounded down to 8 up to j, and d up to s, are zeroed;
// columns d…s−1 are zero from their block's first row. The same operations
// as SumTo followed by statsLT's loop, so the same bits. Requires AVX-512F
// and BMI2.
//
// Registers: DI &lt[j·s], R8 8s, SI, DX, R9 the packed row j of a, b, c
// (DX unused and R13 = 0 when b is nil), CX d, R10 j, R11 entries left in
// the row, R14 the row's element offset, R12 &lt[j·s + j + t], BX u, AX and
// R15 scratch; X3 shift.
TEXT ·treeLTAVX512(SB), NOSPLIT, $0-64
	MOVQ     lt+0(FP), DI
	MOVQ     s+8(FP), R8
	SHLQ     $3, R8
	MOVQ     a+16(FP), SI
	MOVQ     b+24(FP), DX
	MOVQ     DX, R13
	MOVQ     c+32(FP), R9
	MOVQ     d+40(FP), CX
	VMOVSD   shift+48(FP), X3
	MOVQ     u+56(FP), BX
	VPXORQ   Z7, Z7, Z7
	XORQ     R10, R10

col:
	CMPQ R10, CX
	JGE  pad
	// rows j &^ 7 … j−1 of column j: zero.
	MOVQ  R10, AX
	ANDQ  $7, AX
	MOVL  $0xff, R15
	BZHIQ AX, R15, R15
	KMOVB R15, K1
	MOVQ  R10, AX
	ANDQ  $-8, AX
	VMOVUPD Z7, K1, (DI)(AX*8)
	// rows j … d−1: the packed row's first d − j entries.
	LEAQ (DI)(R10*8), R12
	MOVQ CX, R11
	SUBQ R10, R11
	XORQ R14, R14

vec:
	MOVL  $0xff, R15
	BZHIQ R11, R15, R15
	KMOVB R15, K1
	SUMV
	VMOVUPD Z0, K1, (R12)(R14*8)
	ADDQ  $8, R14
	SUBQ  $8, R11
	JGT   vec

	// The diagonal plus the shift, then u[j] = the row's entry d − j.
	VMOVSD (DI)(R10*8), X0
	VADDSD X3, X0, X0
	VMOVSD X0, (DI)(R10*8)
	MOVQ   CX, R14
	SUBQ   R10, R14
	MOVL   $1, R15
	KMOVB  R15, K1
	SUMV
	VMOVSD X0, (BX)(R10*8)
	// rows d … s−1: zero (fewer than eight).
	MOVQ  R8, AX
	SHRQ  $3, AX
	SUBQ  CX, AX
	MOVL  $0xff, R15
	BZHIQ AX, R15, R15
	KMOVB R15, K1
	VMOVUPD Z7, K1, (DI)(CX*8)
	// The next packed row: d − j + 1 entries on.
	LEAQ 1(R14), AX
	LEAQ (SI)(AX*8), SI
	LEAQ (DX)(AX*8), DX
	LEAQ (R9)(AX*8), R9
	ADDQ R8, DI
	INCQ R10
	JMP  col

pad:
	// Columns d … s−1: zero from their block's first row, s − 8.
	MOVQ R8, AX
	SHRQ $3, AX              // s
	CMPQ R10, AX
	JGE  done
	LEAQ -8(AX), R15
	VMOVUPD Z7, (DI)(R15*8)
	ADDQ R8, DI
	INCQ R10
	JMP  pad

done:
	VZEROUPPER
	RET
