//go:build amd64 && !purego

#include "textflag.h"

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET

// func scoreBlocksAVX2(mt *float64, dp int, zp *float64, d int, x *float64, nblk int, beta float64, scores *float64)
//
// For each block of four consecutive actions x_k (each d floats, contiguous),
// k = 0..4·nblk−1:
//   w_k = M x_k (M lower triangular, given as mt[j·dp+i] = M_ij, zero-padded)
//   scores[k] = Σ_i z_i w_ki + β·sqrt(Σ_i w_ki²)
// Rows of M are processed four at a time (one YMM per action); for the row
// block [i0, i0+4) only columns j < min(i0+4, d) can be non-zero.
//
// Registers: SI mt, DI zp, BX row stride of mt in bytes, R9 d,
// R10–R13 the four action pointers, AX i0, CX j, DX end of j, R8 mt cursor,
// R14 blocks left, R15 scores cursor, SP untouched.
// Y0–Y3 w, Y4 mt row, Y5 broadcast x, Y6 z block, Y7 β, Y8–Y11 q, Y12–Y15 s.
TEXT ·scoreBlocksAVX2(SB), NOSPLIT, $0-64
	MOVQ mt+0(FP), SI
	MOVQ dp+8(FP), BX
	SHLQ $3, BX
	MOVQ zp+16(FP), DI
	MOVQ d+24(FP), R9
	MOVQ x+32(FP), R10
	MOVQ nblk+40(FP), R14
	VBROADCASTSD beta+48(FP), Y7
	MOVQ scores+56(FP), R15
	MOVQ R9, DX
	SHLQ $3, DX                // DX = d·8, the stride between actions
	LEAQ (R10)(DX*1), R11
	LEAQ (R11)(DX*1), R12
	LEAQ (R12)(DX*1), R13

block:
	TESTQ R14, R14
	JEQ   ret
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	VXORPD Y12, Y12, Y12
	VXORPD Y13, Y13, Y13
	VXORPD Y14, Y14, Y14
	VXORPD Y15, Y15, Y15
	XORQ AX, AX

rowblock:
	CMPQ AX, R9
	JGE  blockdone
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	MOVQ AX, DX
	ADDQ $4, DX
	CMPQ DX, R9
	CMOVQGT R9, DX             // DX = min(i0+4, d)
	LEAQ (SI)(AX*8), R8        // &mt[0·dp + i0]
	XORQ CX, CX

col:
	VMOVUPD (R8), Y4
	VBROADCASTSD (R10)(CX*8), Y5
	VFMADD231PD Y4, Y5, Y0
	VBROADCASTSD (R11)(CX*8), Y5
	VFMADD231PD Y4, Y5, Y1
	VBROADCASTSD (R12)(CX*8), Y5
	VFMADD231PD Y4, Y5, Y2
	VBROADCASTSD (R13)(CX*8), Y5
	VFMADD231PD Y4, Y5, Y3
	ADDQ BX, R8
	INCQ CX
	CMPQ CX, DX
	JLT  col

	VMOVUPD (DI)(AX*8), Y6
	VFMADD231PD Y0, Y0, Y8
	VFMADD231PD Y1, Y1, Y9
	VFMADD231PD Y2, Y2, Y10
	VFMADD231PD Y3, Y3, Y11
	VFMADD231PD Y0, Y6, Y12
	VFMADD231PD Y1, Y6, Y13
	VFMADD231PD Y2, Y6, Y14
	VFMADD231PD Y3, Y6, Y15
	ADDQ $4, AX
	JMP  rowblock

blockdone:
	// q = (Σ lanes of Y8, …, Σ lanes of Y11), s likewise from Y12–Y15.
	VHADDPD Y9, Y8, Y0         // (q0a+q0b, q1a+q1b, q0c+q0d, q1c+q1d)
	VHADDPD Y11, Y10, Y1       // (q2…, q3…, q2…, q3…)
	VPERM2F128 $0x20, Y1, Y0, Y2
	VPERM2F128 $0x31, Y1, Y0, Y3
	VADDPD Y3, Y2, Y2          // (q0, q1, q2, q3)
	VHADDPD Y13, Y12, Y0
	VHADDPD Y15, Y14, Y1
	VPERM2F128 $0x20, Y1, Y0, Y4
	VPERM2F128 $0x31, Y1, Y0, Y5
	VADDPD Y5, Y4, Y4          // (s0, s1, s2, s3)
	VSQRTPD Y2, Y2
	VFMADD231PD Y2, Y7, Y4     // s + β·sqrt(q)
	VMOVUPD Y4, (R15)
	ADDQ $32, R15

	MOVQ R9, DX
	SHLQ $5, DX                // 4 actions · d · 8 bytes
	ADDQ DX, R10
	ADDQ DX, R11
	ADDQ DX, R12
	ADDQ DX, R13
	DECQ R14
	JMP  block

ret:
	VZEROUPPER
	RET
