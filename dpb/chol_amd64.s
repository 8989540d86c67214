//go:build amd64 && !purego

#include "textflag.h"

DATA ·cholOne<>+0(SB)/8, $1.0
GLOBL ·cholOne<>(SB), RODATA|NOPTR, $8

// func cholRowsAVX512(a, c *float64, d int) (ok bool)
//
// linalg.Cholesky(a, d) right-looking, eight entries of a row at a time:
// for k = 0…d−1, L_kk = √a_kk (false if a_kk is not > 0), inv = 1/L_kk,
// L_ik = a_ik·inv for i > k (kept in c[i] as well), then a_ij −= L_ik·L_jk
// for k < j ≤ i, a row i at a time over j, from c, in windows of eight
// that end at j = i (so each step loads what the last one stored, at the
// same address and width, which store forwarding needs). Every entry sees its
// terms in the order k = 0, 1, …, each product rounded before its
// subtraction (no fused multiply-add), then the same scaling, as in
// linalg.Cholesky's left-looking loops, so the factor has the same bits.
// Only the lower triangle of a is read and written; c holds d floats.
// Requires AVX-512F and BMI2.
//
// Registers: SI a, DI c, CX d, R12 row stride 8d, AX k, R8 &a[k·d], BX i,
// R9 &a[i·d], DX window start j, R10 lanes below k+1; X0 s, X1 inv, X2 scratch,
// X3 1, Z4 L_ik, Z5–Z6 scratch.
TEXT ·cholRowsAVX512(SB), NOSPLIT, $0-25
	MOVQ a+0(FP), SI
	MOVQ c+8(FP), DI
	MOVQ d+16(FP), CX
	MOVQ CX, R12
	SHLQ $3, R12
	VMOVSD ·cholOne<>(SB), X3
	XORQ AX, AX
	MOVQ SI, R8
	VXORPD X2, X2, X2

kloop:
	VMOVSD (R8)(AX*8), X0
	VUCOMISD X2, X0
	JBE  fail                   // !(s > 0): s <= 0 or NaN
	VSQRTSD X0, X0, X0
	VMOVSD X0, (R8)(AX*8)
	VDIVSD X0, X3, X1           // inv = 1/L_kk

	// Column k below the diagonal: L_ik = a_ik·inv, also into c[i].
	LEAQ 1(AX), BX
	LEAQ (R8)(R12*1), R9

scol:
	CMPQ BX, CX
	JGE  rows0
	VMULSD (R9)(AX*8), X1, X0
	VMOVSD X0, (R9)(AX*8)
	VMOVSD X0, (DI)(BX*8)
	INCQ BX
	ADDQ R12, R9
	JMP  scol

rows0:
	// Rows i = k+1…d−1: a_ij −= L_ik·c[j] for j = k+1…i.
	LEAQ 1(AX), BX
	LEAQ (R8)(R12*1), R9

row:
	CMPQ BX, CX
	JGE  knext
	VBROADCASTSD (R9)(AX*8), Z4
	LEAQ -7(BX), DX             // windows [j, j+7] end at i: the same ones every k

row8:
	CMPQ DX, AX
	JLE  rowtail                // window reaches below k+1
	VMULPD (DI)(DX*8), Z4, Z5
	VMOVUPD (R9)(DX*8), Z6
	VSUBPD Z5, Z6, Z6
	VMOVUPD Z6, (R9)(DX*8)
	SUBQ $8, DX
	JMP  row8

rowtail:
	LEAQ 1(AX), R10
	SUBQ DX, R10                // lanes below k+1 (1…8)
	CMPQ R10, $8
	JGE  rowdone
	MOVQ $0xff, R11
	SHLXQ R10, R11, R11
	KMOVQ R11, K1               // bits 8 and up are ignored
	VMOVUPD.Z (DI)(DX*8), K1, Z5
	VMULPD Z4, Z5, Z5
	VMOVUPD.Z (R9)(DX*8), K1, Z6
	VSUBPD Z5, Z6, Z6
	VMOVUPD Z6, K1, (R9)(DX*8)

rowdone:
	INCQ BX
	ADDQ R12, R9
	JMP  row

knext:
	INCQ AX
	ADDQ R12, R8
	CMPQ AX, CX
	JLT  kloop
	VZEROUPPER
	MOVB $1, ok+24(FP)
	RET

fail:
	VZEROUPPER
	MOVB $0, ok+24(FP)
	RET
