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

// func quadTile4AVX2(mt *float64, dp int, zp *float64, d int, x *float64, ldx int, q, s *[4]float64)
//
// For the four actions x_k = x[k·ldx : k·ldx+d], k = 0..3:
//   w_k = M x_k (M lower triangular, given as mt[j·dp+i] = M_ij, zero-padded)
//   q_k = Σ_i w_ki²,  s_k = Σ_i z_i w_ki
// Rows of M are processed four at a time (one YMM per action); for the row
// block [i0, i0+4) only columns j < min(i0+4, d) can be non-zero.
//
// Registers: SI mt, DI zp, BX row stride of mt in bytes, R9 d,
// R10–R13 the four action pointers, AX i0, CX j, DX end of j, R8 mt cursor.
// Y0–Y3 w, Y4 mt row, Y5 broadcast x, Y6 z block, Y8–Y11 q, Y12–Y15 s.
TEXT ·quadTile4AVX2(SB), NOSPLIT, $0-64
	MOVQ mt+0(FP), SI
	MOVQ dp+8(FP), BX
	SHLQ $3, BX
	MOVQ zp+16(FP), DI
	MOVQ d+24(FP), R9
	MOVQ x+32(FP), R10
	MOVQ ldx+40(FP), DX
	SHLQ $3, DX
	LEAQ (R10)(DX*1), R11
	LEAQ (R11)(DX*1), R12
	LEAQ (R12)(DX*1), R13

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
	JGE  done
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

done:
	MOVQ q+48(FP), R8
	MOVQ s+56(FP), R9
	// Horizontal sums: lanes (a, b, c, d) -> (a+c) + (b+d).
	VEXTRACTF128 $1, Y8, X0
	VADDPD X0, X8, X0
	VHADDPD X0, X0, X0
	VMOVSD X0, 0(R8)
	VEXTRACTF128 $1, Y9, X0
	VADDPD X0, X9, X0
	VHADDPD X0, X0, X0
	VMOVSD X0, 8(R8)
	VEXTRACTF128 $1, Y10, X0
	VADDPD X0, X10, X0
	VHADDPD X0, X0, X0
	VMOVSD X0, 16(R8)
	VEXTRACTF128 $1, Y11, X0
	VADDPD X0, X11, X0
	VHADDPD X0, X0, X0
	VMOVSD X0, 24(R8)
	VEXTRACTF128 $1, Y12, X0
	VADDPD X0, X12, X0
	VHADDPD X0, X0, X0
	VMOVSD X0, 0(R9)
	VEXTRACTF128 $1, Y13, X0
	VADDPD X0, X13, X0
	VHADDPD X0, X0, X0
	VMOVSD X0, 8(R9)
	VEXTRACTF128 $1, Y14, X0
	VADDPD X0, X14, X0
	VHADDPD X0, X0, X0
	VMOVSD X0, 16(R9)
	VEXTRACTF128 $1, Y15, X0
	VADDPD X0, X15, X0
	VHADDPD X0, X0, X0
	VMOVSD X0, 24(R9)
	VZEROUPPER
	RET
