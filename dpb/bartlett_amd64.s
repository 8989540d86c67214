//go:build amd64 && !purego

#include "textflag.h"

// BTERM adds round(a·col[k]) (a broadcast in Z8, col at off(R10)) to
// accumulator acc, the product in tmp.
#define BTERM(off, tmp, acc) \
	VMULPD off(R10), Z8, tmp; \
	VADDPD tmp, acc, acc

// BSTORE writes the lanes of one vector of W left in row i (R12 of them,
// ≤ 0 meaning none) at off(R13).
#define BSTORE(z, off) \
	MOVQ    $0xff, R14; \
	BZHIQ   R12, R14, R14; \
	XORQ    R15, R15; \
	TESTQ   R12, R12; \
	CMOVQLE R15, R14; \
	KMOVQ   R14, K1; \
	VMOVUPD z, K1, off(R13); \
	SUBQ    $8, R12

// func bartlettRowsAVX512(dst, off, col, diag *float64, n, np int, s float64)
//
// bartlettProductTo, 32 entries of a row of W a pass, one per lane: lane j
// of row i runs W_ij = s·(Σ_{l<i} A_il A_jl + A_ii A_ji) as the loop does —
// from +0, each product rounded and added in increasing l, the diagonal
// term last, then the scaling — with A_jl read from col (A by columns,
// col[l·np + j], A_ii on its diagonal) and A_il broadcast from row i of
// off. Four accumulators (Z0–Z3) are four chains of additions, which keep
// the two FP ports busy; lanes past n compute on col's zero padding and are
// not stored. The scalar loop's dependent chains ran ≈ 30 µs at n = 65
// (10 % of SS18's Wishart step at (64, 4096)). Requires AVX-512F and BMI2.
//
// Registers: DI row i of dst (packed), SI row i of off, R8 col, R9 diag, CX
// n, BX 8·np, AX i, DX j0, R10 col cursor, R11 off cursor, R12 count, R13
// store address, R14–R15 mask scratch; Z8 A_il, Z9–Z12 products, Z31 s.
TEXT ·bartlettRowsAVX512(SB), NOSPLIT, $0-56
	MOVQ         dst+0(FP), DI
	MOVQ         off+8(FP), SI
	MOVQ         col+16(FP), R8
	MOVQ         diag+24(FP), R9
	MOVQ         n+32(FP), CX
	MOVQ         np+40(FP), BX
	SHLQ         $3, BX
	VBROADCASTSD s+48(FP), Z31
	XORQ         AX, AX

row:
	CMPQ AX, CX
	JGE  done
	MOVQ AX, DX

pass:
	CMPQ   DX, CX
	JGE    nextrow
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	LEAQ   (R8)(DX*8), R10
	MOVQ   SI, R11
	MOVQ   AX, R12
	TESTQ  R12, R12
	JEQ    last

terms:
	VBROADCASTSD (R11), Z8
	BTERM(0, Z9, Z0)
	BTERM(64, Z10, Z1)
	BTERM(128, Z11, Z2)
	BTERM(192, Z12, Z3)
	ADDQ         $8, R11
	ADDQ         BX, R10
	DECQ         R12
	JNZ          terms

last:
	VBROADCASTSD (R9)(AX*8), Z8
	BTERM(0, Z9, Z0)
	BTERM(64, Z10, Z1)
	BTERM(128, Z11, Z2)
	BTERM(192, Z12, Z3)
	VMULPD       Z31, Z0, Z0
	VMULPD       Z31, Z1, Z1
	VMULPD       Z31, Z2, Z2
	VMULPD       Z31, Z3, Z3
	MOVQ         CX, R12
	SUBQ         DX, R12         // lanes left in the row
	MOVQ         DX, R13
	SUBQ         AX, R13
	LEAQ         (DI)(R13*8), R13
	BSTORE(Z0, 0)
	BSTORE(Z1, 64)
	BSTORE(Z2, 128)
	BSTORE(Z3, 192)
	ADDQ         $32, DX
	JMP          pass

nextrow:
	MOVQ CX, R12
	SUBQ AX, R12
	LEAQ (DI)(R12*8), DI       // the next row of dst: n − i entries on
	LEAQ (SI)(AX*8), SI        // the next row of off: i entries on
	INCQ AX
	JMP  row

done:
	VZEROUPPER
	RET
