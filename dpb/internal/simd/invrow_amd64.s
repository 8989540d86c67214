//go:build amd64 && !purego

#include "textflag.h"

// func invRowAVX2(li *float64, mt *float64, dp, i int, nmii float64)
//
// invRowGo: for j = 0, …, i−1, mt[j·dp+i] = Dot(li[j:i], mt[j·dp+j:j·dp+i])·nmii
// (nmii = −M_ii, so the product is −Dot·M_ii exactly). One dot product:
// Y0's lanes are Dot's chains s0…s3 over the full groups of four (VMULPD then
// VADDPD: each product and sum rounded, as Dot's s_r += a·b), then s2, s3 are
// set aside (X1), the tail is added to s0 one term at a time, and the result
// is (s0+s1)+(s2+s3). Successive j are independent, so the processor
// overlaps their chains.
//
// Registers: SI li+8j, R11 mt+8j(dp+1) (the column's diagonal), R8 8(dp+1),
// CX i, DX j, R9 n = i−j, R12 groups left, R13 byte offset; X7 nmii.
TEXT ·InvRowAVX2(SB), NOSPLIT, $0-40
	MOVQ   li+0(FP), SI
	MOVQ   mt+8(FP), R11
	MOVQ   dp+16(FP), R8
	INCQ   R8
	SHLQ   $3, R8
	MOVQ   i+24(FP), CX
	VMOVSD nmii+32(FP), X7
	XORQ   DX, DX

row:
	CMPQ   DX, CX
	JGE    done
	MOVQ   CX, R9
	SUBQ   DX, R9
	MOVQ   R9, R12
	SHRQ   $2, R12
	XORQ   R13, R13
	VXORPD Y0, Y0, Y0
	TESTQ  R12, R12
	JZ     lanes

quad:
	VMOVUPD (SI)(R13*1), Y2
	VMULPD  (R11)(R13*1), Y2, Y2
	VADDPD  Y2, Y0, Y0
	ADDQ    $32, R13
	DECQ    R12
	JNZ     quad

lanes:
	VEXTRACTF128 $1, Y0, X1 // s2, s3 (the VEX.128 operations below clear Y0's upper half)
	MOVQ         R9, R12
	ANDQ         $3, R12
	JZ           sum

tail:
	VMOVSD (SI)(R13*1), X2
	VMULSD (R11)(R13*1), X2, X2
	VADDSD X2, X0, X0 // s0 += a·b; s1 kept in the upper lane
	ADDQ   $8, R13
	DECQ   R12
	JNZ    tail

sum:
	VHADDPD X0, X0, X0 // s0+s1
	VHADDPD X1, X1, X1 // s2+s3
	VADDSD  X1, X0, X0
	VMULSD  X7, X0, X0
	VMOVSD  X0, (R11)(R9*8) // mt[j·dp+i]
	ADDQ    $8, SI
	ADDQ    R8, R11
	INCQ    DX
	JMP     row

done:
	VZEROUPPER
	RET

// func zFromFactorAVX512(zp, mt, u *float64, d, dp int)
//
// The loop of inverseFactorTo that forms z = M u, eight rows at a time:
// for j = 0, …, d−1, zp[i] += u_j·M_ij for i = j, …, d−1 (mt[j·dp+i] =
// M_ij), each product and sum rounded, masks keeping the rows i < j and
// i ≥ d untouched — per zp[i] the same operations in the same order as the
// Go loop. zp[:d] must be zero on entry. Requires AVX-512F and BMI2.
//
// Registers: DI zp, SI column j of mt, R8 u, CX d, BX 8dp, R9 j, R10 i0,
// R11 mask, AX, DX scratch; Z1 u_j.
TEXT ·ZFromFactorAVX512(SB), NOSPLIT, $0-40
	MOVQ zp+0(FP), DI
	MOVQ mt+8(FP), SI
	MOVQ u+16(FP), R8
	MOVQ d+24(FP), CX
	MOVQ dp+32(FP), BX
	SHLQ $3, BX
	XORQ R9, R9

zcol:
	VBROADCASTSD (R8)(R9*8), Z1
	MOVQ R9, R10
	ANDQ $-8, R10                  // i0: the block of row j
	MOVQ R9, AX
	ANDQ $7, AX
	MOVL $0xff, R11
	SHLXL AX, R11, R11             // lanes i >= j in the first block

zblock:
	MOVQ  CX, AX
	SUBQ  R10, AX                  // rows left
	MOVL  $0xff, DX
	BZHIQ AX, DX, DX
	ANDL  DX, R11                  // and i < d
	KMOVB R11, K1
	VMOVUPD.Z (SI)(R10*8), K1, Z2
	VMULPD    Z1, Z2, Z2
	VMOVUPD.Z (DI)(R10*8), K1, Z3
	VADDPD    Z2, Z3, Z3
	VMOVUPD   Z3, K1, (DI)(R10*8)
	MOVL  $0xff, R11
	ADDQ  $8, R10
	CMPQ  R10, CX
	JLT   zblock

	ADDQ BX, SI
	INCQ R9
	CMPQ R9, CX
	JLT  zcol
	VZEROUPPER
	RET
